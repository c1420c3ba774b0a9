package io.memorychain.api.grpc;

import static org.assertj.core.api.Assertions.assertThat;

import io.grpc.ManagedChannel;
import io.grpc.ManagedChannelBuilder;
import io.grpc.Metadata;
import io.grpc.Status;
import io.grpc.stub.MetadataUtils;
import io.memorychain.api.auth.ApiKeys;
import io.memorychain.api.auth.Principal;
import io.memorychain.api.auth.Role;
import io.memorychain.api.changes.ChangeStreams;
import io.memorychain.api.contract.GrpcFailure;
import io.memorychain.api.grpc.v1.CreateMemoryRequest;
import io.memorychain.api.grpc.v1.MemoryServiceGrpc;
import io.memorychain.api.grpc.v1.MemoryServiceGrpc.MemoryServiceBlockingStub;
import io.memorychain.api.topology.TopologyBackend;
import io.micronaut.context.annotation.Property;
import io.micronaut.grpc.server.GrpcEmbeddedServer;
import io.micronaut.json.JsonMapper;
import io.micronaut.runtime.server.EmbeddedServer;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import jakarta.inject.Inject;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/**
 * What gRPC answers when the chain behind it misbehaves, which only TopologyTestDriver ({@link TopologyBackend}) can
 * stage (a space another instance owns, a write whose outcome never comes, a reflection proposed by a worker), and
 * hostile calls of every gRPC method and MCP message, which need many quick writes. The parity of REST, gRPC and MCP on
 * the real backend is {@code MemoryGrpcIT}'s.
 */
@MicronautTest(environments = TopologyBackend.ENV)
@Property(name = "memory.write-timeout", value = "2s")
@Property(name = "micronaut.server.port", value = "-1")
@Property(name = "grpc.server.port", value = "0")
@Property(name = "memory.auth.bootstrap", value = "false")
@Property(name = "memory.changes.heartbeat", value = "1s")
class MemoryGrpcTest {

    private static final Metadata.Key<String> AUTHORIZATION =
            Metadata.Key.of("authorization", Metadata.ASCII_STRING_MARSHALLER);

    @Inject
    ApiKeys apiKeys;

    @Inject
    GrpcEmbeddedServer grpcServer;

    @Inject
    TopologyBackend chain;

    @Inject
    ChangeStreams changeStreams;

    @Inject
    EmbeddedServer server;

    @Inject
    JsonMapper json;

    private ManagedChannel channel;
    private String agentKey;

    @BeforeEach
    void openChannel() {
        channel = ManagedChannelBuilder.forAddress("127.0.0.1", grpcServer.getPort())
                .usePlaintext()
                .build();
        agentKey = apiKeys.issue(
                        new Principal("agent-api-" + UUID.randomUUID(), Role.AGENT, "api", List.of("*")), "test")
                .key()
                .toString();
    }

    @AfterEach
    void closeChannel() throws InterruptedException {
        channel.shutdownNow().awaitTermination(10, TimeUnit.SECONDS);
    }

    @Test
    void aCallForASpaceAnotherInstanceServesIsRefusedNamingTheOwnerNotAnsweredFromHere() {
        String space = space();
        chain.owners = s -> s.equals(space)
                ? io.memorychain.projector.view.SpaceOwner.remote("api-2", 8080, 1)
                : io.memorychain.projector.view.SpaceOwner.UNROUTED;
        try {
            GrpcFailure elsewhere = GrpcFailure.of(() -> grpc().createMemory(CreateMemoryRequest.newBuilder()
                    .setSpace(space)
                    .setContent("not here")
                    .build()));
            assertThat(elsewhere.status()).isEqualTo(Status.Code.FAILED_PRECONDITION);
            assertThat(elsewhere.code()).isEqualTo("NOT_OWNER");
            assertThat(elsewhere.description()).contains("api-2:8080");
            chain.owners = s -> io.memorychain.projector.view.SpaceOwner.unavailable(1, "partition 1 is moving");
            GrpcFailure moving = GrpcFailure.of(() -> grpc().createMemory(CreateMemoryRequest.newBuilder()
                    .setSpace(space)
                    .setContent("not now")
                    .build()));
            assertThat(moving.status()).isEqualTo(Status.Code.UNAVAILABLE);
            assertThat(moving.code()).isEqualTo("REBALANCING");
            assertThat(chain.published()).noneMatch(r -> r.getSpace().equals(space));
        } finally {
            chain.owners = s -> io.memorychain.projector.view.SpaceOwner.UNROUTED;
        }
    }

    @Test
    void aWriteWithoutOutcomeInTimeIsUnavailableWithTheTimeoutCodeAndTheRequestIdToRetryWith() {
        String space = space();
        chain.stall = true;
        try {
            GrpcFailure timeout = GrpcFailure.of(() -> grpc().createMemory(CreateMemoryRequest.newBuilder()
                    .setSpace(space)
                    .setContent("slow")
                    .setIdempotencyKey("k-grpc-123")
                    .build()));
            assertThat(timeout.status()).isEqualTo(Status.Code.UNAVAILABLE);
            assertThat(timeout.code()).isEqualTo("TIMEOUT");
            assertThat(timeout.requestId()).isEqualTo("k-grpc-123");
            assertThat(timeout.description())
                    .startsWith("TIMEOUT: ")
                    .contains("retry with the same Idempotency-Key (k-grpc-123)");
        } finally {
            chain.stall = false;
        }
    }

    @Test
    void aReflectionIsRequestedReadAndDecidedOverGrpcAsOverRest() {
        String space = space();
        io.memorychain.api.grpc.v1.ReflectionRequested requested = grpc().requestReflection(
                        io.memorychain.api.grpc.v1.RequestReflectionRequest.newBuilder()
                                .setSpace(space)
                                .setReason("reflect")
                                .build());
        assertThat(requested.getSeq()).isEqualTo(1L);
        io.memorychain.avro.ReflectionDocument doc = io.memorychain.avro.ReflectionDocument.newBuilder()
                .setTrigger(io.memorychain.avro.ReflectionTrigger.MANUAL)
                .setNumber(1)
                .setFromSeq(1)
                .setToSeq(1)
                .setSummary("# Reflection #1")
                .setEvolutionInsights(java.util.List.of("reads before writing"))
                .setChanges(java.util.List.of(io.memorychain.avro.ReflectionChange.newBuilder()
                        .setChangeId("c1")
                        .setType(io.memorychain.avro.ReflectionChangeType.CREATE_MEMORY)
                        .setContent("Ana reads first")
                        .setReason("seen")
                        .build()))
                .build();
        String id = chain.publish(io.memorychain.events.Requests.proposeReflection(
                                space,
                                io.memorychain.events.Requests.actor(io.memorychain.avro.ActorType.WORKER, "reflect"),
                                doc)
                        .build())
                .join()
                .getMemoryId();
        io.memorychain.api.grpc.v1.Reflection pending = grpc().getReflection(
                        io.memorychain.api.grpc.v1.GetReflectionRequest.newBuilder()
                                .setSpace(space)
                                .setId(id)
                                .build());
        assertThat(pending.getStatus()).isEqualTo("pending");
        assertThat(pending.getChanges(0).getContent()).isEqualTo("Ana reads first");
        assertThat(pending.getProposedSeq()).isEqualTo(2L);
        assertThat(pending.getProposedBy().getId()).isEqualTo("reflect");
        GrpcFailure unknownChange = GrpcFailure.of(
                () -> grpc().decideReflection(io.memorychain.api.grpc.v1.DecideReflectionRequest.newBuilder()
                        .setSpace(space)
                        .setId(id)
                        .setDecision("partial")
                        .addChangeIds("c9")
                        .build()));
        assertThat(unknownChange.status()).isEqualTo(Status.Code.INVALID_ARGUMENT);
        assertThat(unknownChange.code()).isEqualTo("INVALID_ARGUMENT");

        io.memorychain.api.grpc.v1.Reflection decided = grpc().decideReflection(
                        io.memorychain.api.grpc.v1.DecideReflectionRequest.newBuilder()
                                .setSpace(space)
                                .setId(id)
                                .setDecision("approve_with_changes")
                                .addEditedChanges(io.memorychain.api.grpc.v1.ReflectionChange.newBuilder()
                                        .setChangeId("c1")
                                        .setType("create_memory")
                                        .setContent("Ana reads the docs first"))
                                .build());
        assertThat(decided.getStatus()).isEqualTo("partially_approved");
        assertThat(decided.getDecidedBy().getType()).isEqualTo("agent");
        assertThat(decided.getMemoryIdsList()).hasSize(1);
        assertThat(decided.getEditedChanges(0).getContent()).isEqualTo("Ana reads the docs first");
        assertThat(chain.views()
                        .memory(space, decided.getMemoryIds(0))
                        .orElseThrow()
                        .getContent())
                .isEqualTo("Ana reads the docs first");
        assertThat(grpc().listReflections(io.memorychain.api.grpc.v1.ListReflectionsRequest.newBuilder()
                                .setSpace(space)
                                .build())
                        .getEvolutionList())
                .containsExactly("#1: reads before writing");
        GrpcFailure again = GrpcFailure.of(
                () -> grpc().decideReflection(io.memorychain.api.grpc.v1.DecideReflectionRequest.newBuilder()
                        .setSpace(space)
                        .setId(id)
                        .setDecision("reject")
                        .build()));
        assertThat(again.code()).isEqualTo("ALREADY_RESOLVED");
    }

    private MemoryServiceBlockingStub grpc() {
        Metadata headers = new Metadata();
        headers.put(AUTHORIZATION, "Bearer " + agentKey);
        return MemoryServiceGrpc.newBlockingStub(channel)
                .withInterceptors(MetadataUtils.newAttachHeadersInterceptor(headers))
                .withDeadlineAfter(60, TimeUnit.SECONDS);
    }

    private static String space() {
        return "g-" + UUID.randomUUID().toString().substring(0, 12);
    }

    /** Hostile gRPC calls of every method on this same application. */
    @Nested
    class GrpcFuzz extends io.memorychain.api.contract.GrpcFuzzContract {

        @Override
        protected int grpcPort() {
            return grpcServer.getPort();
        }

        @Override
        protected ApiKeys apiKeys() {
            return apiKeys;
        }

        @Override
        protected int openWatchStreams() {
            return changeStreams.openStreams();
        }

        /** TopologyTestDriver has no topics to export (MemoryGrpcIT reads them). */
        @Override
        protected java.util.Set<String> notServedHere() {
            return java.util.Set.of("ExportChain");
        }
    }

    /** Hostile MCP messages over HTTP on this same application. */
    @Nested
    class McpFuzz extends io.memorychain.api.contract.McpFuzzContract {

        @Override
        protected String baseUrl() {
            return server.getURL().toString();
        }

        @Override
        protected ApiKeys apiKeys() {
            return apiKeys;
        }

        @Override
        protected JsonMapper json() {
            return json;
        }
    }
}
