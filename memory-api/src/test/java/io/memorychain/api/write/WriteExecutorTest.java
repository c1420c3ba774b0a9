package io.memorychain.api.write;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.memorychain.api.error.ApiException;
import io.memorychain.api.topology.TopologyBackend;
import io.memorychain.avro.ActorType;
import io.memorychain.avro.CreateMemory;
import io.memorychain.avro.DeleteMemory;
import io.memorychain.avro.MemoryRequest;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;

class WriteExecutorTest {

    private final TopologyBackend chain = new TopologyBackend();
    private final Clock clock = Clock.fixed(Instant.parse("2025-01-01T00:00:00Z"), ZoneOffset.UTC);
    private final WriteExecutor writes = new WriteExecutor(chain, Duration.ofMillis(300), clock);

    private static CreateMemory create(String content) {
        return CreateMemory.newBuilder().setContent(content).build();
    }

    private static final io.memorychain.avro.Actor AGENT = new io.memorychain.avro.Actor(ActorType.AGENT, "claude");

    @Test
    void buildsTheRequestEnvelopeFromTheContext() {
        WriteContext ctx = WriteContext.of("space-1", AGENT, "key-1", 3, null);
        MemoryRequest request = writes.request(ctx, create("x"));
        assertThat(request.getRequestId()).isEqualTo("key-1");
        assertThat(request.getSpace()).isEqualTo("space-1");
        assertThat(request.getActor().getType()).isEqualTo(ActorType.AGENT);
        assertThat(request.getActor().getId()).isEqualTo("claude");
        assertThat(request.getExpectedVersion()).isEqualTo(3);
        assertThat(request.getSessionId()).isNull();
        assertThat(request.getRequestedAt()).isEqualTo(clock.instant());
        assertThat(request.getOp()).isInstanceOf(CreateMemory.class);
    }

    @Test
    void acceptedWriteReturnsTheMemoryAsTheViewsShowIt() {
        WriteResult result = writes.execute(WriteContext.of("s", AGENT, null, null, null), create("hello"));
        assertThat(result.seq()).isEqualTo(1);
        assertThat(result.memory().getContent()).isEqualTo("hello");
        assertThat(chain.memory("s", result.memory().getId())).contains(result.memory());
    }

    @Test
    void rejectionBecomesItsCodesStatusWithTheRequestId() {
        assertThatThrownBy(() -> writes.execute(
                        WriteContext.of("s", AGENT, "r-9", null, null),
                        DeleteMemory.newBuilder().setId("m0000zzz0000").build()))
                .isInstanceOfSatisfying(ApiException.class, e -> {
                    assertThat(e.code()).isEqualTo("NOT_FOUND");
                    assertThat(e.status().getCode()).isEqualTo(404);
                    assertThat(e.requestId()).isEqualTo("r-9");
                });
    }

    @Test
    void noOutcomeWithinTheWriteTimeoutIsATimeout() {
        chain.stall = true;
        assertThatThrownBy(() -> writes.execute(WriteContext.of("s", AGENT, "r-slow", null, null), create("x")))
                .isInstanceOfSatisfying(ApiException.class, e -> {
                    assertThat(e.code()).isEqualTo("TIMEOUT");
                    assertThat(e.status().getCode()).isEqualTo(503);
                    assertThat(e.getMessage()).contains("r-slow", "same Idempotency-Key");
                });
    }

    @Test
    void publishFailureIsUnavailableAndRetryable() {
        WriteExecutor failing = new WriteExecutor(
                new TopologyBackend() {
                    @Override
                    public java.util.concurrent.CompletableFuture<io.memorychain.avro.MemoryOutcome> publish(
                            MemoryRequest request) {
                        return java.util.concurrent.CompletableFuture.failedFuture(
                                new IllegalStateException("broker down"));
                    }
                },
                Duration.ofSeconds(1),
                clock);
        assertThatThrownBy(() -> failing.execute(WriteContext.of("s", AGENT, "r-1", null, null), create("x")))
                .isInstanceOfSatisfying(ApiException.class, e -> {
                    assertThat(e.code()).isEqualTo("UNAVAILABLE");
                    assertThat(e.getMessage()).contains("broker down", "r-1");
                });
    }

    @Test
    void aKeyReusedByAnotherOperationWhoseOutcomeCannotBeReadBackIsInvalidState() {
        WriteResult first = writes.execute(WriteContext.of("s", AGENT, "k-reused", null, null), create("first"));
        // the same key for a write that reads back something else: the sequencer answers the first outcome again
        assertThatThrownBy(() -> writes.submit(
                        WriteContext.of("s", AGENT, "k-reused", null, null),
                        create("second"),
                        (views, outcome) -> java.util.Optional.empty()))
                .isInstanceOfSatisfying(ApiException.class, e -> {
                    assertThat(e.code()).isEqualTo("INVALID_STATE");
                    assertThat(e.status().getCode()).isEqualTo(409);
                    assertThat(e.requestId()).isEqualTo("k-reused");
                    assertThat(e.getMessage()).contains("k-reused", "seq " + first.seq());
                });
    }

    @Test
    void aFreshWriteThatCannotBeReadBackIsStillInternal() {
        assertThatThrownBy(() -> writes.submit(
                        WriteContext.of("s", AGENT, "k-fresh", null, null),
                        create("x"),
                        (views, outcome) -> java.util.Optional.empty()))
                .isInstanceOfSatisfying(
                        ApiException.class, e -> assertThat(e.code()).isEqualTo("INTERNAL"));
    }
}
