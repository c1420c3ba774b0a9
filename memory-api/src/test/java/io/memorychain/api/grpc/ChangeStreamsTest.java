package io.memorychain.api.grpc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.ServerCallStreamObserver;
import io.memorychain.api.audit.AuditEntryJson;
import io.memorychain.api.error.ApiException;
import io.memorychain.api.error.ErrorCodes;
import io.memorychain.api.grpc.v1.AuditEntry;
import io.memorychain.api.topology.TopologyBackend;
import io.memorychain.avro.ActorType;
import io.memorychain.events.Requests;
import io.micronaut.json.JsonMapper;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** WatchChanges' engine on the real topologies (TopologyTestDriver), with a fake call in place of gRPC's. */
class ChangeStreamsTest {

    private final TopologyBackend backend = new TopologyBackend();
    private final ChangeStreams streams = new ChangeStreams(() -> backend, Duration.ofMillis(200));
    private static final ProtoJson PROTO = new ProtoJson(JsonMapper.createDefault());
    private static final ChangeStreams.Watcher ANYONE = new ChangeStreams.Watcher(() -> { }, ChangeStreamsTest::shown);

    @AfterEach
    void close() {
        streams.close();
        backend.harness().close();
    }

    @Test
    void sendsTheEntriesAfterSinceRevThenEachNewOneInOrder() {
        write("s1", "one");
        write("s1", "two");
        FakeCall call = new FakeCall();
        streams.watch("s1", 1, ANYONE, call);
        await().until(() -> call.seqs().equals(List.of(2L)));
        write("s1", "three");
        write("other-space", "not for this stream");
        write("s1", "four");
        await().until(() -> call.seqs().equals(List.of(2L, 3L, 4L)));
        assertThat(call.sent.get(1).getEventType()).isEqualTo("MemoryCreated");
        assertThat(call.sent.get(1).getActor().getId()).isEqualTo("tester");
        assertThat(call.ended.get()).isNull();
    }

    @Test
    void aSlowClientHoldsBackItsOwnStreamUntilItIsReady() {
        FakeCall call = new FakeCall();
        call.ready = false;
        streams.watch("s2", 0, ANYONE, call);
        write("s2", "one");
        write("s2", "two");
        await().during(Duration.ofMillis(300)).until(() -> call.sent.isEmpty());
        call.ready = true;
        call.onReady.get().run();
        await().until(() -> call.seqs().equals(List.of(1L, 2L)));
    }

    @Test
    void aCancelledStreamSendsNothingMoreAndFreesItsThread() {
        FakeCall call = new FakeCall();
        streams.watch("s3", 0, ANYONE, call);
        await().until(() -> streams.openStreams() == 1);
        call.cancelled = true;
        call.onCancel.get().run();
        await().until(() -> streams.openStreams() == 0);
        write("s3", "after the cancel");
        assertThat(call.sent).isEmpty();
        assertThat(call.ended.get()).as("a cancelled call is not answered").isNull();
    }

    @Test
    void shutdownEndsEveryOpenStreamWithUnavailableNamingWhereToResume() {
        write("s4", "one");
        FakeCall call = new FakeCall();
        streams.watch("s4", 0, ANYONE, call);
        await().until(() -> call.seqs().equals(List.of(1L)));
        streams.close();
        await().until(() -> call.ended.get() != null);
        StatusRuntimeException e = (StatusRuntimeException) call.ended.get();
        assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.UNAVAILABLE);
        assertThat(e.getStatus().getDescription()).contains("since_rev=1");
        assertThat(streams.openStreams()).isZero();
        assertThatThrownBy(() -> streams.watch("s4", 1, ANYONE, new FakeCall())).isInstanceOf(ApiException.class)
                .hasMessageContaining("shutting down");
    }

    @Test
    void aStreamEndsWithTheCallersErrorOnceItMayNoLongerWatch() {
        write("s6", "one");
        AtomicBoolean revoked = new AtomicBoolean();
        FakeCall call = new FakeCall();
        streams.watch("s6", 0, new ChangeStreams.Watcher(() -> {
            if (revoked.get()) {
                throw new ApiException(ErrorCodes.UNAUTHENTICATED, "the API key was revoked");
            }
        }, ChangeStreamsTest::shown), call);
        await().until(() -> call.seqs().equals(List.of(1L)));
        revoked.set(true);
        await().until(() -> call.ended.get() != null);
        StatusRuntimeException e = (StatusRuntimeException) call.ended.get();
        assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.UNAUTHENTICATED);
        assertThat(e.getStatus().getDescription()).isEqualTo("UNAUTHENTICATED: the API key was revoked");
        assertThat(streams.openStreams()).isZero();
        write("s6", "after the revocation");
        assertThat(call.seqs()).containsExactly(1L);
    }

    @Test
    void refusesABadSpaceOrANegativeRevisionBeforeStarting() {
        assertThatThrownBy(() -> streams.watch("no/slashes", 0, ANYONE, new FakeCall())).isInstanceOf(ApiException.class)
                .extracting(e -> ((ApiException) e).code()).isEqualTo("INVALID_ARGUMENT");
        assertThatThrownBy(() -> streams.watch("s5", -1, ANYONE, new FakeCall())).isInstanceOf(ApiException.class)
                .hasMessageContaining("since_rev");
        assertThat(streams.openStreams()).isZero();
    }

    private void write(String space, String content) {
        assertThat(backend.publish(Requests.create(space, Requests.actor(ActorType.AGENT, "tester"), content).build()).join()
                .getAccepted()).isTrue();
    }

    private static org.awaitility.core.ConditionFactory await() {
        return Awaitility.await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(10));
    }

    /** The server side of one call, as gRPC would hand it to the service. */
    private static final class FakeCall extends ServerCallStreamObserver<AuditEntry> {
        final List<AuditEntry> sent = new CopyOnWriteArrayList<>();
        final AtomicReference<Throwable> ended = new AtomicReference<>();
        final AtomicReference<Runnable> onCancel = new AtomicReference<>();
        final AtomicReference<Runnable> onReady = new AtomicReference<>();
        volatile boolean ready = true;
        volatile boolean cancelled;

        List<Long> seqs() {
            return sent.stream().map(AuditEntry::getSeq).toList();
        }

        @Override
        public boolean isCancelled() {
            return cancelled;
        }

        @Override
        public void setOnCancelHandler(Runnable handler) {
            onCancel.set(handler);
        }

        @Override
        public void setCompression(String compression) {
        }

        @Override
        public boolean isReady() {
            return ready;
        }

        @Override
        public void setOnReadyHandler(Runnable handler) {
            onReady.set(handler);
        }

        @Override
        public void request(int count) {
        }

        @Override
        public void setMessageCompression(boolean enable) {
        }

        @Override
        public void disableAutoInboundFlowControl() {
        }

        @Override
        public void onNext(AuditEntry value) {
            sent.add(value);
        }

        @Override
        public void onError(Throwable t) {
            ended.set(t);
        }

        @Override
        public void onCompleted() {
            ended.set(new IllegalStateException("completed"));
        }
    }

    private static AuditEntry shown(io.memorychain.avro.view.AuditEntry entry) {
        return PROTO.fill(AuditEntryJson.of(entry), AuditEntry.newBuilder()).build();
    }
}
