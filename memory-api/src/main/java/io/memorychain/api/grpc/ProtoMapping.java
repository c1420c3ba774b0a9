package io.memorychain.api.grpc;

import io.memorychain.api.audit.AuditEntryJson;
import io.memorychain.api.auth.NewKeyBody;
import io.memorychain.api.grpc.v1.IssueKeyRequest;
import io.memorychain.api.grpc.v1.ProposeRequest;
import io.memorychain.api.grpc.v1.RefinementConsolidateRequest;
import io.memorychain.api.grpc.v1.RefinementUpdateMemoryRequest;
import io.memorychain.api.grpc.v1.ReviewProposalRequest;
import io.memorychain.api.proposals.ProposalDraft;
import io.memorychain.api.proposals.ProposalReview;
import io.memorychain.api.audit.AuditPage;
import io.memorychain.api.blocks.BlockBody;
import io.memorychain.api.chain.ChainVerificationResult;
import io.memorychain.api.grpc.v1.AuditEntry;
import io.memorychain.api.grpc.v1.ChainVerification;
import io.memorychain.api.grpc.v1.ConsolidateRequest;
import io.memorychain.api.grpc.v1.ContextAnswer;
import io.memorychain.api.grpc.v1.ContextRequest;
import io.memorychain.api.grpc.v1.Core;
import io.memorychain.api.grpc.v1.CreateMemoryRequest;
import io.memorychain.api.grpc.v1.FileChange;
import io.memorychain.api.grpc.v1.FileInfo;
import io.memorychain.api.grpc.v1.FileWriteResult;
import io.memorychain.api.grpc.v1.History;
import io.memorychain.api.grpc.v1.HistoryEntry;
import io.memorychain.api.grpc.v1.LinkRequest;
import io.memorychain.api.grpc.v1.MemoryPage;
import io.memorychain.api.grpc.v1.PutBlockRequest;
import io.memorychain.api.grpc.v1.QueryAnswer;
import io.memorychain.api.grpc.v1.QueryFilters;
import io.memorychain.api.grpc.v1.QueryItem;
import io.memorychain.api.grpc.v1.QueryRequest;
import io.memorychain.api.grpc.v1.RelatedItem;
import io.memorychain.api.grpc.v1.Relation;
import io.memorychain.api.grpc.v1.Relations;
import io.memorychain.api.grpc.v1.UpdateMemoryRequest;
import io.memorychain.api.grpc.v1.WriteResult;
import io.memorychain.api.markdown.FileJson;
import io.memorychain.api.markdown.FileWriteJson;
import io.memorychain.api.memories.ActorJson;
import io.memorychain.api.memories.ConsolidateBody;
import io.memorychain.api.memories.CreateMemoryBody;
import io.memorychain.api.memories.HistoryEntryJson;
import io.memorychain.api.memories.MemoryJson;
import io.memorychain.api.memories.UpdateMemoryBody;
import io.memorychain.api.relations.LinkBody;
import io.memorychain.api.relations.RelationsJson;
import io.memorychain.api.retrieval.ContextBody;
import io.memorychain.api.retrieval.FiltersBody;
import io.memorychain.api.retrieval.QueryBody;
import io.memorychain.api.retrieval.QueryJson;
import java.util.List;
import java.util.function.Consumer;

/**
 * Messages to and from the REST API's body and response records. gRPC requests become the same bodies the REST
 * controllers receive (so the same request builders validate them), and answers are built from the same response
 * records REST serialises (so formatting rules, e.g. lower-case enums, ISO-8601 times, rounded scores, exist once).
 * An unset {@code optional} field is null, as an absent JSON property.
 */
final class ProtoMapping {

    private ProtoMapping() {
    }

    // ---------------------------------------------------------------- requests -> REST bodies

    static CreateMemoryBody body(CreateMemoryRequest r) {
        return new CreateMemoryBody(required(r.getContent()), r.hasKind() ? r.getKind() : null, r.hasTier() ? r.getTier() : null,
                r.hasCategory() ? r.getCategory() : null, r.hasSummary() ? r.getSummary() : null,
                r.getTagsCount() == 0 ? null : r.getTagsList(), r.hasImportance() ? r.getImportance() : null,
                r.hasConfidence() ? r.getConfidence() : null, r.hasSource() ? r.getSource() : null,
                r.hasUserId() ? r.getUserId() : null, r.hasAgentId() ? r.getAgentId() : null,
                r.hasRunId() ? r.getRunId() : null, r.hasActorId() ? r.getActorId() : null,
                r.hasThreadId() ? r.getThreadId() : null, r.hasRole() ? r.getRole() : null,
                r.hasCreatedAt() ? r.getCreatedAt() : null, r.hasPinned() ? r.getPinned() : null);
    }

    static UpdateMemoryBody body(UpdateMemoryRequest r) {
        return new UpdateMemoryBody(r.hasContent() ? r.getContent() : null, r.hasSummary() ? r.getSummary() : null,
                r.hasTags() ? r.getTags().getValuesList() : null, r.hasImportance() ? r.getImportance() : null,
                r.hasConfidence() ? r.getConfidence() : null, r.hasCategory() ? r.getCategory() : null,
                r.hasTier() ? r.getTier() : null, r.hasExpectedVersion() ? r.getExpectedVersion() : null);
    }

    static ConsolidateBody body(ConsolidateRequest r) {
        return new ConsolidateBody(r.getIdsCount() == 0 ? null : r.getIdsList(), required(r.getContent()), r.hasSummary() ? r.getSummary() : null,
                r.hasReason() ? r.getReason() : null, r.hasCategory() ? r.getCategory() : null,
                r.hasTags() ? r.getTags().getValuesList() : null, r.hasImportance() ? r.getImportance() : null);
    }

    static BlockBody body(PutBlockRequest r) {
        return new BlockBody(required(r.getContent()), r.hasCore() ? r.getCore() : null,
                r.hasExpectedVersion() ? r.getExpectedVersion() : null);
    }

    static LinkBody body(LinkRequest r) {
        return new LinkBody(required(r.getTo()), r.hasType() ? r.getType() : null,
                r.hasStrength() ? r.getStrength() : null);
    }

    static QueryBody body(QueryRequest r) {
        QueryFilters f = r.getFilters();
        FiltersBody filters = !r.hasFilters() ? null : new FiltersBody(f.hasUserId() ? f.getUserId() : null,
                f.hasAgentId() ? f.getAgentId() : null, f.hasRunId() ? f.getRunId() : null,
                f.hasActorId() ? f.getActorId() : null, f.hasRole() ? f.getRole() : null,
                f.hasCategory() ? f.getCategory() : null, f.hasPinned() ? f.getPinned() : null,
                f.hasImportanceMin() ? f.getImportanceMin() : null, f.hasImportanceMax() ? f.getImportanceMax() : null,
                f.hasUpdatedAfter() ? f.getUpdatedAfter() : null, f.hasUpdatedBefore() ? f.getUpdatedBefore() : null);
        return new QueryBody(r.hasAgent() ? r.getAgent() : null, required(r.getQuery()),
                r.getCategoriesCount() == 0 ? null : r.getCategoriesList(), filters, r.hasTopK() ? r.getTopK() : null,
                r.hasReturn() ? r.getReturn() : null, r.hasBudgetTokens() ? r.getBudgetTokens() : null,
                r.hasThreshold() ? r.getThreshold() : null, r.hasIncludeSuperseded() ? r.getIncludeSuperseded() : null,
                r.hasIncludeDormant() ? r.getIncludeDormant() : null, r.hasThreadId() ? r.getThreadId() : null,
                r.hasSinceRev() ? r.getSinceRev() : null);
    }

    static ContextBody body(ContextRequest r) {
        return new ContextBody(required(r.getMessage()), r.hasThreadId() ? r.getThreadId() : null,
                r.hasSinceRev() ? r.getSinceRev() : null, r.hasMaxTokens() ? r.getMaxTokens() : null,
                r.hasAgent() ? r.getAgent() : null);
    }

    static ConsolidateBody body(RefinementConsolidateRequest r) {
        return new ConsolidateBody(r.getIdsCount() == 0 ? null : r.getIdsList(), required(r.getContent()), r.hasSummary() ? r.getSummary() : null,
                r.hasReason() ? r.getReason() : null, r.hasCategory() ? r.getCategory() : null,
                r.hasTags() ? r.getTags().getValuesList() : null, r.hasImportance() ? r.getImportance() : null);
    }

    static UpdateMemoryBody body(RefinementUpdateMemoryRequest r) {
        return new UpdateMemoryBody(r.hasContent() ? r.getContent() : null, r.hasSummary() ? r.getSummary() : null,
                r.hasTags() ? r.getTags().getValuesList() : null, r.hasImportance() ? r.getImportance() : null,
                r.hasConfidence() ? r.getConfidence() : null, r.hasCategory() ? r.getCategory() : null,
                r.hasTier() ? r.getTier() : null, r.hasExpectedVersion() ? r.getExpectedVersion() : null);
    }

    static ProposalDraft body(ProposeRequest r) {
        return new ProposalDraft(required(r.getContent()), r.hasKind() ? r.getKind() : null,
                r.hasCategory() ? r.getCategory() : null, r.hasSummary() ? r.getSummary() : null,
                r.getTagsCount() == 0 ? null : r.getTagsList(), r.getEntitiesCount() == 0 ? null : r.getEntitiesList(),
                r.hasImportance() ? r.getImportance() : null, r.hasConfidence() ? r.getConfidence() : null,
                r.hasCoreWorthy() ? r.getCoreWorthy() : null, r.hasPinned() ? r.getPinned() : null,
                r.hasTrigger() ? r.getTrigger() : null);
    }

    static ProposalReview body(ReviewProposalRequest r) {
        return new ProposalReview(r.hasReason() ? r.getReason() : null, r.hasExpectedVersion() ? r.getExpectedVersion() : null,
                r.hasKind() ? r.getKind() : null, r.hasTier() ? r.getTier() : null, r.hasCategory() ? r.getCategory() : null,
                r.hasSummary() ? r.getSummary() : null, r.hasTags() ? r.getTags().getValuesList() : null,
                r.hasImportance() ? r.getImportance() : null, r.hasConfidence() ? r.getConfidence() : null,
                r.hasPinned() ? r.getPinned() : null);
    }

    static NewKeyBody body(IssueKeyRequest r) {
        return new NewKeyBody(required(r.getId()), required(r.getRole()), r.hasAgentId() ? r.getAgentId() : null,
                r.getSpacesCount() == 0 ? null : r.getSpacesList());
    }

    // ---------------------------------------------------------------- REST response records -> messages

    static io.memorychain.api.grpc.v1.Memory memory(MemoryJson m) {
        io.memorychain.api.grpc.v1.Memory.Builder b = io.memorychain.api.grpc.v1.Memory.newBuilder()
                .setId(m.id()).setSpace(m.space()).setKind(m.kind()).setTier(m.tier())
                .setContent(m.content()).addAllTags(m.tags()).setImportance(m.importance()).setConfidence(m.confidence())
                .setCreatedAt(nonNull(m.createdAt())).setUpdatedAt(nonNull(m.updatedAt())).setVersion(m.version())
                .setState(m.state()).addAllSupersedes(m.supersedes()).setPinned(m.pinned())
                .setConstitutional(m.constitutional()).setContentHash(nonNull(m.contentHash()))
                .setDecayStatus(nonNull(m.decayStatus()));
        set(m.purgeAt(), b::setPurgeAt);
        set(m.blockLabel(), b::setBlockLabel);
        set(m.category(), b::setCategory);
        set(m.summary(), b::setSummary);
        set(m.source(), b::setSource);
        set(m.userId(), b::setUserId);
        set(m.agentId(), b::setAgentId);
        set(m.runId(), b::setRunId);
        set(m.actorId(), b::setActorId);
        set(m.threadId(), b::setThreadId);
        set(m.role(), b::setRole);
        set(m.supersededBy(), b::setSupersededBy);
        return b.build();
    }

    static WriteResult write(io.memorychain.api.write.WriteResult result, String requestId) {
        return WriteResult.newBuilder().setMemory(memory(MemoryJson.of(result.memory()))).setSeq(result.seq())
                .setRequestId(requestId).build();
    }

    static MemoryPage page(List<MemoryJson> items, String next) {
        MemoryPage.Builder b = MemoryPage.newBuilder();
        items.forEach(m -> b.addItems(memory(m)));
        set(next, b::setNext);
        return b.build();
    }

    static io.memorychain.api.grpc.v1.Actor actor(ActorJson a) {
        io.memorychain.api.grpc.v1.Actor.Builder b = io.memorychain.api.grpc.v1.Actor.newBuilder();
        if (a != null) {
            b.setType(nonNull(a.type())).setId(nonNull(a.id()));
        }
        return b.build();
    }

    static History history(String id, List<HistoryEntryJson> entries) {
        History.Builder b = History.newBuilder().setId(id);
        for (HistoryEntryJson e : entries) {
            HistoryEntry.Builder h = HistoryEntry.newBuilder().setSeq(e.seq()).setEventType(nonNull(e.eventType()))
                    .setRequestId(nonNull(e.requestId())).setActor(actor(e.actor())).setOccurredAt(nonNull(e.occurredAt()));
            if (e.before() != null) {
                h.setBefore(memory(e.before()));
            }
            if (e.after() != null) {
                h.setAfter(memory(e.after()));
            }
            b.addItems(h);
        }
        return b.build();
    }

    static Core core(String text, int tokens, List<MemoryJson> memories) {
        Core.Builder b = Core.newBuilder().setText(text).setTokens(tokens);
        memories.forEach(m -> b.addMemories(memory(m)));
        return b.build();
    }

    static AuditEntry audit(AuditEntryJson e) {
        return AuditEntry.newBuilder().setSeq(e.seq()).setEventType(nonNull(e.eventType()))
                .setRequestId(nonNull(e.requestId())).setActor(actor(e.actor())).setOccurredAt(nonNull(e.occurredAt()))
                .addAllMemoryIds(e.memoryIds()).setDescription(nonNull(e.description())).setHash(nonNull(e.hash())).build();
    }

    static io.memorychain.api.grpc.v1.AuditPage audit(AuditPage page) {
        io.memorychain.api.grpc.v1.AuditPage.Builder b = io.memorychain.api.grpc.v1.AuditPage.newBuilder();
        page.items().forEach(e -> b.addItems(audit(e)));
        if (page.nextAfterSeq() != null) {
            b.setNextAfterSeq(page.nextAfterSeq());
        }
        return b.build();
    }

    static ChainVerification chain(ChainVerificationResult r) {
        ChainVerification.Builder b = ChainVerification.newBuilder().setOk(r.ok()).setEvents(r.events());
        if (r.firstBadSeq() != null) {
            b.setFirstBadSeq(r.firstBadSeq());
        }
        set(r.problem(), b::setProblem);
        set(r.message(), b::setMessage);
        return b.build();
    }

    static Relations relations(RelationsJson r) {
        Relations.Builder b = Relations.newBuilder().setId(r.id());
        r.relations().forEach(e -> b.addRelations(Relation.newBuilder().setFromId(e.fromId()).setToId(e.toId())
                .setType(e.type()).setStrength(e.strength()).setSeq(e.seq())));
        return b.build();
    }

    static QueryAnswer answer(QueryJson.Answer a) {
        QueryAnswer.Builder b = QueryAnswer.newBuilder().setHeader(nonNull(a.header())).setRevision(a.revision())
                .setTokens(a.tokens()).setOmitted(a.omitted()).setText(nonNull(a.text()));
        for (QueryJson.Item i : a.items()) {
            QueryItem.Builder item = QueryItem.newBuilder().setId(i.id()).setText(nonNull(i.text())).setScore(i.score())
                    .setDecay(nonNull(i.decay()));
            set(i.category(), item::setCategory);
            i.related().forEach(r -> item.addRelated(RelatedItem.newBuilder().setId(r.id()).setRelation(nonNull(r.relation()))
                    .setStrength(r.strength()).setText(nonNull(r.text()))));
            if (i.memory() != null) {
                item.setMemory(memory(i.memory()));
            }
            b.addItems(item);
        }
        return b.build();
    }

    static ContextAnswer context(QueryJson.Context c) {
        return ContextAnswer.newBuilder().setText(nonNull(c.text())).setTokens(c.tokens()).setRevision(c.revision())
                .setCoreTruncated(c.coreTruncated()).addAllMemoryIds(c.memoryIds()).setOmitted(c.omitted()).build();
    }

    static FileInfo file(FileJson f) {
        return FileInfo.newBuilder().setPath(f.path()).setSummary(nonNull(f.summary())).setSize(f.size())
                .setEntries(f.entries()).build();
    }

    static FileWriteResult fileWrite(FileWriteJson w, String requestId) {
        FileWriteResult.Builder b = FileWriteResult.newBuilder().setPath(w.path()).setApplied(w.applied())
                .setRequestId(requestId);
        w.changes().forEach(c -> b.addChanges(FileChange.newBuilder().setLine(c.line()).setAction(c.action())
                .setTarget(nonNull(c.target())).setSeq(c.seq())));
        if (w.file() != null) {
            b.setFile(file(w.file()));
        }
        return b.build();
    }

    private static void set(String value, Consumer<String> setter) {
        if (value != null) {
            setter.accept(value);
        }
    }

    /** A required proto3 string: unset is "", which the REST bodies see as an absent property. */
    static String required(String value) {
        return value.isEmpty() ? null : value;
    }

    private static String nonNull(String value) {
        return value == null ? "" : value;
    }
}
