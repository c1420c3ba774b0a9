package io.memorychain.api.grpc;

import io.memorychain.api.history.AsOf;
import io.memorychain.api.history.PointInTimeReads;

import io.grpc.stub.ServerCallStreamObserver;
import io.grpc.stub.StreamObserver;
import io.memorychain.api.audit.AuditLog;
import io.memorychain.api.auth.ApiKeys;
import io.memorychain.api.auth.KeyJson;
import io.memorychain.api.auth.NewKeyBody;
import io.memorychain.api.auth.Principal;
import io.memorychain.api.blocks.Blocks;
import io.memorychain.api.chain.ChainVerification;
import io.memorychain.api.core.CoreJson;
import io.memorychain.api.core.CoreMemory;
import io.memorychain.api.chain.ChainCheckpoints;
import io.memorychain.api.grpc.v1.ApiKey;
import io.memorychain.api.grpc.v1.ChainCheckpoint;
import io.memorychain.api.grpc.v1.HardDeleteRequest;
import io.memorychain.api.grpc.v1.ChainPublicKeys;
import io.memorychain.api.grpc.v1.GetChainCheckpointRequest;
import io.memorychain.api.grpc.v1.GetChainKeysRequest;
import io.memorychain.api.grpc.v1.ApiKeyList;
import io.memorychain.api.grpc.v1.AppendFileRequest;
import io.memorychain.api.grpc.v1.AuditEntry;
import io.memorychain.api.grpc.v1.AuditPage;
import io.memorychain.api.grpc.v1.Caller;
import io.memorychain.api.grpc.v1.CompleteRefinementRequest;
import io.memorychain.api.grpc.v1.ConsolidateRequest;
import io.memorychain.api.grpc.v1.ContextAnswer;
import io.memorychain.api.grpc.v1.ContextRequest;
import io.memorychain.api.grpc.v1.Core;
import io.memorychain.api.grpc.v1.CreateMemoryRequest;
import io.memorychain.api.grpc.v1.DeleteMemoryRequest;
import io.memorychain.api.grpc.v1.FileContent;
import io.memorychain.api.grpc.v1.FileList;
import io.memorychain.api.grpc.v1.FileWriteResult;
import io.memorychain.api.grpc.v1.GetBlockRequest;
import io.memorychain.api.grpc.v1.GetCoreRequest;
import io.memorychain.api.grpc.v1.GetHistoryRequest;
import io.memorychain.api.grpc.v1.GetMemoryRequest;
import io.memorychain.api.grpc.v1.GetProposalRequest;
import io.memorychain.api.grpc.v1.GetRefinementRequest;
import io.memorychain.api.grpc.v1.GetRelationsRequest;
import io.memorychain.api.grpc.v1.History;
import io.memorychain.api.grpc.v1.IssueKeyRequest;
import io.memorychain.api.grpc.v1.LinkRequest;
import io.memorychain.api.grpc.v1.ListAuditRequest;
import io.memorychain.api.grpc.v1.ListFilesRequest;
import io.memorychain.api.grpc.v1.ListKeysRequest;
import io.memorychain.api.grpc.v1.ListMemoriesRequest;
import io.memorychain.api.grpc.v1.ListProposalsRequest;
import io.memorychain.api.grpc.v1.ListRefinementsRequest;
import io.memorychain.api.grpc.v1.MemoryActionRequest;
import io.memorychain.api.grpc.v1.MemoryPage;
import io.memorychain.api.grpc.v1.MemoryServiceGrpc;
import io.memorychain.api.grpc.v1.PatchFileRequest;
import io.memorychain.api.grpc.v1.Proposal;
import io.memorychain.api.grpc.v1.ProposalList;
import io.memorychain.api.grpc.v1.ProposalWriteResult;
import io.memorychain.api.grpc.v1.ProposeRequest;
import io.memorychain.api.grpc.v1.PutBlockRequest;
import io.memorychain.api.grpc.v1.QueryAnswer;
import io.memorychain.api.grpc.v1.QueryRequest;
import io.memorychain.api.grpc.v1.ReadFileRequest;
import io.memorychain.api.grpc.v1.RefinementCompletion;
import io.memorychain.api.grpc.v1.RefinementConsolidateRequest;
import io.memorychain.api.grpc.v1.RefinementDeleteMemoryRequest;
import io.memorychain.api.grpc.v1.RefinementList;
import io.memorychain.api.grpc.v1.RefinementProtectMemoryRequest;
import io.memorychain.api.grpc.v1.RefinementSearchResult;
import io.memorychain.api.grpc.v1.RefinementSession;
import io.memorychain.api.grpc.v1.RefinementUpdateMemoryRequest;
import io.memorychain.api.grpc.v1.ReviewProposalRequest;
import io.memorychain.api.grpc.v1.DecideReflectionRequest;
import io.memorychain.api.grpc.v1.GetReflectionRequest;
import io.memorychain.api.grpc.v1.ListReflectionsRequest;
import io.memorychain.api.grpc.v1.Reflection;
import io.memorychain.api.grpc.v1.ReflectionLog;
import io.memorychain.api.grpc.v1.ReflectionRequested;
import io.memorychain.api.grpc.v1.RequestReflectionRequest;
import io.memorychain.api.reflections.ReflectionChangeJson;
import io.memorychain.api.reflections.ReflectionDecisionBody;
import io.memorychain.api.reflections.ReflectionJson;
import io.memorychain.api.reflections.ReflectionService;
import io.memorychain.api.grpc.v1.RevokeKeyRequest;
import io.memorychain.api.grpc.v1.SearchRefinementRequest;
import io.memorychain.api.grpc.v1.StartRefinementRequest;
import io.memorychain.api.grpc.v1.UnlinkRequest;
import io.memorychain.api.grpc.v1.UpdateMemoryRequest;
import io.memorychain.api.grpc.v1.VerifyChainRequest;
import io.memorychain.api.grpc.v1.WatchChangesRequest;
import io.memorychain.api.grpc.v1.WhoAmIRequest;
import io.memorychain.api.grpc.v1.WriteResult;
import io.memorychain.api.markdown.FileListJson;
import io.memorychain.api.markdown.FileWriteJson;
import io.memorychain.api.markdown.MarkdownFile;
import io.memorychain.api.markdown.MarkdownFiles;
import io.memorychain.api.markdown.MarkdownPaths;
import io.memorychain.api.markdown.TextEdit;
import io.memorychain.api.memories.HistoryEntryJson;
import io.memorychain.api.memories.HistoryResponse;
import io.memorychain.api.memories.Memories;
import io.memorychain.api.memories.MemoryJson;
import io.memorychain.api.memories.MemoryRequests;
import io.memorychain.api.memories.WriteResponse;
import io.memorychain.api.proposals.ProposalJson;
import io.memorychain.api.proposals.ProposalListJson;
import io.memorychain.api.proposals.ProposalResult;
import io.memorychain.api.proposals.ProposalService;
import io.memorychain.api.proposals.ProposalWriteJson;
import io.memorychain.api.refinement.Completion;
import io.memorychain.api.refinement.CompletionJson;
import io.memorychain.api.refinement.RefinementListJson;
import io.memorychain.api.refinement.RefinementSearchBody;
import io.memorychain.api.refinement.RefinementSearchJson;
import io.memorychain.api.refinement.RefinementSessionJson;
import io.memorychain.api.refinement.RefinementSessions;
import io.memorychain.api.refinement.SessionView;
import io.memorychain.api.relations.RelationsJson;
import io.memorychain.api.request.PathIds;
import io.memorychain.api.request.Spaces;
import io.memorychain.api.retrieval.Retrieval;
import io.memorychain.api.write.WriteContext;
import io.memorychain.avro.Actor;
import io.memorychain.avro.MemoryFlag;
import io.memorychain.avro.MemoryOutcome;
import io.memorychain.avro.ProposalDecision;
import io.memorychain.projector.view.Page;
import jakarta.inject.Singleton;
import java.util.List;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The gRPC {@code memorychain.v1.MemoryService}: each method turns its request into the REST body, calls the same
 * transport-neutral operation the REST controller calls ({@link Memories}, {@link Blocks}, {@link CoreMemory},
 * {@link Retrieval}, {@link io.memorychain.api.relations.Relations}, {@link AuditLog}, {@link ChainVerification},
 * {@link MarkdownFiles}, {@link RefinementSessions}, {@link ProposalService}, {@link ApiKeys}), and answers the REST
 * response record as a message ({@link ProtoMapping}, {@link ProtoJson}). The caller is the
 * principal {@link GrpcAuthInterceptor} authenticated; its actor is the actor of every write. Errors are gRPC
 * statuses ({@link GrpcErrors}). Handlers block (the write path waits for outcome and projection): they run on the
 * gRPC server's executor, Micronaut's IO pool, never on a Netty event loop.
 */
@Singleton
public class MemoryGrpcService extends MemoryServiceGrpc.MemoryServiceImplBase {

    private final Memories memories;
    private final Blocks blocks;
    private final CoreMemory core;
    private final Retrieval retrieval;
    private final io.memorychain.api.relations.Relations relations;
    private final AuditLog audit;
    private final ChainVerification chain;
    private final ChainCheckpoints checkpoints;
    private final MarkdownFiles files;
    private final ChangeStreams changes;
    private final RefinementSessions refinements;
    private final MemoryRequests requests;
    private final ProposalService proposals;
    private final ReflectionService reflections;
    private final ApiKeys keys;
    private final ProtoJson proto;
    private final io.memorychain.api.rollback.Rollbacks rollbacks;
    private final PointInTimeReads pointInTime;
    private final io.memorychain.api.grants.GrantedReads granted;

    private final io.memorychain.api.erasure.Erasures erasures;

    public MemoryGrpcService(Memories memories, Blocks blocks, CoreMemory core, Retrieval retrieval,
                             io.memorychain.api.relations.Relations relations, AuditLog audit, ChainVerification chain,
                             ChainCheckpoints checkpoints, MarkdownFiles files, ChangeStreams changes, RefinementSessions refinements,
                             MemoryRequests requests, ProposalService proposals, ApiKeys keys, ProtoJson proto,
                             io.memorychain.api.rollback.Rollbacks rollbacks, PointInTimeReads pointInTime,
                             ReflectionService reflections, io.memorychain.api.grants.GrantedReads granted,
                             io.memorychain.api.erasure.Erasures erasures) {
        this.erasures = erasures;
        this.reflections = reflections;
        this.granted = granted;
        this.rollbacks = rollbacks;
        this.pointInTime = pointInTime;
        this.memories = memories;
        this.blocks = blocks;
        this.core = core;
        this.retrieval = retrieval;
        this.relations = relations;
        this.audit = audit;
        this.chain = chain;
        this.checkpoints = checkpoints;
        this.files = files;
        this.changes = changes;
        this.refinements = refinements;
        this.requests = requests;
        this.proposals = proposals;
        this.keys = keys;
        this.proto = proto;
    }

    // ---------------------------------------------------------------- time machine (docs/architecture.md §17)

    @Override
    public void planRollback(io.memorychain.api.grpc.v1.RollbackRequest r,
                             StreamObserver<io.memorychain.api.grpc.v1.RollbackPlan> out) {
        unary(out, "PlanRollback", () -> proto.fill(rollbacks.planFor(Spaces.require(r.getSpace()), actor(),
                rollbackSpec(r)),
                io.memorychain.api.grpc.v1.RollbackPlan.newBuilder()).build());
    }

    @Override
    public void applyRollback(io.memorychain.api.grpc.v1.RollbackRequest r,
                              StreamObserver<io.memorychain.api.grpc.v1.RollbackPlan> out) {
        unary(out, "ApplyRollback", () -> {
            WriteContext ctx = context(r.getSpace(), r.hasIdempotencyKey() ? r.getIdempotencyKey() : null, null);
            return proto.fill(rollbacks.shown(ctx.actor(), rollbacks.apply(ctx, rollbackSpec(r),
                    r.hasReason() ? r.getReason() : null, r.hasPlanDigest() ? r.getPlanDigest() : null)),
                    io.memorychain.api.grpc.v1.RollbackPlan.newBuilder()).build();
        });
    }

    private static io.memorychain.domain.rollback.RollbackSpec rollbackSpec(io.memorychain.api.grpc.v1.RollbackRequest r) {
        return io.memorychain.api.rollback.Rollbacks.spec(r.hasMemoryId() ? r.getMemoryId() : null,
                r.hasSessionId() ? r.getSessionId() : null, r.hasActor() ? r.getActor() : null,
                r.hasReflectionId() ? r.getReflectionId() : null, r.hasFromSeq() ? r.getFromSeq() : null, r.hasToSeq() ? r.getToSeq() : null,
                r.hasToTime() ? r.getToTime() : null);
    }

    // ---------------------------------------------------------------- memories

    @Override
    public void createMemory(CreateMemoryRequest r, StreamObserver<WriteResult> out) {
        write(out, "CreateMemory", r.getSpace(), r.hasIdempotencyKey() ? r.getIdempotencyKey() : null, null,
                ctx -> memories.create(ctx, ProtoMapping.body(r)));
    }

    @Override
    public void getMemory(GetMemoryRequest r, StreamObserver<io.memorychain.api.grpc.v1.Memory> out) {
        unary(out, "GetMemory", () -> {
            AsOf at = pointInTime.asOf(r.getSpace(), r.hasAsOfSeq() ? String.valueOf(r.getAsOfSeq()) : null,
                    r.hasAsOf() ? r.getAsOf() : null);
            io.memorychain.avro.Memory memory = granted.read(r.getSpace(), actor(), "get_memory",
                    io.memorychain.api.grants.GrantedReads.detail("id", r.getId(), "as_of", at), () -> at == null
                            ? memories.get(r.getSpace(), r.getId(), actor())
                            : pointInTime.memory(r.getSpace(), r.getId(), actor(), at), m -> List.of(m.getId()));
            return proto.fill(MemoryJson.of(memory), io.memorychain.api.grpc.v1.Memory.newBuilder()).build();
        });
    }

    @Override
    public void listMemories(ListMemoriesRequest r, StreamObserver<MemoryPage> out) {
        unary(out, "ListMemories", () -> {
            AsOf at = pointInTime.asOf(r.getSpace(), r.hasAsOfSeq() ? String.valueOf(r.getAsOfSeq()) : null,
                    r.hasAsOf() ? r.getAsOf() : null);
            String kind = r.hasKind() ? r.getKind() : null;
            String category = r.hasCategory() ? r.getCategory() : null;
            String state = r.hasState() ? r.getState() : null;
            String after = r.hasAfter() ? r.getAfter() : null;
            Integer limit = r.hasLimit() ? r.getLimit() : null;
            Page<io.memorychain.avro.Memory> page = granted.read(r.getSpace(), actor(), "list_memories",
                    io.memorychain.api.grants.GrantedReads.detail("kind", kind, "category", category, "state", state,
                            "after", after, "limit", limit, "as_of", at), () -> at == null
                            ? memories.list(r.getSpace(), actor(), kind, category, state, after, limit)
                            : pointInTime.list(r.getSpace(), actor(), kind, category, state, after,
                            limit == null ? io.memorychain.api.memories.Memories.DEFAULT_LIMIT : limit, at),
                    p -> p.items().stream().map(io.memorychain.avro.Memory::getId).toList());
            return proto.fill(new io.memorychain.api.memories.MemoryPage(page.items().stream().map(MemoryJson::of).toList(),
                    page.next()), MemoryPage.newBuilder()).build();
        });
    }

    @Override
    public void updateMemory(UpdateMemoryRequest r, StreamObserver<WriteResult> out) {
        write(out, "UpdateMemory", r.getSpace(), r.hasIdempotencyKey() ? r.getIdempotencyKey() : null,
                r.hasExpectedVersion() ? r.getExpectedVersion() : null, ctx -> memories.update(ctx, r.getId(), ProtoMapping.body(r)));
    }

    @Override
    public void deleteMemory(DeleteMemoryRequest r, StreamObserver<WriteResult> out) {
        write(out, "DeleteMemory", r.getSpace(), r.hasIdempotencyKey() ? r.getIdempotencyKey() : null,
                r.hasExpectedVersion() ? r.getExpectedVersion() : null,
                ctx -> memories.delete(ctx, r.getId(), r.hasReason() ? r.getReason() : null));
    }

    @Override
    public void eraseMemory(HardDeleteRequest r, StreamObserver<WriteResult> out) {
        write(out, "EraseMemory", r.getSpace(), r.hasIdempotencyKey() ? r.getIdempotencyKey() : null,
                r.hasExpectedVersion() ? r.getExpectedVersion() : null,
                ctx -> erasures.erase(ctx, r.getId(), r.getReason()));
    }

    @Override
    public void purgeMemory(HardDeleteRequest r, StreamObserver<WriteResult> out) {
        write(out, "PurgeMemory", r.getSpace(), r.hasIdempotencyKey() ? r.getIdempotencyKey() : null,
                r.hasExpectedVersion() ? r.getExpectedVersion() : null,
                ctx -> erasures.purge(ctx, r.getId(), r.getReason()));
    }

    @Override
    public void restoreMemory(MemoryActionRequest r, StreamObserver<WriteResult> out) {
        action(r, out, "RestoreMemory", ctx -> memories.restore(ctx, r.getId()));
    }

    @Override
    public void protectMemory(MemoryActionRequest r, StreamObserver<WriteResult> out) {
        action(r, out, "ProtectMemory", ctx -> memories.flag(ctx, r.getId(), MemoryFlag.CONSTITUTIONAL, true));
    }

    @Override
    public void unprotectMemory(MemoryActionRequest r, StreamObserver<WriteResult> out) {
        action(r, out, "UnprotectMemory", ctx -> memories.flag(ctx, r.getId(), MemoryFlag.CONSTITUTIONAL, false));
    }

    @Override
    public void pinMemory(MemoryActionRequest r, StreamObserver<WriteResult> out) {
        action(r, out, "PinMemory", ctx -> memories.flag(ctx, r.getId(), MemoryFlag.PINNED, true));
    }

    @Override
    public void unpinMemory(MemoryActionRequest r, StreamObserver<WriteResult> out) {
        action(r, out, "UnpinMemory", ctx -> memories.flag(ctx, r.getId(), MemoryFlag.PINNED, false));
    }

    @Override
    public void consolidate(ConsolidateRequest r, StreamObserver<WriteResult> out) {
        write(out, "Consolidate", r.getSpace(), r.hasIdempotencyKey() ? r.getIdempotencyKey() : null, null,
                ctx -> memories.consolidate(ctx, ProtoMapping.body(r)));
    }

    @Override
    public void getHistory(GetHistoryRequest r, StreamObserver<History> out) {
        unary(out, "GetHistory", () -> proto.fill(new HistoryResponse(r.getId(), memories.history(r.getSpace(), r.getId(),
                actor()).stream().map(HistoryEntryJson::of).toList()), History.newBuilder()).build());
    }

    // ---------------------------------------------------------------- blocks and core

    @Override
    public void putBlock(PutBlockRequest r, StreamObserver<WriteResult> out) {
        write(out, "PutBlock", r.getSpace(), r.hasIdempotencyKey() ? r.getIdempotencyKey() : null,
                r.hasExpectedVersion() ? r.getExpectedVersion() : null,
                ctx -> blocks.put(ctx, r.getLabel(), ProtoMapping.body(r)));
    }

    @Override
    public void getBlock(GetBlockRequest r, StreamObserver<io.memorychain.api.grpc.v1.Memory> out) {
        unary(out, "GetBlock", () -> proto.fill(MemoryJson.of(blocks.get(r.getSpace(), r.getLabel())),
                io.memorychain.api.grpc.v1.Memory.newBuilder()).build());
    }

    @Override
    public void getCore(GetCoreRequest r, StreamObserver<Core> out) {
        unary(out, "GetCore", () -> {
            AsOf at = pointInTime.asOf(r.getSpace(), r.hasAsOfSeq() ? String.valueOf(r.getAsOfSeq()) : null,
                    r.hasAsOf() ? r.getAsOf() : null);
            return proto.fill(CoreJson.of(at == null ? core.read(r.getSpace(), actor())
                    : pointInTime.core(r.getSpace(), actor(), at)), Core.newBuilder()).build();
        });
    }

    // ---------------------------------------------------------------- retrieval

    @Override
    public void query(QueryRequest r, StreamObserver<QueryAnswer> out) {
        unary(out, "Query", () -> proto.fill(granted.readWholeSpace(r.getSpace(), actor(), "query",
                io.memorychain.api.grants.GrantedReads.detail("query_chars", r.getQuery().length(), "as_of_seq",
                        r.hasAsOfSeq() ? r.getAsOfSeq() : null, "as_of", r.hasAsOf() ? r.getAsOf() : null),
                () -> retrieval.queryAt(r.getSpace(), actor(), ProtoMapping.body(r)),
                io.memorychain.api.retrieval.QueryJson::memoryIds), QueryAnswer.newBuilder()).build());
    }

    @Override
    public void context(ContextRequest r, StreamObserver<ContextAnswer> out) {
        unary(out, "Context", () -> proto.fill(retrieval.context(r.getSpace(), actor(), ProtoMapping.body(r)),
                ContextAnswer.newBuilder()).build());
    }

    // ---------------------------------------------------------------- relations

    @Override
    public void link(LinkRequest r, StreamObserver<io.memorychain.api.grpc.v1.Relations> out) {
        unary(out, "Link", () -> relations(relations.link(context(r.getSpace(),
                r.hasIdempotencyKey() ? r.getIdempotencyKey() : null, null), r.getId(), ProtoMapping.body(r))));
    }

    @Override
    public void unlink(UnlinkRequest r, StreamObserver<io.memorychain.api.grpc.v1.Relations> out) {
        unary(out, "Unlink", () -> relations(relations.unlink(context(r.getSpace(),
                r.hasIdempotencyKey() ? r.getIdempotencyKey() : null, null), r.getId(), r.getTo())));
    }

    @Override
    public void getRelations(GetRelationsRequest r, StreamObserver<io.memorychain.api.grpc.v1.Relations> out) {
        unary(out, "GetRelations", () -> relations(relations.of(r.getSpace(), r.getId())));
    }

    // ---------------------------------------------------------------- audit and chain

    @Override
    public void listAudit(ListAuditRequest r, StreamObserver<AuditPage> out) {
        unary(out, "ListAudit", () -> proto.fill(audit.page(r.getSpace(), actor(), r.hasAfterSeq() ? r.getAfterSeq() : null,
                r.hasLimit() ? r.getLimit() : null), AuditPage.newBuilder()).build());
    }

    @Override
    public void verifyChain(VerifyChainRequest r, StreamObserver<io.memorychain.api.grpc.v1.ChainVerification> out) {
        unary(out, "VerifyChain", () -> proto.fill(chain.verify(Spaces.require(r.getSpace()), r.getFull()),
                io.memorychain.api.grpc.v1.ChainVerification.newBuilder()).build());
    }

    @Override
    public void getChainCheckpoint(GetChainCheckpointRequest r, StreamObserver<ChainCheckpoint> out) {
        unary(out, "GetChainCheckpoint", () -> proto.fill(checkpoints.checkpoint(Spaces.require(r.getSpace())),
                ChainCheckpoint.newBuilder()).build());
    }

    @Override
    public void getChainKeys(GetChainKeysRequest r, StreamObserver<ChainPublicKeys> out) {
        unary(out, "GetChainKeys", () -> proto.fill(checkpoints.publicKeys(), ChainPublicKeys.newBuilder()).build());
    }

    @Override
    public void watchChanges(WatchChangesRequest r, StreamObserver<AuditEntry> out) {
        try {
            Actor reader = actor();
            String credentials = GrpcAuthInterceptor.CREDENTIALS.get();
            changes.watch(r.getSpace(), r.getSinceRev(), new ChangeStreams.Watcher(() -> keys.authenticate(credentials),
                    entry -> proto.fill(audit.entry(r.getSpace(), reader, entry), AuditEntry.newBuilder()).build()),
                    (ServerCallStreamObserver<AuditEntry>) out);
        } catch (RuntimeException e) {
            out.onError(GrpcErrors.of(e, "WatchChanges"));
        }
    }

    // ---------------------------------------------------------------- Markdown view

    @Override
    public void listFiles(ListFilesRequest r, StreamObserver<FileList> out) {
        unary(out, "ListFiles", () -> proto.fill(FileListJson.of(files.list(Spaces.require(r.getSpace()), actor())),
                FileList.newBuilder()).build());
    }

    @Override
    public void readFile(ReadFileRequest r, StreamObserver<FileContent> out) {
        unary(out, "ReadFile", () -> {
            String space = Spaces.require(r.getSpace());
            MarkdownFile file = files.read(space, actor(), MarkdownPaths.parse(r.getPath()));
            return FileContent.newBuilder().setPath(file.path().toString()).setText(file.text()).setEtag(file.etag()).build();
        });
    }

    @Override
    public void writeFile(io.memorychain.api.grpc.v1.WriteFileRequest r, StreamObserver<FileWriteResult> out) {
        fileWrite(out, "WriteFile", r.getSpace(), r.hasIdempotencyKey() ? r.getIdempotencyKey() : null, ctx ->
                files.write(ctx, MarkdownPaths.parse(r.getPath()), ProtoMapping.required(r.getText()),
                        r.hasIfMatch() ? r.getIfMatch() : null));
    }

    @Override
    public void patchFile(PatchFileRequest r, StreamObserver<FileWriteResult> out) {
        fileWrite(out, "PatchFile", r.getSpace(), r.hasIdempotencyKey() ? r.getIdempotencyKey() : null, ctx ->
                files.patch(ctx, MarkdownPaths.parse(r.getPath()), r.getEditsList().stream()
                        .map(e -> new TextEdit(ProtoMapping.required(e.getOldText()), e.getNewText())).toList(),
                        r.hasIfMatch() ? r.getIfMatch() : null));
    }

    @Override
    public void appendFile(AppendFileRequest r, StreamObserver<FileWriteResult> out) {
        fileWrite(out, "AppendFile", r.getSpace(), r.hasIdempotencyKey() ? r.getIdempotencyKey() : null, ctx ->
                files.append(ctx, MarkdownPaths.parse(r.getPath()), ProtoMapping.required(r.getText()),
                        r.hasIfMatch() ? r.getIfMatch() : null));
    }

    // ---------------------------------------------------------------- refinement sessions

    @Override
    public void startRefinement(StartRefinementRequest r, StreamObserver<RefinementSession> out) {
        unary(out, "StartRefinement", () -> {
            WriteContext ctx = context(r.getSpace(), r.hasIdempotencyKey() ? r.getIdempotencyKey() : null, null);
            SessionView started = refinements.start(ctx, r.hasTargetTokens() ? r.getTargetTokens() : null,
                    r.hasReason() ? r.getReason() : null);
            return proto.fill(RefinementSessionJson.of(started), RefinementSession.newBuilder()).build();
        });
    }

    @Override
    public void listRefinements(ListRefinementsRequest r, StreamObserver<RefinementList> out) {
        unary(out, "ListRefinements", () -> proto.fill(new RefinementListJson(refinements.sessions(Spaces.require(r.getSpace()))
                .stream().map(RefinementSessionJson::of).toList()), RefinementList.newBuilder()).build());
    }

    @Override
    public void getRefinement(GetRefinementRequest r, StreamObserver<RefinementSession> out) {
        unary(out, "GetRefinement", () -> proto.fill(RefinementSessionJson.of(refinements.session(
                Spaces.require(r.getSpace()), r.getSession(), actor())), RefinementSession.newBuilder()).build());
    }

    @Override
    public void searchRefinement(SearchRefinementRequest r, StreamObserver<RefinementSearchResult> out) {
        unary(out, "SearchRefinement", () -> {
            RefinementSearchBody body = new RefinementSearchBody(r.hasQuery() ? r.getQuery() : null,
                    r.hasCreatedAfter() ? r.getCreatedAfter() : null, r.hasCreatedBefore() ? r.getCreatedBefore() : null,
                    r.hasLimit() ? r.getLimit() : null);
            return proto.fill(RefinementSearchJson.of(refinements.search(Spaces.require(r.getSpace()), actor(),
                    r.getSession(), body)), RefinementSearchResult.newBuilder()).build();
        });
    }

    @Override
    public void refinementConsolidate(RefinementConsolidateRequest r, StreamObserver<WriteResult> out) {
        write(out, "RefinementConsolidate", r.getSpace(), r.hasIdempotencyKey() ? r.getIdempotencyKey() : null, null,
                ctx -> refinements.consolidate(ctx, r.getSession(), requests.consolidate(ctx.space(), ProtoMapping.body(r))));
    }

    @Override
    public void refinementUpdateMemory(RefinementUpdateMemoryRequest r, StreamObserver<WriteResult> out) {
        write(out, "RefinementUpdateMemory", r.getSpace(), r.hasIdempotencyKey() ? r.getIdempotencyKey() : null,
                r.hasExpectedVersion() ? r.getExpectedVersion() : null, ctx -> {
                    PathIds.require(ctx.space(), r.getId());
                    return refinements.update(ctx, r.getSession(), requests.update(r.getId(), ProtoMapping.body(r)));
                });
    }

    @Override
    public void refinementDeleteMemory(RefinementDeleteMemoryRequest r, StreamObserver<WriteResult> out) {
        write(out, "RefinementDeleteMemory", r.getSpace(), r.hasIdempotencyKey() ? r.getIdempotencyKey() : null,
                r.hasExpectedVersion() ? r.getExpectedVersion() : null,
                ctx -> refinements.delete(ctx, r.getSession(), r.getId(), r.hasReason() ? r.getReason() : null));
    }

    @Override
    public void refinementProtectMemory(RefinementProtectMemoryRequest r, StreamObserver<WriteResult> out) {
        write(out, "RefinementProtectMemory", r.getSpace(), r.hasIdempotencyKey() ? r.getIdempotencyKey() : null,
                r.hasExpectedVersion() ? r.getExpectedVersion() : null, ctx -> refinements.protect(ctx, r.getSession(), r.getId()));
    }

    @Override
    public void completeRefinement(CompleteRefinementRequest r, StreamObserver<RefinementCompletion> out) {
        unary(out, "CompleteRefinement", () -> {
            WriteContext ctx = context(r.getSpace(), r.hasIdempotencyKey() ? r.getIdempotencyKey() : null, null);
            Completion done = refinements.complete(ctx, r.getSession(), ProtoMapping.required(r.getSummary()));
            return proto.fill(CompletionJson.of(done), RefinementCompletion.newBuilder()).setRequestId(ctx.requestId()).build();
        });
    }

    // ---------------------------------------------------------------- reflections (docs/architecture.md §18)

    @Override
    public void listReflections(ListReflectionsRequest r, StreamObserver<ReflectionLog> out) {
        unary(out, "ListReflections", () -> proto.fill(reflections.log(Spaces.require(r.getSpace()), actor(),
                r.hasStatus() ? r.getStatus() : null), ReflectionLog.newBuilder()).build());
    }

    @Override
    public void getReflection(GetReflectionRequest r, StreamObserver<Reflection> out) {
        unary(out, "GetReflection", () -> proto.fill(ReflectionJson.of(reflections.get(Spaces.require(r.getSpace()),
                r.getId(), actor())), Reflection.newBuilder()).build());
    }

    @Override
    public void requestReflection(RequestReflectionRequest r, StreamObserver<ReflectionRequested> out) {
        unary(out, "RequestReflection", () -> {
            WriteContext ctx = context(r.getSpace(), r.hasIdempotencyKey() ? r.getIdempotencyKey() : null, null);
            MemoryOutcome outcome = reflections.request(ctx, r.hasReason() ? r.getReason() : null);
            return ReflectionRequested.newBuilder().setRequestId(ctx.requestId()).setSeq(outcome.getSeq()).build();
        });
    }

    @Override
    public void decideReflection(DecideReflectionRequest r, StreamObserver<Reflection> out) {
        unary(out, "DecideReflection", () -> {
            WriteContext ctx = context(r.getSpace(), r.hasIdempotencyKey() ? r.getIdempotencyKey() : null, null);
            ReflectionDecisionBody body = new ReflectionDecisionBody(r.getDecision().isEmpty() ? null : r.getDecision(),
                    r.hasReason() ? r.getReason() : null, List.copyOf(r.getChangeIdsList()),
                    r.getEditedChangesList().stream().map(MemoryGrpcService::change).toList());
            return proto.fill(ReflectionJson.of(reflections.decide(ctx, r.getId(), body)), Reflection.newBuilder())
                    .build();
        });
    }

    private static ReflectionChangeJson change(io.memorychain.api.grpc.v1.ReflectionChange c) {
        return new ReflectionChangeJson(c.getChangeId(), c.getType(), c.hasReason() ? c.getReason() : null,
                c.hasMemoryId() ? c.getMemoryId() : null, c.hasToId() ? c.getToId() : null,
                c.hasLabel() ? c.getLabel() : null, c.hasContent() ? c.getContent() : null,
                c.hasSummary() ? c.getSummary() : null, c.hasCategory() ? c.getCategory() : null,
                List.copyOf(c.getTagsList()), c.hasImportance() ? c.getImportance() : null,
                c.hasRelationType() ? c.getRelationType() : null);
    }

    // ---------------------------------------------------------------- proposals

    @Override
    public void propose(ProposeRequest r, StreamObserver<ProposalWriteResult> out) {
        proposalWrite(out, "Propose", r.getSpace(), r.hasIdempotencyKey() ? r.getIdempotencyKey() : null, null,
                ctx -> proposals.propose(ctx, ProtoMapping.body(r)));
    }

    @Override
    public void listProposals(ListProposalsRequest r, StreamObserver<ProposalList> out) {
        unary(out, "ListProposals", () -> proto.fill(ProposalListJson.of(proposals.open(Spaces.require(r.getSpace()), actor())),
                ProposalList.newBuilder()).build());
    }

    @Override
    public void getProposal(GetProposalRequest r, StreamObserver<Proposal> out) {
        unary(out, "GetProposal", () -> proto.fill(ProposalJson.of(proposals.get(Spaces.require(r.getSpace()), actor(),
                r.getId())), Proposal.newBuilder()).build());
    }

    @Override
    public void commitProposal(ReviewProposalRequest r, StreamObserver<ProposalWriteResult> out) {
        review(r, out, "CommitProposal", ProposalDecision.COMMIT);
    }

    @Override
    public void rejectProposal(ReviewProposalRequest r, StreamObserver<ProposalWriteResult> out) {
        review(r, out, "RejectProposal", ProposalDecision.REJECT);
    }

    @Override
    public void deferProposal(ReviewProposalRequest r, StreamObserver<ProposalWriteResult> out) {
        review(r, out, "DeferProposal", ProposalDecision.DEFER);
    }

    private void review(ReviewProposalRequest r, StreamObserver<ProposalWriteResult> out, String method,
                        ProposalDecision decision) {
        proposalWrite(out, method, r.getSpace(), r.hasIdempotencyKey() ? r.getIdempotencyKey() : null,
                r.hasExpectedVersion() ? r.getExpectedVersion() : null,
                ctx -> proposals.review(ctx, r.getId(), decision, ProtoMapping.body(r)));
    }

    private void proposalWrite(StreamObserver<ProposalWriteResult> out, String method, String space, String idempotencyKey,
                               Integer expectedVersion, Function<WriteContext, ProposalResult> op) {
        unary(out, method, () -> {
            WriteContext ctx = context(space, idempotencyKey, expectedVersion);
            return proto.fill(ProposalWriteJson.of(op.apply(ctx)), ProposalWriteResult.newBuilder())
                    .setRequestId(ctx.requestId()).build();
        });
    }

    // ---------------------------------------------------------------- keys and caller

    @Override
    public void issueKey(IssueKeyRequest r, StreamObserver<ApiKey> out) {
        unary(out, "IssueKey", () -> {
            ApiKeys.Issued issued = keys.issue(NewKeyBody.principal(ProtoMapping.body(r)), principal().id());
            return proto.fill(KeyJson.of(issued.record(), issued.key()), ApiKey.newBuilder()).build();
        });
    }

    @Override
    public void listKeys(ListKeysRequest r, StreamObserver<ApiKeyList> out) {
        unary(out, "ListKeys", () -> proto.fill(new KeyJson.Page(keys.list().stream().map(k -> KeyJson.of(k, null)).toList()),
                ApiKeyList.newBuilder()).build());
    }

    @Override
    public void revokeKey(RevokeKeyRequest r, StreamObserver<ApiKey> out) {
        unary(out, "RevokeKey", () -> proto.fill(KeyJson.of(keys.revoke(r.getKeyId()), null), ApiKey.newBuilder()).build());
    }

    @Override
    public void whoAmI(WhoAmIRequest r, StreamObserver<Caller> out) {
        unary(out, "WhoAmI", () -> proto.fill(KeyJson.Caller.of(principal()), Caller.newBuilder()).build());
    }

    // ---------------------------------------------------------------- plumbing

    private static Principal principal() {
        return GrpcAuthInterceptor.PRINCIPAL.get();
    }

    /** The caller's actor: the events of its writes record it, and its category allowlist applies to its reads. */
    private static Actor actor() {
        return principal().actor();
    }

    private static WriteContext context(String space, String idempotencyKey, Integer expectedVersion) {
        return WriteContext.of(space, actor(), idempotencyKey, expectedVersion, null);
    }

    private io.memorychain.api.grpc.v1.Relations relations(RelationsJson relations) {
        return proto.fill(relations, io.memorychain.api.grpc.v1.Relations.newBuilder()).build();
    }

    private void action(MemoryActionRequest r, StreamObserver<WriteResult> out, String method,
                               Function<WriteContext, io.memorychain.api.write.WriteResult> op) {
        write(out, method, r.getSpace(), r.hasIdempotencyKey() ? r.getIdempotencyKey() : null,
                r.hasExpectedVersion() ? r.getExpectedVersion() : null, op);
    }

    private void write(StreamObserver<WriteResult> out, String method, String space, String idempotencyKey,
                              Integer expectedVersion, Function<WriteContext, io.memorychain.api.write.WriteResult> op) {
        unary(out, method, () -> {
            WriteContext ctx = context(space, idempotencyKey, expectedVersion);
            return proto.fill(WriteResponse.of(op.apply(ctx)), WriteResult.newBuilder()).setRequestId(ctx.requestId()).build();
        });
    }

    private void fileWrite(StreamObserver<FileWriteResult> out, String method, String space, String idempotencyKey,
                                  Function<WriteContext, io.memorychain.api.markdown.FileWrite> op) {
        unary(out, method, () -> {
            WriteContext ctx = context(space, idempotencyKey, null);
            return proto.fill(FileWriteJson.of(op.apply(ctx)), FileWriteResult.newBuilder()).setRequestId(ctx.requestId())
                    .build();
        });
    }

    /** One answer, or the failure as a status (see {@link GrpcErrors}). */
    private static <T> void unary(StreamObserver<T> out, String method, Supplier<T> call) {
        T answer;
        try {
            answer = call.get();
        } catch (RuntimeException e) {
            out.onError(GrpcErrors.of(e, MemoryServiceGrpc.SERVICE_NAME + "/" + method));
            return;
        }
        out.onNext(answer);
        out.onCompleted();
    }
}
