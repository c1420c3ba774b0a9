package io.memorychain.api.proposals;

import io.memorychain.api.error.ApiException;
import io.memorychain.api.request.Enums;
import io.memorychain.api.request.InputRules;
import io.memorychain.avro.Confidence;
import io.memorychain.avro.MemoryKind;
import io.memorychain.avro.ProposalDecision;
import io.memorychain.avro.ProposedMemory;
import io.memorychain.avro.ResolveProposal;
import io.memorychain.avro.SubmitProposal;
import io.memorychain.avro.Tier;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/** Turns proposal drafts and reviews into the Avro operations of {@code MemoryRequest}. Pure: no I/O. */
final class ProposalRequests {

    private final InputRules rules;

    public ProposalRequests(InputRules rules) {
        this.rules = rules;
    }

    public SubmitProposal submit(ProposalDraft draft) {
        if (draft == null) {
            throw ApiException.invalid("A JSON body with at least 'content' is required");
        }
        ProposedMemory.Builder p = ProposedMemory.newBuilder()
                .setContent(rules.content("content", draft.content()))
                .setCategory(InputRules.text("category", draft.category(), InputRules.MAX_SHORT_TEXT))
                .setSummary(InputRules.text("summary", draft.summary(), InputRules.MAX_SUMMARY))
                .setTrigger(InputRules.text("trigger", draft.trigger(), InputRules.MAX_SUMMARY));
        MemoryKind kind = kind(draft.kind());
        if (kind != null) {
            p.setKind(kind);
        }
        List<String> tags = InputRules.tags("tags", draft.tags());
        List<String> entities = InputRules.tags("entities", draft.entities());
        Set<String> all = new LinkedHashSet<>(tags == null ? List.of() : tags);
        all.addAll(entities == null ? List.of() : entities);
        if (all.size() > InputRules.MAX_TAGS) {
            throw ApiException.invalid("tags and entities have " + all.size() + " distinct entries together; at most "
                    + InputRules.MAX_TAGS + " are allowed (entities become tags on commit)");
        }
        if (tags != null) {
            p.setTags(tags);
        }
        if (entities != null) {
            p.setEntities(entities);
        }
        Integer importance = InputRules.importance(draft.importance());
        if (importance != null) {
            p.setImportance(importance);
        }
        Confidence confidence = Enums.parse(Confidence.class, "confidence", draft.confidence());
        if (confidence != null) {
            p.setConfidence(confidence);
        }
        if (draft.coreWorthy() != null) {
            p.setCoreWorthy(draft.coreWorthy());
        }
        if (draft.pinned() != null) {
            p.setPinned(draft.pinned());
        }
        return new SubmitProposal(p.build());
    }

    /** @param conflictsWith ids flagged as conflicting, recorded with the resolution */
    public ResolveProposal resolve(
            String id, ProposalDecision decision, ProposalReview review, List<String> conflictsWith) {
        ProposalReview r = review == null ? ProposalReview.NONE : review;
        if (decision != ProposalDecision.COMMIT && r.overrides()) {
            throw ApiException.invalid(
                    "kind, tier, category, summary, tags, importance, confidence and pinned override "
                            + "a proposal when it is committed; a "
                            + decision.name().toLowerCase(java.util.Locale.ROOT)
                            + " takes only reason and expected_version");
        }
        return ResolveProposal.newBuilder()
                .setProposalId(id)
                .setDecision(decision)
                .setReason(InputRules.text("reason", r.reason(), InputRules.MAX_REASON))
                .setKind(kind(r.kind()))
                .setTier(Enums.parse(Tier.class, "tier", r.tier()))
                .setCategory(InputRules.text("category", r.category(), InputRules.MAX_SHORT_TEXT))
                .setSummary(InputRules.text("summary", r.summary(), InputRules.MAX_SUMMARY))
                .setTags(InputRules.tags("tags", r.tags()))
                .setImportance(InputRules.importance(r.importance()))
                .setConfidence(Enums.parse(Confidence.class, "confidence", r.confidence()))
                .setPinned(r.pinned())
                .setConflictsWith(List.copyOf(conflictsWith))
                .build();
    }

    private static MemoryKind kind(String value) {
        MemoryKind kind = Enums.parse(MemoryKind.class, "kind", value);
        if (kind == MemoryKind.BLOCK) {
            throw ApiException.invalid("kind 'block' cannot be proposed: blocks are written by the main agent with PUT "
                    + "/v1/spaces/{space}/blocks/{label}");
        }
        return kind;
    }
}
