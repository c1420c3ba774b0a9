package io.memorychain.api.contract;

import static io.memorychain.api.contract.ProtoMaps.plain;
import static io.memorychain.api.contract.ProtoMaps.plainJson;
import static io.memorychain.api.contract.ProtoMaps.without;
import static org.assertj.core.api.Assertions.assertThat;

import io.grpc.ManagedChannel;
import io.grpc.ManagedChannelBuilder;
import io.grpc.Metadata;
import io.grpc.Status;
import io.grpc.stub.ClientCallStreamObserver;
import io.grpc.stub.ClientResponseObserver;
import io.grpc.stub.MetadataUtils;
import io.memorychain.api.auth.ApiKey;
import io.memorychain.api.auth.ApiKeys;
import io.memorychain.api.auth.Principal;
import io.memorychain.api.auth.Role;
import io.memorychain.api.backend.MemoryBackend;
import io.memorychain.api.contract.MemoryApiContract.Resp;
import io.memorychain.api.grpc.GrpcErrors;
import io.memorychain.api.grpc.v1.Actor;
import io.memorychain.api.grpc.v1.AppendFileRequest;
import io.memorychain.api.grpc.v1.AuditEntry;
import io.memorychain.api.grpc.v1.Caller;
import io.memorychain.api.grpc.v1.CompleteRefinementRequest;
import io.memorychain.api.grpc.v1.ConsolidateRequest;
import io.memorychain.api.grpc.v1.ContextRequest;
import io.memorychain.api.grpc.v1.CreateMemoryRequest;
import io.memorychain.api.grpc.v1.DeleteMemoryRequest;
import io.memorychain.api.grpc.v1.FileContent;
import io.memorychain.api.grpc.v1.GetBlockRequest;
import io.memorychain.api.grpc.v1.GetChainCheckpointRequest;
import io.memorychain.api.grpc.v1.GetChainKeysRequest;
import io.memorychain.api.grpc.v1.GetCoreRequest;
import io.memorychain.api.grpc.v1.GetHistoryRequest;
import io.memorychain.api.grpc.v1.GetMemoryRequest;
import io.memorychain.api.grpc.v1.GetProposalRequest;
import io.memorychain.api.grpc.v1.GetRefinementRequest;
import io.memorychain.api.grpc.v1.GetRelationsRequest;
import io.memorychain.api.grpc.v1.IssueKeyRequest;
import io.memorychain.api.grpc.v1.LedgerEntry;
import io.memorychain.api.grpc.v1.LinkRequest;
import io.memorychain.api.grpc.v1.ListAuditRequest;
import io.memorychain.api.grpc.v1.ListFilesRequest;
import io.memorychain.api.grpc.v1.ListKeysRequest;
import io.memorychain.api.grpc.v1.ListMemoriesRequest;
import io.memorychain.api.grpc.v1.ListProposalsRequest;
import io.memorychain.api.grpc.v1.ListRefinementsRequest;
import io.memorychain.api.grpc.v1.MemoryActionRequest;
import io.memorychain.api.grpc.v1.MemoryServiceGrpc;
import io.memorychain.api.grpc.v1.MemoryServiceGrpc.MemoryServiceBlockingStub;
import io.memorychain.api.grpc.v1.PatchFileRequest;
import io.memorychain.api.grpc.v1.ProposalWriteResult;
import io.memorychain.api.grpc.v1.ProposeRequest;
import io.memorychain.api.grpc.v1.PutBlockRequest;
import io.memorychain.api.grpc.v1.QueryRequest;
import io.memorychain.api.grpc.v1.ReadFileRequest;
import io.memorychain.api.grpc.v1.RefinementCompletion;
import io.memorychain.api.grpc.v1.RefinementConsolidateRequest;
import io.memorychain.api.grpc.v1.RefinementDeleteMemoryRequest;
import io.memorychain.api.grpc.v1.RefinementProtectMemoryRequest;
import io.memorychain.api.grpc.v1.RefinementSearchResult;
import io.memorychain.api.grpc.v1.RefinementSession;
import io.memorychain.api.grpc.v1.RefinementUpdateMemoryRequest;
import io.memorychain.api.grpc.v1.ReviewProposalRequest;
import io.memorychain.api.grpc.v1.RevokeKeyRequest;
import io.memorychain.api.grpc.v1.SearchRefinementRequest;
import io.memorychain.api.grpc.v1.StartRefinementRequest;
import io.memorychain.api.grpc.v1.StringList;
import io.memorychain.api.grpc.v1.TextEdit;
import io.memorychain.api.grpc.v1.UnlinkRequest;
import io.memorychain.api.grpc.v1.UpdateMemoryRequest;
import io.memorychain.api.grpc.v1.VerifyChainRequest;
import io.memorychain.api.grpc.v1.WatchChangesRequest;
import io.memorychain.api.grpc.v1.WhoAmIRequest;
import io.memorychain.api.grpc.v1.WriteFileRequest;
import io.memorychain.api.grpc.v1.WriteResult;
import io.micronaut.core.type.Argument;
import io.micronaut.http.HttpHeaders;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.MediaType;
import io.micronaut.http.MutableHttpRequest;
import io.micronaut.http.client.HttpClient;
import io.micronaut.http.client.exceptions.HttpClientResponseException;
import io.micronaut.json.JsonMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * REST and gRPC against ONE running application: the same state read over both transports is the same, changes made
 * over either are seen alike over both (and recorded with the caller's actor), and the same bad call is refused with
 * the same code on both (gRPC: the mapped status, the code in the {@code error-code} trailer) and leaves the chain
 * alone. Run on the real Kafka backend ({@code MemoryGrpcIT}).
 */
public abstract class GrpcRestParityContract {

    protected static final String AGENT = "agent:api";
    protected static final String PERSON = "user:manual";
    protected static final String ADMIN = "admin:ops";
    protected static final String SUBAGENT = "subagent:researcher";

    private static final Metadata.Key<String> AUTHORIZATION =
            Metadata.Key.of("authorization", Metadata.ASCII_STRING_MARSHALLER);

    private final Map<String, String> keys = new ConcurrentHashMap<>();
    private ManagedChannel channel;

    protected abstract HttpClient http();

    protected abstract JsonMapper json();

    /** The port of the application's gRPC server. */
    protected abstract int grpcPort();

    protected abstract ApiKeys apiKeys();

    /** WatchChanges streams open on the server. */
    protected abstract int openWatchStreams();

    /** The chain behind both transports (to wait for what is derived after an event, such as embeddings). */
    protected abstract MemoryBackend backend();

    @BeforeEach
    void openChannel() {
        channel = ManagedChannelBuilder.forAddress("127.0.0.1", grpcPort())
                .usePlaintext()
                .build();
    }

    @AfterEach
    void closeChannel() throws InterruptedException {
        channel.shutdownNow().awaitTermination(10, TimeUnit.SECONDS);
    }

    // ---------------------------------------------------------------- authentication and authorization

    @Test
    void refusesMissingWrongAndRevokedKeysAlikeOnBothTransports() {
        String space = space();
        Resp rest = rest(HttpRequest.GET("/v1/spaces/" + space + "/memories"), null);
        GrpcFailure grpc = failure(() -> MemoryServiceGrpc.newBlockingStub(channel)
                .listMemories(ListMemoriesRequest.newBuilder().setSpace(space).build()));
        assertThat(rest.status()).isEqualTo(401);
        assertSameRefusal(rest, grpc, "UNAUTHENTICATED", Status.Code.UNAUTHENTICATED);

        String malformed = "mc_nope";
        assertSameRefusal(
                rest(HttpRequest.GET("/v1/spaces/" + space + "/memories"), malformed),
                failure(() -> grpc(malformed)
                        .listMemories(
                                ListMemoriesRequest.newBuilder().setSpace(space).build())),
                "UNAUTHENTICATED",
                Status.Code.UNAUTHENTICATED);

        String revoked = key("agent:gone");
        apiKeys().revoke(ApiKey.parse(revoked).orElseThrow().keyId());
        Resp restRevoked = rest(HttpRequest.GET("/v1/spaces/" + space + "/memories"), revoked);
        assertSameRefusal(
                restRevoked,
                failure(() -> grpc(revoked)
                        .listMemories(
                                ListMemoriesRequest.newBuilder().setSpace(space).build())),
                "UNAUTHENTICATED",
                Status.Code.UNAUTHENTICATED);
        assertThat((String) restRevoked.json().get("message")).contains("revoked");
    }

    @Test
    void confinesKeysToTheirSpacesAndRolesAlikeOnBothTransports() {
        String mine = space();
        String other = space();
        String confined = key("agent:confined", mine);
        String otherId = createOverRest(other, "belongs to the other space");

        Resp restRead = rest(HttpRequest.GET("/v1/spaces/" + other + "/memories/" + otherId), confined);
        assertThat(restRead.status()).isEqualTo(403);
        assertSameRefusal(
                restRead,
                failure(() -> grpc(confined)
                        .getMemory(GetMemoryRequest.newBuilder()
                                .setSpace(other)
                                .setId(otherId)
                                .build())),
                "SPACE_NOT_ALLOWED",
                Status.Code.PERMISSION_DENIED);

        List<Map<String, Object>> before = audit(other);
        Resp restWrite =
                rest(HttpRequest.POST("/v1/spaces/" + other + "/memories", Map.of("content", "intrusion")), confined);
        assertSameRefusal(
                restWrite,
                failure(() -> grpc(confined)
                        .createMemory(CreateMemoryRequest.newBuilder()
                                .setSpace(other)
                                .setContent("intrusion")
                                .build())),
                "SPACE_NOT_ALLOWED",
                Status.Code.PERMISSION_DENIED);
        GrpcFailure watch = failure(() -> grpc(confined)
                .watchChanges(WatchChangesRequest.newBuilder().setSpace(other).build())
                .hasNext());
        assertThat(watch.status()).isEqualTo(Status.Code.PERMISSION_DENIED);
        assertThat(watch.code()).isEqualTo("SPACE_NOT_ALLOWED");
        assertThat(audit(other)).isEqualTo(before);

        // in its own space the confined key works, and its writes are recorded as its agent
        WriteResult created = grpc(confined)
                .createMemory(CreateMemoryRequest.newBuilder()
                        .setSpace(mine)
                        .setContent("mine")
                        .build());
        assertThat(audit(mine).get(0).get("actor")).isEqualTo(Map.of("type", "agent", "id", "confined"));
        assertThat(created.getMemory().getSpace()).isEqualTo(mine);

        // admins govern and read no content without a grant: refused alike; chain verification is theirs on both
        Resp restAdmin = rest(HttpRequest.GET("/v1/spaces/" + other + "/memories/" + otherId), key(ADMIN));
        GrpcFailure grpcAdmin = failure(() -> grpc(key(ADMIN))
                .getMemory(GetMemoryRequest.newBuilder()
                        .setSpace(other)
                        .setId(otherId)
                        .build()));
        assertThat(restAdmin.code()).isEqualTo("GRANT_REQUIRED");
        assertThat(grpcAdmin.status()).isEqualTo(Status.Code.PERMISSION_DENIED);
        assertThat(grpcAdmin.code()).isEqualTo("GRANT_REQUIRED");
        assertThat(grpcAdmin.description()).contains("grant");
        GrpcFailure grpcAdminCore = failure(() -> grpc(key(ADMIN))
                .getCore(io.memorychain.api.grpc.v1.GetCoreRequest.newBuilder()
                        .setSpace(other)
                        .build()));
        assertThat(grpcAdminCore.code()).isEqualTo("ROLE_NOT_ALLOWED");
        assertThat(grpcAdminCore.description()).contains("MemoryService/GetCore needs an agent key");
        assertThat(plain(grpc(key(ADMIN))
                        .verifyChain(VerifyChainRequest.newBuilder()
                                .setSpace(other)
                                .setFull(true)
                                .build())))
                .isEqualTo(
                        plainJson(rest(HttpRequest.GET("/v1/spaces/" + other + "/chain/verify?full=true"), key(ADMIN))
                                .json()))
                .isEqualTo(plainJson(Map.of("ok", true, "events", 1, "suspects", List.of())));
    }

    @Test
    void servesTheSameSignedCheckpointAndPublicKeysOnBothTransports() {
        String space = space();
        createOverRest(space, "Ana drinks green tea");
        Map<String, Object> rest =
                new java.util.HashMap<>(rest(HttpRequest.GET("/v1/spaces/" + space + "/chain/checkpoint"), key(ADMIN))
                        .json());
        rest.remove("signed_at");
        assertThat(without(
                        grpc(key(ADMIN))
                                .getChainCheckpoint(GetChainCheckpointRequest.newBuilder()
                                        .setSpace(space)
                                        .build()),
                        "signed_at"))
                .as("Ed25519 is deterministic: the same head, the same signature")
                .isEqualTo(plainJson(rest));
        Resp keys = rest(HttpRequest.GET("/v1/chain/keys"), null);
        assertThat(keys.status()).as("no API key needed").isEqualTo(200);
        assertThat(plain(grpc(key(AGENT)).getChainKeys(GetChainKeysRequest.getDefaultInstance())))
                .isEqualTo(plainJson(keys.json()));
    }

    // ---------------------------------------------------------------- writes and reads across transports

    @Test
    void aMemoryWrittenOverGrpcReadsTheSameOverRest() {
        String space = space();
        String idempotencyKey = "grpc-" + UUID.randomUUID();
        CreateMemoryRequest create = CreateMemoryRequest.newBuilder()
                .setSpace(space)
                .setContent("Prefers green tea")
                .setKind("episodic")
                .addTags("drinks")
                .setImportance(4)
                .setUserId("u-1")
                .setCreatedAt("2024-05-01T10:00:00Z")
                .setIdempotencyKey(idempotencyKey)
                .build();
        WriteResult created = grpc().createMemory(create);
        String id = created.getMemory().getId();
        assertThat(created.getRequestId()).isEqualTo(idempotencyKey);
        assertThat(created.getSeq()).isEqualTo(1);
        assertThat(created.getMemory().getCreatedAt()).isEqualTo("2024-05-01T10:00:00Z");

        Resp restGet = rest(HttpRequest.GET("/v1/spaces/" + space + "/memories/" + id), key(AGENT));
        assertThat(restGet.status()).as(restGet.raw()).isEqualTo(200);
        assertThat(plain(created.getMemory())).isEqualTo(plainJson(restGet.json()));
        assertThat(plain(grpc().getMemory(GetMemoryRequest.newBuilder()
                        .setSpace(space)
                        .setId(id)
                        .build())))
                .isEqualTo(plainJson(restGet.json()));
        assertThat(plain(grpc().listMemories(ListMemoriesRequest.newBuilder()
                        .setSpace(space)
                        .setKind("episodic")
                        .setLimit(10)
                        .build())))
                .isEqualTo(plainJson(
                        rest(HttpRequest.GET("/v1/spaces/" + space + "/memories?kind=episodic&limit=10"), key(AGENT))
                                .json()));

        // a retry with the same key is the original outcome, on either transport
        WriteResult again = grpc().createMemory(create);
        assertThat(again.getMemory().getId()).isEqualTo(id);
        assertThat(again.getSeq()).isEqualTo(created.getSeq());
        Resp restRetry = rest(
                HttpRequest.POST(
                                "/v1/spaces/" + space + "/memories",
                                Map.of(
                                        "content",
                                        "Prefers green tea",
                                        "kind",
                                        "episodic",
                                        "tags",
                                        List.of("drinks"),
                                        "importance",
                                        4,
                                        "user_id",
                                        "u-1",
                                        "created_at",
                                        "2024-05-01T10:00:00Z"))
                        .header("Idempotency-Key", idempotencyKey),
                key(AGENT));
        assertThat(restRetry.map("memory").get("id")).isEqualTo(id);

        List<Map<String, Object>> audit = audit(space);
        assertThat(audit).hasSize(1);
        assertThat(audit.get(0))
                .containsEntry("actor", Map.of("type", "agent", "id", "api"))
                .containsEntry("request_id", idempotencyKey);
        assertThat(plain(grpc().listAudit(
                                ListAuditRequest.newBuilder().setSpace(space).build())))
                .isEqualTo(plainJson(rest(HttpRequest.GET("/v1/spaces/" + space + "/audit"), key(AGENT))
                        .json()));
    }

    @Test
    void changesMadeOverEitherTransportReadTheSameOverBoth() {
        String space = space();
        String id = createOverRest(space, "Likes tea");

        WriteResult updated = grpc().updateMemory(UpdateMemoryRequest.newBuilder()
                .setSpace(space)
                .setId(id)
                .setContent("Likes oolong tea")
                .setTags(StringList.newBuilder().addValues("drinks"))
                .setExpectedVersion(1)
                .build());
        assertThat(updated.getMemory().getVersion()).isEqualTo(2);
        assertSameMemory(space, id, updated);

        Resp deleted = rest(
                HttpRequest.DELETE("/v1/spaces/" + space + "/memories/" + id, Map.of("reason", "asked")), key(AGENT));
        assertThat(deleted.map("memory")).containsEntry("state", "soft_deleted");
        assertThat(grpc().getMemory(GetMemoryRequest.newBuilder()
                                .setSpace(space)
                                .setId(id)
                                .build())
                        .getState())
                .isEqualTo("soft_deleted");

        assertSameMemory(space, id, grpc().restoreMemory(action(space, id)));
        WriteResult pinned = grpc().pinMemory(action(space, id));
        assertThat(pinned.getMemory().getPinned()).isTrue();
        assertSameMemory(space, id, pinned);
        Resp unpinned =
                rest(HttpRequest.POST("/v1/spaces/" + space + "/memories/" + id + ":unpin", Map.of()), key(AGENT));
        assertThat(unpinned.map("memory")).containsEntry("pinned", false);
        assertThat(grpc().getMemory(GetMemoryRequest.newBuilder()
                                .setSpace(space)
                                .setId(id)
                                .build())
                        .getPinned())
                .isFalse();

        // blocks and core memory
        WriteResult block = grpc().putBlock(PutBlockRequest.newBuilder()
                .setSpace(space)
                .setLabel("persona")
                .setContent("I am a careful assistant.")
                .build());
        assertThat(block.getMemory().getBlockLabel()).isEqualTo("persona");
        Resp second = rest(
                HttpRequest.PUT(
                        "/v1/spaces/" + space + "/blocks/persona",
                        Map.of("content", "I am a careful, concise assistant.", "expected_version", 1)),
                key(AGENT));
        assertThat(second.status()).as(second.raw()).isEqualTo(200);
        assertThat(plain(grpc().getBlock(GetBlockRequest.newBuilder()
                        .setSpace(space)
                        .setLabel("persona")
                        .build())))
                .isEqualTo(plainJson(rest(HttpRequest.GET("/v1/spaces/" + space + "/blocks/persona"), key(AGENT))
                        .json()));
        assertThat(plain(grpc().getCore(
                                GetCoreRequest.newBuilder().setSpace(space).build())))
                .isEqualTo(plainJson(rest(HttpRequest.GET("/v1/spaces/" + space + "/core"), key(AGENT))
                        .json()));

        // consolidation and relations
        String other = createOverRest(space, "Drinks tea every morning");
        WriteResult merged = grpc().consolidate(ConsolidateRequest.newBuilder()
                .setSpace(space)
                .addIds(id)
                .addIds(other)
                .setContent("Drinks oolong tea every morning")
                .setReason("duplicates")
                .build());
        assertThat(merged.getMemory().getSupersedesList()).containsExactly(id, other);
        assertThat(rest(HttpRequest.GET("/v1/spaces/" + space + "/memories/" + id), key(AGENT))
                        .json())
                .containsEntry("state", "superseded")
                .containsEntry("superseded_by", merged.getMemory().getId());
        String third = createOverRest(space, "Tea comes from Taiwan");
        assertThat(plain(grpc().link(LinkRequest.newBuilder()
                        .setSpace(space)
                        .setId(merged.getMemory().getId())
                        .setTo(third)
                        .setType("related_to")
                        .setStrength(0.8)
                        .build())))
                .isEqualTo(plainJson(rest(
                                HttpRequest.GET("/v1/spaces/" + space + "/memories/"
                                        + merged.getMemory().getId() + "/relations"),
                                key(AGENT))
                        .json()));
        assertThat(plain(grpc().getRelations(GetRelationsRequest.newBuilder()
                        .setSpace(space)
                        .setId(third)
                        .build())))
                .isEqualTo(plainJson(
                        rest(HttpRequest.GET("/v1/spaces/" + space + "/memories/" + third + "/relations"), key(AGENT))
                                .json()));
        assertThat(grpc().unlink(UnlinkRequest.newBuilder()
                                .setSpace(space)
                                .setId(merged.getMemory().getId())
                                .setTo(third)
                                .build())
                        .getRelationsList())
                .isEmpty();

        // history, audit and the chain, over both
        assertThat(plain(grpc().getHistory(GetHistoryRequest.newBuilder()
                        .setSpace(space)
                        .setId(id)
                        .build())))
                .isEqualTo(plainJson(
                        rest(HttpRequest.GET("/v1/spaces/" + space + "/memories/" + id + "/history"), key(AGENT))
                                .json()));
        assertThat(plain(grpc().listAudit(ListAuditRequest.newBuilder()
                        .setSpace(space)
                        .setAfterSeq(2)
                        .setLimit(3)
                        .build())))
                .isEqualTo(plainJson(
                        rest(HttpRequest.GET("/v1/spaces/" + space + "/audit?after_seq=2&limit=3"), key(AGENT))
                                .json()));
        assertThat(plain(grpc().listMemories(ListMemoriesRequest.newBuilder()
                        .setSpace(space)
                        .setState("superseded")
                        .build())))
                .isEqualTo(plainJson(
                        rest(HttpRequest.GET("/v1/spaces/" + space + "/memories?state=superseded"), key(AGENT))
                                .json()));
        // the agent's persona edits are followed by their critical-change alerts, by system:audit (§21)
        assertThat(audit(space))
                .filteredOn(e -> !"CriticalChangeAlerted".equals(e.get("event_type")))
                .extracting(e -> e.get("actor"))
                .containsOnly(Map.of("type", "agent", "id", "api"));
        assertThat(plain(grpc().verifyChain(VerifyChainRequest.newBuilder()
                        .setSpace(space)
                        .setFull(true)
                        .build())))
                .isEqualTo(
                        plainJson(rest(HttpRequest.GET("/v1/spaces/" + space + "/chain/verify?full=true"), key(AGENT))
                                .json()))
                .isEqualTo(plainJson(Map.of("ok", true, "events", audit(space).size(), "suspects", List.of())));
    }

    @Test
    void plansAndAppliesARollbackAlikeOnBothTransports() {
        String space = space();
        String id = createOverRest(space, "Ana drinks green tea");
        assertThat(rest(
                                HttpRequest.PATCH(
                                        "/v1/spaces/" + space + "/memories/" + id,
                                        Map.of("content", "Ana drinks coffee")),
                                key(AGENT))
                        .status())
                .isEqualTo(200);
        io.memorychain.api.grpc.v1.RollbackRequest toOne = io.memorychain.api.grpc.v1.RollbackRequest.newBuilder()
                .setSpace(space)
                .setToSeq(1)
                .build();

        Resp restPlan =
                rest(HttpRequest.POST("/v1/spaces/" + space + "/rollback/plan", Map.of("to_seq", 1)), key(ADMIN));
        assertThat(restPlan.status()).as(restPlan.raw()).isEqualTo(200);
        io.memorychain.api.grpc.v1.RollbackPlan grpcPlan = grpc(key(ADMIN)).planRollback(toOne);
        assertThat(plain(grpcPlan)).isEqualTo(plainJson(restPlan.json()));
        assertThat(grpcPlan.getContentShown()).as("no grant: no content").isFalse();
        assertThat(grpcPlan.getMemories(0).hasAfter()).isFalse();
        assertThat(grpcPlan.getMemories(0).getChangedFieldsList()).contains("content");
        assertThat(grpcPlan.getMemories(0).getVersionBefore()).isEqualTo(2);
        assertThat(failure(() -> grpc().planRollback(toOne)).code()).isEqualTo("ROLE_NOT_ALLOWED");
        assertThat(failure(() -> grpc(key(ADMIN)).applyRollback(toOne)).code()).isEqualTo("INVALID_ARGUMENT");

        io.memorychain.api.grpc.v1.RollbackPlan applied = grpc(key(ADMIN))
                .applyRollback(toOne.toBuilder()
                        .setReason("typo")
                        .setPlanDigest(grpcPlan.getPlanDigest())
                        .build());

        assertThat(applied.getApplied()).isTrue();
        assertThat(applied.getSeq()).isEqualTo(4);
        assertThat(rest(HttpRequest.GET("/v1/spaces/" + space + "/memories/" + id), key(AGENT))
                        .json())
                .containsEntry("content", "Ana drinks green tea");
        Resp restThen = rest(HttpRequest.GET("/v1/spaces/" + space + "/memories/" + id + "?as_of_seq=2"), key(AGENT));
        assertThat(restThen.json()).containsEntry("content", "Ana drinks coffee");
        Resp restQueryThen = rest(
                HttpRequest.POST(
                        "/v1/spaces/" + space + "/query",
                        Map.of("query", "Ana drinks", "as_of_seq", 2, "top_k", 5, "date_filter", false)),
                key(AGENT));
        assertThat(restQueryThen.status()).as(restQueryThen.raw()).isEqualTo(200);
        assertThat(restQueryThen.list("items"))
                .singleElement()
                .satisfies(item -> assertThat(item).containsEntry("id", id).containsEntry("text", "Ana drinks coffee"));
        assertThat(plain(grpc().query(QueryRequest.newBuilder()
                        .setSpace(space)
                        .setQuery("Ana drinks")
                        .setAsOfSeq(2)
                        .setTopK(5)
                        .setDateFilter(false)
                        .build())))
                .isEqualTo(plainJson(restQueryThen.json()));
        assertSameRefusal(
                rest(
                        HttpRequest.POST("/v1/spaces/" + space + "/query", Map.of("query", "Ana", "as_of_seq", 99)),
                        key(AGENT)),
                failure(() -> grpc().query(QueryRequest.newBuilder()
                        .setSpace(space)
                        .setQuery("Ana")
                        .setAsOfSeq(99)
                        .build())),
                "INVALID_ARGUMENT",
                Status.Code.INVALID_ARGUMENT);
        assertThat(plain(grpc().getMemory(io.memorychain.api.grpc.v1.GetMemoryRequest.newBuilder()
                        .setSpace(space)
                        .setId(id)
                        .setAsOfSeq(2)
                        .build())))
                .isEqualTo(plainJson(restThen.json()));
        assertThat(grpc().listMemories(io.memorychain.api.grpc.v1.ListMemoriesRequest.newBuilder()
                                .setSpace(space)
                                .setAsOfSeq(1)
                                .build())
                        .getItems(0)
                        .getContent())
                .isEqualTo("Ana drinks green tea");
        assertThat(grpc().getCore(io.memorychain.api.grpc.v1.GetCoreRequest.newBuilder()
                                .setSpace(space)
                                .setAsOfSeq(1)
                                .build())
                        .getMemoriesCount())
                .isZero();
        assertThat(failure(() -> grpc().getMemory(io.memorychain.api.grpc.v1.GetMemoryRequest.newBuilder()
                                .setSpace(space)
                                .setId(id)
                                .setAsOfSeq(99)
                                .build()))
                        .code())
                .isEqualTo("INVALID_ARGUMENT");
    }

    @Test
    void answersQueriesAndContextAlikeOnBothTransports() {
        String space = space();
        List<String> ids = List.of(
                createOverRest(space, "Ana prefers dark mode in every editor"),
                createOverRest(space, "Ana drinks green tea in the afternoon"),
                createOverRest(space, "The deployment runs every Friday"));
        // scores depend on every candidate's cosine, and the embedder publishes embeddings after their events
        await().until(() -> ids.stream()
                .allMatch(id -> backend().views().embedding(space, id).isPresent()));
        grpc().putBlock(PutBlockRequest.newBuilder()
                .setSpace(space)
                .setLabel("persona")
                .setContent("I am a careful planner")
                .build());

        Resp restQuery = rest(
                HttpRequest.POST(
                        "/v1/spaces/" + space + "/query",
                        Map.of(
                                "query",
                                "which theme does Ana like?",
                                "top_k",
                                2,
                                "budget_tokens",
                                200,
                                "return",
                                "full")),
                key(AGENT));
        assertThat(restQuery.status()).as(restQuery.raw()).isEqualTo(200);
        assertThat(restQuery.list("items")).isNotEmpty();
        assertThat(plain(grpc().query(QueryRequest.newBuilder()
                        .setSpace(space)
                        .setQuery("which theme does Ana like?")
                        .setTopK(2)
                        .setBudgetTokens(200)
                        .setReturn("full")
                        .build())))
                .isEqualTo(plainJson(restQuery.json()));

        Resp restContext = rest(
                HttpRequest.POST(
                        "/v1/spaces/" + space + "/context", Map.of("message", "set up my editor", "max_tokens", 300)),
                key(AGENT));
        assertThat(restContext.status()).as(restContext.raw()).isEqualTo(200);
        assertThat((String) restContext.json().get("text")).contains("I am a careful planner");
        assertThat(plain(grpc().context(ContextRequest.newBuilder()
                        .setSpace(space)
                        .setMessage("set up my editor")
                        .setMaxTokens(300)
                        .build())))
                .isEqualTo(plainJson(restContext.json()));
    }

    @Test
    void appliesFiltersWithOperatorsAndGroupsAlikeOnBothTransports() {
        String space = space();
        List<String> ids = new java.util.ArrayList<>();
        for (Map<String, Object> m : List.of(
                Map.<String, Object>of("content", "Lisbon trip in May", "importance", 5, "tags", List.of("travel")),
                Map.<String, Object>of("content", "Trip budget review", "importance", 4, "category", "tasks"),
                Map.<String, Object>of(
                        "content",
                        "The trip to Porto last year",
                        "importance",
                        4,
                        "kind",
                        "episodic",
                        "category",
                        "tasks"),
                Map.<String, Object>of("content", "Small trip note", "importance", 2, "tags", List.of("travel")))) {
            Resp r = rest(HttpRequest.POST("/v1/spaces/" + space + "/memories", m), key(AGENT));
            assertThat(r.status()).as(r.raw()).isEqualTo(201);
            ids.add((String) r.map("memory").get("id"));
        }
        await().until(() -> ids.stream()
                .allMatch(id -> backend().views().embedding(space, id).isPresent()));
        Map<String, Object> filters = Map.of(
                "importance_min",
                3,
                "OR",
                List.of(
                        Map.of("tags", "travel"),
                        Map.of(
                                "AND",
                                List.of(
                                        Map.of("category", Map.of("in", List.of("tasks"))),
                                        Map.of("NOT", Map.of("kind", "episodic"))))));

        Resp restQuery = rest(
                HttpRequest.POST(
                        "/v1/spaces/" + space + "/query", Map.of("query", "trip", "top_k", 10, "filters", filters)),
                key(AGENT));

        assertThat(restQuery.status()).as(restQuery.raw()).isEqualTo(200);
        assertThat(restQuery.list("items"))
                .extracting(i -> i.get("id"))
                .containsExactlyInAnyOrder(ids.get(0), ids.get(1));
        assertThat(plain(grpc().query(QueryRequest.newBuilder()
                        .setSpace(space)
                        .setQuery("trip")
                        .setTopK(10)
                        .setFilter(struct(filters))
                        .build())))
                .isEqualTo(plainJson(restQuery.json()));
        // the flat message and the Struct combine (ids only: the accesses of the queries above change decay scores)
        Object combined = ((Map<?, ?>) plain(grpc().query(QueryRequest.newBuilder()
                        .setSpace(space)
                        .setQuery("trip")
                        .setTopK(10)
                        .setFilters(io.memorychain.api.grpc.v1.QueryFilters.newBuilder()
                                .setImportanceMin(3))
                        .setFilter(struct(Map.of("OR", filters.get("OR"))))
                        .build())))
                .get("items");
        List<Object> combinedIds = ((List<?>) combined)
                .stream().map(i -> (Object) ((Map<?, ?>) i).get("id")).toList();
        assertThat(combinedIds).containsExactlyInAnyOrder(ids.get(0), ids.get(1));

        Map<String, Object> bad = Map.of("OR", List.of(Map.of("mood", "happy")));
        assertSameRefusal(
                rest(
                        HttpRequest.POST("/v1/spaces/" + space + "/query", Map.of("query", "trip", "filters", bad)),
                        key(AGENT)),
                failure(() -> grpc().query(QueryRequest.newBuilder()
                        .setSpace(space)
                        .setQuery("trip")
                        .setFilter(struct(bad))
                        .build())),
                "INVALID_FILTER",
                Status.Code.INVALID_ARGUMENT);
    }

    /** A JSON-like tree as a protobuf Struct. */
    private static com.google.protobuf.Struct struct(Map<?, ?> map) {
        com.google.protobuf.Struct.Builder b = com.google.protobuf.Struct.newBuilder();
        map.forEach((k, v) -> b.putFields(String.valueOf(k), value(v)));
        return b.build();
    }

    private static com.google.protobuf.Value value(Object v) {
        com.google.protobuf.Value.Builder b = com.google.protobuf.Value.newBuilder();
        if (v instanceof Map<?, ?> m) {
            return b.setStructValue(struct(m)).build();
        }
        if (v instanceof List<?> l) {
            com.google.protobuf.ListValue.Builder list = com.google.protobuf.ListValue.newBuilder();
            l.forEach(x -> list.addValues(value(x)));
            return b.setListValue(list).build();
        }
        if (v instanceof Number n) {
            return b.setNumberValue(n.doubleValue()).build();
        }
        if (v instanceof Boolean bool) {
            return b.setBoolValue(bool).build();
        }
        return b.setStringValue(String.valueOf(v)).build();
    }

    @Test
    void readsAndEditsTheMarkdownViewAlikeOnBothTransports() {
        String space = space();
        Resp put = rest(
                HttpRequest.PUT(
                                "/v1/spaces/" + space + "/files/facts/preferences.md",
                                "# Facts: preferences\n\n- Ana prefers dark mode\n- Ana drinks green tea\n")
                        .contentType("text/markdown"),
                key(PERSON));
        assertThat(put.status()).as(put.raw()).isEqualTo(200);

        MemoryServiceBlockingStub person = grpc(key(PERSON));
        assertThat(plain(person.listFiles(
                        ListFilesRequest.newBuilder().setSpace(space).build())))
                .isEqualTo(plainJson(rest(HttpRequest.GET("/v1/spaces/" + space + "/files"), key(PERSON))
                        .json()));
        FileContent file = person.readFile(ReadFileRequest.newBuilder()
                .setSpace(space)
                .setPath("facts/preferences.md")
                .build());
        Resp restFile = restText(space, "facts/preferences.md", key(PERSON));
        assertThat(file.getText()).isEqualTo(restFile.raw()).contains("- Ana prefers dark mode <!-- id:");
        assertThat(file.getEtag()).isEqualTo(restFile.headers().get(HttpHeaders.ETAG));

        var appended = person.appendFile(AppendFileRequest.newBuilder()
                .setSpace(space)
                .setPath("facts/preferences.md")
                .setText("Ana uses vim keybindings")
                .setIfMatch(file.getEtag())
                .build());
        assertThat(appended.getChangesList()).extracting(c -> c.getAction()).containsExactly("created");
        assertThat(restText(space, "facts/preferences.md", key(PERSON)).raw())
                .contains("- Ana uses vim keybindings <!-- id:");
        assertThat(audit(space).get(audit(space).size() - 1).get("actor"))
                .isEqualTo(Map.of("type", "user", "id", "manual"));

        var patched = person.patchFile(PatchFileRequest.newBuilder()
                .setSpace(space)
                .setPath("facts/preferences.md")
                .addEdits(TextEdit.newBuilder().setOldText("green tea").setNewText("oolong tea"))
                .build());
        assertThat(patched.getApplied()).isEqualTo(1);
        assertThat(patched.getChangesList()).extracting(c -> c.getAction()).containsExactly("updated");
        assertThat(patched.getFile().getPath()).isEqualTo("facts/preferences.md");
        assertThat(rest(HttpRequest.GET("/v1/spaces/" + space + "/files"), key(PERSON))
                        .list("files"))
                .filteredOn(f -> "facts/preferences.md".equals(f.get("path")))
                .singleElement()
                .satisfies(f -> assertThat(plainJson(f)).isEqualTo(plain(patched.getFile())));

        // a write against the text read before the append and patch: refused alike, nothing changes
        assertSameRejection(
                space,
                "VERSION_CONFLICT",
                409,
                Status.Code.ABORTED,
                () -> rest(
                        HttpRequest.PUT("/v1/spaces/" + space + "/files/facts/preferences.md", file.getText())
                                .contentType("text/markdown")
                                .header("If-Match", file.getEtag()),
                        key(PERSON)),
                () -> person.writeFile(WriteFileRequest.newBuilder()
                        .setSpace(space)
                        .setPath("facts/preferences.md")
                        .setText(file.getText())
                        .setIfMatch(file.getEtag())
                        .build()));
    }

    // ---------------------------------------------------------------- rejections

    @Test
    void refusesBadInputWithTheSameCodeOnBothTransportsAndPublishesNothing() {
        String space = space();
        String id = createOverRest(space, "v1");
        assertSameRejection(
                space,
                "INVALID_ARGUMENT",
                400,
                Status.Code.INVALID_ARGUMENT,
                () -> rest(HttpRequest.POST("/v1/spaces/" + space + "/memories", Map.of("importance", 3)), key(AGENT)),
                () -> grpc().createMemory(CreateMemoryRequest.newBuilder()
                        .setSpace(space)
                        .setImportance(3)
                        .build()));
        assertSameRejection(
                space,
                "INVALID_ARGUMENT",
                400,
                Status.Code.INVALID_ARGUMENT,
                () -> rest(
                        HttpRequest.POST("/v1/spaces/" + space + "/memories", Map.of("content", "x", "kind", "dream")),
                        key(AGENT)),
                () -> grpc().createMemory(CreateMemoryRequest.newBuilder()
                        .setSpace(space)
                        .setContent("x")
                        .setKind("dream")
                        .build()));
        assertSameRejection(
                space,
                "INVALID_ARGUMENT",
                400,
                Status.Code.INVALID_ARGUMENT,
                () -> rest(
                        HttpRequest.POST("/v1/spaces/" + space + "/memories", Map.of("content", "x", "importance", 9)),
                        key(AGENT)),
                () -> grpc().createMemory(CreateMemoryRequest.newBuilder()
                        .setSpace(space)
                        .setContent("x")
                        .setImportance(9)
                        .build()));
        String huge = "x".repeat(40_000);
        assertSameRejection(
                space,
                "TOO_LARGE",
                413,
                Status.Code.INVALID_ARGUMENT,
                () -> rest(HttpRequest.POST("/v1/spaces/" + space + "/memories", Map.of("content", huge)), key(AGENT)),
                () -> grpc().createMemory(CreateMemoryRequest.newBuilder()
                        .setSpace(space)
                        .setContent(huge)
                        .build()));
        assertSameRejection(
                space,
                "INVALID_ARGUMENT",
                400,
                Status.Code.INVALID_ARGUMENT,
                () -> rest(
                        HttpRequest.PATCH("/v1/spaces/" + space + "/memories/" + id, Map.of("expected_version", 1)),
                        key(AGENT)),
                () -> grpc().updateMemory(UpdateMemoryRequest.newBuilder()
                        .setSpace(space)
                        .setId(id)
                        .setExpectedVersion(1)
                        .build()));
        assertSameRejection(
                space,
                "INVALID_ARGUMENT",
                400,
                Status.Code.INVALID_ARGUMENT,
                () -> rest(HttpRequest.GET("/v1/spaces/" + space + "/memories?limit=0"), key(AGENT)),
                () -> grpc().listMemories(ListMemoriesRequest.newBuilder()
                        .setSpace(space)
                        .setLimit(0)
                        .build()));
        assertSameRejection(
                space,
                "INVALID_ARGUMENT",
                400,
                Status.Code.INVALID_ARGUMENT,
                () -> rest(
                        HttpRequest.POST("/v1/spaces/" + space + "/query", Map.of("query", "tea", "top_k", 0)),
                        key(AGENT)),
                () -> grpc().query(QueryRequest.newBuilder()
                        .setSpace(space)
                        .setQuery("tea")
                        .setTopK(0)
                        .build()));
        assertSameRejection(
                space,
                "INVALID_PATH",
                400,
                Status.Code.INVALID_ARGUMENT,
                () -> restText(space, "facts/../keys.md", key(AGENT)),
                () -> grpc().readFile(ReadFileRequest.newBuilder()
                        .setSpace(space)
                        .setPath("facts/../keys.md")
                        .build()));
        assertSameRejection(
                space,
                "NOT_FOUND",
                404,
                Status.Code.NOT_FOUND,
                () -> rest(HttpRequest.GET("/v1/spaces/" + space + "/memories/no-such-id"), key(AGENT)),
                () -> grpc().getMemory(GetMemoryRequest.newBuilder()
                        .setSpace(space)
                        .setId("no-such-id")
                        .build()));
        assertSameRejection(
                space,
                "NOT_FOUND",
                404,
                Status.Code.NOT_FOUND,
                () -> rest(HttpRequest.GET("/v1/spaces/" + space + "/blocks/goals"), key(AGENT)),
                () -> grpc().getBlock(GetBlockRequest.newBuilder()
                        .setSpace(space)
                        .setLabel("goals")
                        .build()));
        assertSameRejection(
                space,
                "FORBIDDEN",
                403,
                Status.Code.PERMISSION_DENIED,
                () -> rest(
                        HttpRequest.POST(
                                "/v1/spaces/" + space + "/query", Map.of("query", "tea", "agent", "someone-else")),
                        key(AGENT)),
                () -> grpc().query(QueryRequest.newBuilder()
                        .setSpace(space)
                        .setQuery("tea")
                        .setAgent("someone-else")
                        .build()));
        assertSameRejection(
                space,
                "INVALID_ARGUMENT",
                400,
                Status.Code.INVALID_ARGUMENT,
                () -> rest(HttpRequest.GET("/v1/spaces/" + space + "/audit?limit=5000"), key(AGENT)),
                () -> grpc().listAudit(ListAuditRequest.newBuilder()
                        .setSpace(space)
                        .setLimit(5000)
                        .build()));
        GrpcFailure badSince = failure(() -> grpc().watchChanges(WatchChangesRequest.newBuilder()
                        .setSpace(space)
                        .setSinceRev(-1)
                        .build())
                .hasNext());
        assertThat(badSince.status()).isEqualTo(Status.Code.INVALID_ARGUMENT);
        assertThat(badSince.code()).isEqualTo("INVALID_ARGUMENT");
    }

    @Test
    void erasureAndPurgeFollowTheSameRulesOnBothTransports() {
        String space = space();
        String a = createOverRest(space, "My PIN is 4417");
        String b = createOverRest(space, "A temporary note");
        assertSameRejection(
                space,
                "FORBIDDEN",
                403,
                Status.Code.PERMISSION_DENIED,
                () -> rest(
                        HttpRequest.POST("/v1/spaces/" + space + "/memories/" + a + ":erase", Map.of("reason", "x")),
                        key(AGENT)),
                () -> grpc().eraseMemory(io.memorychain.api.grpc.v1.HardDeleteRequest.newBuilder()
                        .setSpace(space)
                        .setId(a)
                        .setReason("x")
                        .build()));

        WriteResult erased = grpc(key(PERSON))
                .eraseMemory(io.memorychain.api.grpc.v1.HardDeleteRequest.newBuilder()
                        .setSpace(space)
                        .setId(a)
                        .setReason("forget my PIN")
                        .build());

        assertThat(erased.getMemory().getContent()).isEqualTo("[erased]");
        grpc().deleteMemory(DeleteMemoryRequest.newBuilder()
                .setSpace(space)
                .setId(b)
                .build());
        WriteResult purged = grpc(key(ADMIN))
                .purgeMemory(io.memorychain.api.grpc.v1.HardDeleteRequest.newBuilder()
                        .setSpace(space)
                        .setId(b)
                        .setReason("cleanup")
                        .build());
        assertThat(purged.getMemory().getContent()).isEqualTo("[purged]");
    }

    @Test
    void rejectionsByTheSequencerCarryTheSameCodeAndRequestIdOnBothTransports() {
        String space = space();
        String a = createOverRest(space, "Never share the user's address");
        String b = createOverRest(space, "The address is somewhere");
        assertThat(rest(
                                HttpRequest.PATCH("/v1/spaces/" + space + "/memories/" + b, Map.of("content", "v2")),
                                key(AGENT))
                        .status())
                .isEqualTo(200);

        GrpcFailure stale = assertSameRejection(
                space,
                "VERSION_CONFLICT",
                409,
                Status.Code.ABORTED,
                () -> rest(
                        HttpRequest.PATCH(
                                "/v1/spaces/" + space + "/memories/" + b,
                                Map.of("content", "v3", "expected_version", 1)),
                        key(AGENT)),
                () -> grpc().updateMemory(UpdateMemoryRequest.newBuilder()
                        .setSpace(space)
                        .setId(b)
                        .setContent("v3")
                        .setExpectedVersion(1)
                        .setIdempotencyKey("stale-1")
                        .build()));
        assertThat(stale.requestId()).isEqualTo("stale-1");
        assertSameRejection(
                space,
                "NOT_IN_REFINEMENT",
                403,
                Status.Code.PERMISSION_DENIED,
                () -> rest(
                        HttpRequest.POST("/v1/spaces/" + space + "/memories/" + a + ":protect", Map.of()), key(AGENT)),
                () -> grpc().protectMemory(action(space, a)));

        WriteResult protectedByAdmin = grpc(key(ADMIN)).protectMemory(action(space, a));
        assertThat(protectedByAdmin.getMemory().getConstitutional()).isTrue();
        assertThat(audit(space).get(audit(space).size() - 1).get("actor"))
                .isEqualTo(Map.of("type", "admin", "id", "ops"));
        assertSameRejection(
                space,
                "CONSTITUTIONAL",
                403,
                Status.Code.PERMISSION_DENIED,
                () -> rest(HttpRequest.DELETE("/v1/spaces/" + space + "/memories/" + a), key(AGENT)),
                () -> grpc().deleteMemory(DeleteMemoryRequest.newBuilder()
                        .setSpace(space)
                        .setId(a)
                        .build()));
        assertSameRejection(
                space,
                "CONSTITUTIONAL",
                403,
                Status.Code.PERMISSION_DENIED,
                () -> rest(
                        HttpRequest.POST(
                                "/v1/spaces/" + space + "/consolidations",
                                Map.of("ids", List.of(a, b), "content", "merged")),
                        key(AGENT)),
                () -> grpc().consolidate(ConsolidateRequest.newBuilder()
                        .setSpace(space)
                        .addIds(a)
                        .addIds(b)
                        .setContent("merged")
                        .build()));
        assertSameRejection(
                space,
                "FORBIDDEN",
                403,
                Status.Code.PERMISSION_DENIED,
                () -> rest(
                        HttpRequest.POST("/v1/spaces/" + space + "/memories/" + a + ":unprotect", Map.of()),
                        key(AGENT)),
                () -> grpc().unprotectMemory(action(space, a)));
        assertSameRejection(
                space,
                "UNKNOWN_BLOCK_LABEL",
                400,
                Status.Code.INVALID_ARGUMENT,
                () -> rest(
                        HttpRequest.PUT("/v1/spaces/" + space + "/blocks/no_such_label", Map.of("content", "x")),
                        key(AGENT)),
                () -> grpc().putBlock(PutBlockRequest.newBuilder()
                        .setSpace(space)
                        .setLabel("no_such_label")
                        .setContent("x")
                        .build()));
        assertSameRejection(
                space,
                "NOT_FOUND",
                404,
                Status.Code.NOT_FOUND,
                () -> rest(HttpRequest.POST("/v1/spaces/" + space + "/memories/m-gone:restore", Map.of()), key(AGENT)),
                () -> grpc().restoreMemory(action(space, "m-gone")));

        grpc().link(LinkRequest.newBuilder().setSpace(space).setId(a).setTo(b).build());
        assertSameRejection(
                space,
                "ALREADY_LINKED",
                409,
                Status.Code.ALREADY_EXISTS,
                () -> rest(
                        HttpRequest.POST("/v1/spaces/" + space + "/memories/" + a + "/links", Map.of("to", b)),
                        key(AGENT)),
                () -> grpc().link(LinkRequest.newBuilder()
                        .setSpace(space)
                        .setId(a)
                        .setTo(b)
                        .build()));
    }

    // ---------------------------------------------------------------- WatchChanges

    @Test
    void watchChangesSendsTheBacklogThenEveryChangeWrittenAfterTheStreamOpened() {
        String space = space();
        String first = createOverRest(space, "before the stream: seq 1");
        createOverRest(space, "before the stream: seq 2");

        int openBefore = openWatchStreams();
        Watching watching = watch(key(AGENT), space, 1);
        List<AuditEntry> received = watching.received();
        // the backlog after since_rev: seq 2 only; then the stream is live
        await().until(() -> received.size() == 1);
        assertThat(received.get(0).getSeq()).isEqualTo(2);
        await().until(() -> openWatchStreams() == openBefore + 1);

        // written after the stream opened, over both transports
        grpc().pinMemory(action(space, first));
        String third = createOverRest(space, "after the stream: seq 4");
        grpc().createMemory(CreateMemoryRequest.newBuilder()
                .setSpace(space)
                .setContent("after the stream: seq 5")
                .build());
        await().until(() -> received.size() == 4);
        assertThat(received).extracting(AuditEntry::getSeq).containsExactly(2L, 3L, 4L, 5L);
        assertThat(received.get(1).getEventType()).isEqualTo(audit(space).get(2).get("event_type"));
        assertThat(received.get(2).getMemoryIdsList()).containsExactly(third);
        assertThat(received.stream().map(ProtoMaps::plain).toList())
                .isEqualTo(plainJson(rest(HttpRequest.GET("/v1/spaces/" + space + "/audit?after_seq=1"), key(AGENT))
                        .json()
                        .get("items")));
        assertThat(watching.ended().get()).isNull();

        // the client cancels: the server lets the stream go
        watching.call().get().cancel("done watching", null);
        await().until(() -> openWatchStreams() == openBefore);
        grpc().createMemory(CreateMemoryRequest.newBuilder()
                .setSpace(space)
                .setContent("after the cancel")
                .build());
        assertThat(received).hasSize(4);
    }

    @Test
    void revokingAKeyEndsTheStreamsItOpened() {
        String space = space();
        createOverRest(space, "seq 1");
        ApiKeys.Issued issued = apiKeys()
                .issue(
                        new Principal(
                                "watcher-" + UUID.randomUUID().toString().substring(0, 8),
                                Role.AGENT,
                                "watcher",
                                List.of(space)),
                        "test");
        Watching watching = watch(issued.key().toString(), space, 0);
        await().until(() -> watching.received().size() == 1);

        apiKeys().revoke(issued.record().keyId());
        await().until(() -> watching.ended().get() != null);
        Status status = Status.fromThrowable(watching.ended().get());
        assertThat(status.getCode()).isEqualTo(Status.Code.UNAUTHENTICATED);
        assertThat(status.getDescription()).startsWith("UNAUTHENTICATED: ");
        createOverRest(space, "seq 2");
        assertThat(watching.received()).hasSize(1);
    }

    /** An open WatchChanges call: what it received, how it ended (null while open), and the call to cancel it. */
    private record Watching(
            List<AuditEntry> received,
            AtomicReference<Throwable> ended,
            AtomicReference<ClientCallStreamObserver<WatchChangesRequest>> call) {}

    private Watching watch(String key, String space, long sinceRev) {
        Watching watching =
                new Watching(new CopyOnWriteArrayList<>(), new AtomicReference<>(), new AtomicReference<>());
        MemoryServiceGrpc.newStub(channel)
                .withInterceptors(auth(key))
                .watchChanges(
                        WatchChangesRequest.newBuilder()
                                .setSpace(space)
                                .setSinceRev(sinceRev)
                                .build(),
                        new ClientResponseObserver<WatchChangesRequest, AuditEntry>() {
                            @Override
                            public void beforeStart(ClientCallStreamObserver<WatchChangesRequest> requestStream) {
                                watching.call().set(requestStream);
                            }

                            @Override
                            public void onNext(AuditEntry entry) {
                                watching.received().add(entry);
                            }

                            @Override
                            public void onError(Throwable t) {
                                watching.ended().set(t);
                            }

                            @Override
                            public void onCompleted() {
                                watching.ended().set(new IllegalStateException("completed"));
                            }
                        });
        return watching;
    }

    // ---------------------------------------------------------------- refinement, proposals, keys

    @Test
    void runsARefinementSessionAlikeOnBothTransports() {
        String space = space();
        List<String> tea = List.of(
                createCoreOverRest(space, "Ana likes tea"),
                createCoreOverRest(space, "Ana likes green tea"),
                createCoreOverRest(space, "Ana drinks tea every afternoon"));
        String address = createCoreOverRest(space, "Never share Ana's home address");
        String base = "/v1/spaces/" + space + "/refinements";

        RefinementSession started = grpc(key(ADMIN))
                .startRefinement(StartRefinementRequest.newBuilder()
                        .setSpace(space)
                        .setTargetTokens(10)
                        .setReason("parity")
                        .build());
        assertThat(started.getState()).isEqualTo("open");
        assertThat(started.getStartedBy())
                .isEqualTo(Actor.newBuilder().setType("admin").setId("ops").build());
        assertThat(started.getLedgerList())
                .as("admins see figures, not memories")
                .isEmpty();
        assertThat(plain(started))
                .isEqualTo(plainJson(rest(HttpRequest.GET(base + "/" + started.getSessionId()), key(ADMIN))
                        .json()));
        RefinementSession current = grpc().getRefinement(GetRefinementRequest.newBuilder()
                .setSpace(space)
                .setSession("current")
                .build());
        assertThat(current.getLedgerList())
                .extracting(LedgerEntry::getId)
                .containsExactlyInAnyOrderElementsOf(List.of(tea.get(0), tea.get(1), tea.get(2), address));
        assertThat(plain(current))
                .isEqualTo(plainJson(
                        rest(HttpRequest.GET(base + "/current"), key(AGENT)).json()));
        assertSameRejection(
                space,
                "INVALID_STATE",
                409,
                Status.Code.FAILED_PRECONDITION,
                () -> rest(HttpRequest.POST(base, Map.of()), key(ADMIN)),
                () -> grpc(key(ADMIN))
                        .startRefinement(StartRefinementRequest.newBuilder()
                                .setSpace(space)
                                .build()));

        RefinementSearchResult found = grpc().searchRefinement(SearchRefinementRequest.newBuilder()
                .setSpace(space)
                .setSession("current")
                .setQuery("tea")
                .build());
        assertThat(found.getItemsList()).extracting(LedgerEntry::getId).containsExactlyInAnyOrderElementsOf(tea);
        assertThat(plain(found))
                .isEqualTo(plainJson(
                        rest(HttpRequest.POST(base + "/current/search", Map.of("query", "tea")), key(AGENT))
                                .json()));

        WriteResult merged = grpc().refinementConsolidate(RefinementConsolidateRequest.newBuilder()
                .setSpace(space)
                .setSession("current")
                .addAllIds(tea)
                .setContent("Ana drinks green tea every afternoon")
                .build());
        assertThat(merged.getMemory().getSupersedesList()).containsExactlyInAnyOrderElementsOf(tea);
        assertSameMemory(space, merged.getMemory().getId(), merged);
        WriteResult tightened = grpc().refinementUpdateMemory(RefinementUpdateMemoryRequest.newBuilder()
                .setSpace(space)
                .setSession("current")
                .setId(merged.getMemory().getId())
                .setContent("Ana: green tea every afternoon")
                .build());
        assertSameMemory(space, merged.getMemory().getId(), tightened);
        WriteResult protectedMemory = grpc().refinementProtectMemory(RefinementProtectMemoryRequest.newBuilder()
                .setSpace(space)
                .setSession("current")
                .setId(address)
                .build());
        assertThat(protectedMemory.getMemory().getConstitutional()).isTrue();
        assertSameRejection(
                space,
                "CONSTITUTIONAL",
                403,
                Status.Code.PERMISSION_DENIED,
                () -> rest(HttpRequest.DELETE(base + "/current/memories/" + address), key(AGENT)),
                () -> grpc().refinementDeleteMemory(RefinementDeleteMemoryRequest.newBuilder()
                        .setSpace(space)
                        .setSession("current")
                        .setId(address)
                        .build()));

        RefinementCompletion done = grpc().completeRefinement(CompleteRefinementRequest.newBuilder()
                .setSpace(space)
                .setSession("current")
                .setSummary("merged the tea habits")
                .build());
        assertThat(done.getSession().getState()).isEqualTo("completed");
        assertThat(done.getSession().getSummary())
                .isEqualTo("Compressed 3 -> 1; saved ~10 tokens; protected 1 constitutional memory; updated 1");
        assertThat(done.getJournal().getKind()).isEqualTo("journal");
        assertThat(done.getRequestId()).isNotEmpty();
        assertThat(plain(grpc().getRefinement(GetRefinementRequest.newBuilder()
                        .setSpace(space)
                        .setSession(started.getSessionId())
                        .build())))
                .isEqualTo(plainJson(rest(HttpRequest.GET(base + "/" + started.getSessionId()), key(AGENT))
                        .json()))
                .isEqualTo(plain(done.getSession()));
        assertThat(plain(grpc().listRefinements(ListRefinementsRequest.newBuilder()
                        .setSpace(space)
                        .build())))
                .isEqualTo(plainJson(rest(HttpRequest.GET(base), key(AGENT)).json()));
        assertSameRejection(
                space,
                "NOT_IN_REFINEMENT",
                403,
                Status.Code.PERMISSION_DENIED,
                () -> rest(
                        HttpRequest.POST(
                                base + "/current/memories/" + merged.getMemory().getId() + ":protect", Map.of()),
                        key(AGENT)),
                () -> grpc().refinementProtectMemory(RefinementProtectMemoryRequest.newBuilder()
                        .setSpace(space)
                        .setSession("current")
                        .setId(merged.getMemory().getId())
                        .build()));
    }

    @Test
    void reviewsSubAgentProposalsAlikeOnBothTransports() {
        String space = space();
        MemoryServiceBlockingStub researcher = grpc(key(SUBAGENT));
        ProposalWriteResult metric = researcher.propose(ProposeRequest.newBuilder()
                .setSpace(space)
                .setContent("The user prefers metric units")
                .addTags("units")
                .setCoreWorthy(true)
                .build());
        assertThat(metric.getProposal().getStatus()).isEqualTo("pending");
        assertThat(metric.getProposal().getProposer())
                .isEqualTo(Actor.newBuilder()
                        .setType("subagent")
                        .setId("researcher")
                        .build());
        Resp lisbon = rest(
                HttpRequest.POST("/v1/spaces/" + space + "/proposals", Map.of("content", "The user lives in Lisbon")),
                key(SUBAGENT));
        assertThat(lisbon.status()).as(lisbon.raw()).isEqualTo(201);
        String lisbonId = (String) lisbon.map("proposal").get("id");
        String path = "/v1/spaces/" + space + "/proposals";
        assertThat(plain(grpc().listProposals(ListProposalsRequest.newBuilder()
                        .setSpace(space)
                        .build())))
                .isEqualTo(plainJson(rest(HttpRequest.GET(path), key(AGENT)).json()));
        assertThat(plain(grpc().getProposal(GetProposalRequest.newBuilder()
                        .setSpace(space)
                        .setId(lisbonId)
                        .build())))
                .isEqualTo(plainJson(lisbon.map("proposal")));
        // sub-agents write only by proposing, over both transports
        assertSameRejection(
                space,
                "FORBIDDEN",
                403,
                Status.Code.PERMISSION_DENIED,
                () -> rest(
                        HttpRequest.POST("/v1/spaces/" + space + "/memories", Map.of("content", "direct")),
                        key(SUBAGENT)),
                () -> researcher.createMemory(CreateMemoryRequest.newBuilder()
                        .setSpace(space)
                        .setContent("direct")
                        .build()));

        ProposalWriteResult committed = grpc().commitProposal(
                        review(space, metric.getProposal().getId())
                                .setReason("confirmed")
                                .build());
        assertThat(committed.getProposal().getStatus()).isEqualTo("committed");
        assertThat(committed.getMemory().getTier()).isEqualTo("core");
        assertThat(committed.getProposal().getMemoryId())
                .isEqualTo(committed.getMemory().getId());
        assertThat(plain(committed.getMemory()))
                .isEqualTo(plainJson(rest(
                                HttpRequest.GET("/v1/spaces/" + space + "/memories/"
                                        + committed.getMemory().getId()),
                                key(AGENT))
                        .json()));
        assertThat(audit(space).get(audit(space).size() - 1).get("actor"))
                .isEqualTo(Map.of("type", "agent", "id", "commit-from:researcher"));
        assertThat(plain(committed.getProposal()))
                .isEqualTo(plainJson(
                        rest(HttpRequest.GET(path + "/" + metric.getProposal().getId()), key(AGENT))
                                .json()));

        ProposalWriteResult deferred = grpc(key(PERSON))
                .deferProposal(review(space, lisbonId).setReason("ask the user").build());
        assertThat(deferred.getProposal().getStatus()).isEqualTo("deferred");
        ProposalWriteResult rejected = grpc().rejectProposal(
                        review(space, lisbonId).setExpectedVersion(2).build());
        assertThat(rejected.getProposal().getStatus()).isEqualTo("rejected");
        assertThat(plain(rejected.getProposal()))
                .isEqualTo(plainJson(
                        rest(HttpRequest.GET(path + "/" + lisbonId), key(AGENT)).json()));
        assertSameRejection(
                space,
                "ALREADY_RESOLVED",
                409,
                Status.Code.FAILED_PRECONDITION,
                () -> rest(HttpRequest.POST(path + "/" + lisbonId + ":commit", Map.of()), key(AGENT)),
                () -> grpc().commitProposal(review(space, lisbonId).build()));
    }

    @Test
    void managesKeysAndTellsCallersWhoTheyAreAlikeOnBothTransports() {
        String space = space();
        MemoryServiceBlockingStub admin = grpc(key(ADMIN));
        var issued = admin.issueKey(IssueKeyRequest.newBuilder()
                .setId("helper-" + UUID.randomUUID().toString().substring(0, 8))
                .setRole("agent")
                .setAgentId("helper")
                .addSpaces(space)
                .build());
        assertThat(issued.getKey()).startsWith("mc_" + issued.getKeyId() + "_");
        assertThat(issued.getCreatedBy()).startsWith("admin-ops");

        Caller me = grpc(issued.getKey()).whoAmI(WhoAmIRequest.getDefaultInstance());
        assertThat(me.getActor()).isEqualTo("agent:helper");
        assertThat(me.getSpacesList()).containsExactly(space);
        assertThat(plain(me))
                .isEqualTo(plainJson(
                        rest(HttpRequest.GET("/v1/me"), issued.getKey()).json()));
        assertThat(grpc(issued.getKey())
                        .createMemory(CreateMemoryRequest.newBuilder()
                                .setSpace(space)
                                .setContent("hello")
                                .build())
                        .getMemory()
                        .getContent())
                .isEqualTo("hello");

        assertThat(plain(admin.listKeys(ListKeysRequest.getDefaultInstance())))
                .isEqualTo(
                        plainJson(rest(HttpRequest.GET("/v1/keys"), key(ADMIN)).json()));
        var revoked = admin.revokeKey(
                RevokeKeyRequest.newBuilder().setKeyId(issued.getKeyId()).build());
        assertThat(revoked.getRevoked()).isTrue();
        assertThat(revoked.hasKey()).isFalse();
        assertThat(plain(admin.listKeys(ListKeysRequest.getDefaultInstance())).toString())
                .doesNotContain(issued.getKey());
        Resp refused = rest(HttpRequest.GET("/v1/me"), issued.getKey());
        assertSameRefusal(
                refused,
                failure(() -> grpc(issued.getKey()).whoAmI(WhoAmIRequest.getDefaultInstance())),
                "UNAUTHENTICATED",
                Status.Code.UNAUTHENTICATED);

        assertSameRejection(
                space,
                "ROLE_NOT_ALLOWED",
                403,
                Status.Code.PERMISSION_DENIED,
                () -> rest(HttpRequest.GET("/v1/keys"), key(AGENT)),
                () -> grpc().listKeys(ListKeysRequest.getDefaultInstance()));
        assertSameRejection(
                space,
                "INVALID_ARGUMENT",
                400,
                Status.Code.INVALID_ARGUMENT,
                () -> rest(
                        HttpRequest.POST("/v1/keys", Map.of("id", "x", "role", "wizard", "spaces", List.of("*"))),
                        key(ADMIN)),
                () -> admin.issueKey(IssueKeyRequest.newBuilder()
                        .setId("x")
                        .setRole("wizard")
                        .addSpaces("*")
                        .build()));
        assertSameRejection(
                space,
                "INVALID_ARGUMENT",
                400,
                Status.Code.INVALID_ARGUMENT,
                () -> rest(HttpRequest.POST("/v1/keys", Map.of("id", "x", "role", "agent")), key(ADMIN)),
                () -> admin.issueKey(
                        IssueKeyRequest.newBuilder().setId("x").setRole("agent").build()));
    }

    // ---------------------------------------------------------------- helpers

    protected static String space() {
        return "g-" + UUID.randomUUID().toString().substring(0, 12);
    }

    protected static org.awaitility.core.ConditionFactory await() {
        return Awaitility.await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(20));
    }

    /** A key for {@code <role>:<agent>} on the given spaces (none: every space), issued once per test instance. */
    protected String key(String caller, String... spaces) {
        return keys.computeIfAbsent(caller + List.of(spaces), c -> {
            String[] parts = caller.split(":", 2);
            Principal principal = new Principal(
                    parts[0] + "-" + parts[1] + "-"
                            + UUID.randomUUID().toString().substring(0, 8),
                    Role.parse(parts[0]),
                    parts[1],
                    spaces.length == 0 ? List.of("*") : List.of(spaces));
            return apiKeys().issue(principal, "test").key().toString();
        });
    }

    protected MemoryServiceBlockingStub grpc() {
        return grpc(key(AGENT));
    }

    protected MemoryServiceBlockingStub grpc(String key) {
        return MemoryServiceGrpc.newBlockingStub(channel)
                .withInterceptors(auth(key))
                .withDeadlineAfter(60, TimeUnit.SECONDS);
    }

    private static io.grpc.ClientInterceptor auth(String key) {
        Metadata headers = new Metadata();
        headers.put(AUTHORIZATION, "Bearer " + key);
        return MetadataUtils.newAttachHeadersInterceptor(headers);
    }

    protected static MemoryActionRequest action(String space, String id) {
        return MemoryActionRequest.newBuilder().setSpace(space).setId(id).build();
    }

    protected String createOverRest(String space, String content) {
        Resp r = rest(HttpRequest.POST("/v1/spaces/" + space + "/memories", Map.of("content", content)), key(AGENT));
        assertThat(r.status()).as(r.raw()).isEqualTo(201);
        return (String) r.map("memory").get("id");
    }

    private String createCoreOverRest(String space, String content) {
        Resp r = rest(
                HttpRequest.POST("/v1/spaces/" + space + "/memories", Map.of("content", content, "tier", "core")),
                key(AGENT));
        assertThat(r.status()).as(r.raw()).isEqualTo(201);
        return (String) r.map("memory").get("id");
    }

    private static ReviewProposalRequest.Builder review(String space, String id) {
        return ReviewProposalRequest.newBuilder().setSpace(space).setId(id);
    }

    protected List<Map<String, Object>> audit(String space) {
        Resp r = rest(HttpRequest.GET("/v1/spaces/" + space + "/audit?limit=1000"), key(AGENT));
        assertThat(r.status()).as(r.raw()).isEqualTo(200);
        return r.list("items");
    }

    /** The gRPC write's memory is what REST (and gRPC) read back. */
    private void assertSameMemory(String space, String id, WriteResult written) {
        Map<String, Object> rest = rest(HttpRequest.GET("/v1/spaces/" + space + "/memories/" + id), key(AGENT))
                .json();
        assertThat(plain(written.getMemory())).isEqualTo(plainJson(rest));
        assertThat(without(written, "request_id").get("seq"))
                .isEqualTo((long) audit(space).size());
    }

    /**
     * The same bad call over both transports: the same code (gRPC: mapped status, code in the trailer, description
     * "CODE: REST message"), and the space's audit log and chain unchanged by either.
     */
    protected GrpcFailure assertSameRejection(
            String space,
            String code,
            int httpStatus,
            Status.Code grpcStatus,
            Supplier<Resp> restCall,
            Runnable grpcCall) {
        List<Map<String, Object>> before = audit(space);
        Resp rest = restCall.get();
        assertThat(rest.status()).as(rest.raw()).isEqualTo(httpStatus);
        assertThat(rest.code()).as(rest.raw()).isEqualTo(code);
        GrpcFailure grpc = failure(grpcCall);
        assertThat(grpc.status()).as(grpc.description()).isEqualTo(grpcStatus).isEqualTo(GrpcErrors.statusOf(code));
        assertThat(grpc.code()).as(grpc.description()).isEqualTo(code);
        assertThat(grpc.description()).startsWith(code + ": ").doesNotContain("\tat ", "Exception");
        if (rest.json().get("request_id") != null) {
            assertThat(grpc.requestId()).as("request id of a rejected write").isNotNull();
        }
        assertThat(audit(space)).isEqualTo(before);
        return grpc;
    }

    @Test
    void refusesACoreEditOverTheCoreCapAlikeOnBothTransports() {
        String space = space();
        grpc().putBlock(PutBlockRequest.newBuilder()
                .setSpace(space)
                .setLabel("knowledge")
                .setContent("fact ".repeat(2000).strip())
                .build());
        String more = "fact ".repeat(1500).strip();

        Resp rest = rest(HttpRequest.PUT("/v1/spaces/" + space + "/blocks/goals", Map.of("content", more)), key(AGENT));
        GrpcFailure grpc = failure(() -> grpc().putBlock(PutBlockRequest.newBuilder()
                .setSpace(space)
                .setLabel("goals")
                .setContent(more)
                .build()));

        assertThat(rest.status()).as(rest.raw()).isEqualTo(409);
        assertSameRefusal(rest, grpc, "BUDGET_EXCEEDED", Status.Code.FAILED_PRECONDITION);
        assertThat(grpc.description()).contains("cap of 3000 tokens");
    }

    @Test
    void holdsAnAgentsSensitiveProfileLineForConsentAlikeOnBothTransports() {
        String space = space();
        Resp rest = rest(
                HttpRequest.PUT("/v1/spaces/" + space + "/blocks/user_profile", Map.of("content", "- City: Lisbon")),
                key(AGENT));
        GrpcFailure grpc = failure(() -> grpc().putBlock(PutBlockRequest.newBuilder()
                .setSpace(space)
                .setLabel("user_profile")
                .setContent("- City: Porto")
                .build()));

        assertThat(rest.status()).as(rest.raw()).isEqualTo(409);
        assertThat(rest.code()).isEqualTo("HELD_FOR_CONSENT");
        assertThat(grpc.status()).as(grpc.description()).isEqualTo(Status.Code.FAILED_PRECONDITION);
        assertThat(grpc.code()).isEqualTo("HELD_FOR_CONSENT");
        assertThat(grpc.description()).contains("consent request", "GET /consents");
        assertThat(rest(HttpRequest.GET("/v1/spaces/" + space + "/consents?status=pending"), key(PERSON))
                        .list("items"))
                .extracting(c -> c.get("value"))
                .containsExactlyInAnyOrder("Lisbon", "Porto");
    }

    private static void assertSameRefusal(Resp rest, GrpcFailure grpc, String code, Status.Code status) {
        assertThat(rest.code()).as(rest.raw()).isEqualTo(code);
        assertThat(grpc.status()).as(grpc.description()).isEqualTo(status);
        assertThat(grpc.code()).isEqualTo(code);
        assertThat(grpc.description()).isEqualTo(code + ": " + rest.json().get("message"));
    }

    protected static GrpcFailure failure(Runnable call) {
        return GrpcFailure.of(call);
    }

    protected Resp restText(String space, String path, String key) {
        MutableHttpRequest<?> request =
                HttpRequest.GET("/v1/spaces/" + space + "/files/" + path).accept("text/markdown");
        return exchange(request, key);
    }

    protected Resp rest(MutableHttpRequest<?> request, String key) {
        return exchange(request.accept(MediaType.APPLICATION_JSON_TYPE), key);
    }

    private Resp exchange(MutableHttpRequest<?> request, String key) {
        if (key != null) {
            request.bearerAuth(key);
        }
        HttpResponse<String> response;
        try {
            response = http().toBlocking().exchange(request, String.class);
        } catch (HttpClientResponseException e) {
            @SuppressWarnings("unchecked")
            HttpResponse<String> error = (HttpResponse<String>) e.getResponse();
            return resp(error.getStatus().getCode(), error.getBody(String.class).orElse(""), error.getHeaders());
        }
        return resp(response.getStatus().getCode(), response.body(), response.getHeaders());
    }

    private Resp resp(int status, String raw, HttpHeaders headers) {
        Map<String, Object> parsed = new HashMap<>();
        if (raw != null && !raw.isBlank() && raw.strip().startsWith("{")) {
            try {
                parsed = json().readValue(raw, Argument.mapOf(String.class, Object.class));
            } catch (IOException e) {
                throw new UncheckedIOException("Not JSON (status " + status + "): " + raw, e);
            }
        }
        return new Resp(status, parsed, headers, raw);
    }
}
