package io.memorychain.api.grpc;

import static org.assertj.core.api.Assertions.assertThat;

import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.ServerCallStreamObserver;
import io.memorychain.api.audit.AuditEntryJson;
import io.memorychain.api.changes.ChangeStreams;
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

/** WatchChanges' side of a change stream, on the real topologies with a fake call in place of gRPC's. */
class GrpcChangeSinkTest {

    private static final ProtoJson PROTO = new ProtoJson(JsonMapper.createDefault());
    private final TopologyBackend backend = new TopologyBackend();
    private final ChangeStreams streams = new ChangeStreams(() -> backend, Duration.ofMillis(200));

    @AfterEach
    void close() {
        streams.close();
        backend.harness().close();
    }

    @Test
    void sendsWhileTheCallIsReadyAndEndsWithUnavailableNamingTheSinceRevToResumeWith() {
        write("g1", "one");
        FakeCall call = new FakeCall();
        call.ready = false;
        GrpcChangeSink.watch(streams, "g1", 0, watcher(() -> {}), call);
        await().during(Duration.ofMillis(300)).until(() -> call.sent.isEmpty());
        call.ready = true;
        call.onReady.get().run();
        await().until(() -> call.seqs().equals(List.of(1L)));
        streams.close();
        await().until(() -> call.ended.get() != null);
        Status status = ((StatusRuntimeException) call.ended.get()).getStatus();
        assertThat(status.getCode()).isEqualTo(Status.Code.UNAVAILABLE);
        assertThat(status.getDescription()).contains("since_rev=1");
    }

    @Test
    void aRevokedCallerEndsTheCallWithItsStatusAndACancelledCallIsNotAnswered() {
        write("g2", "one");
        AtomicBoolean revoked = new AtomicBoolean();
        FakeCall call = new FakeCall();
        GrpcChangeSink.watch(
                streams,
                "g2",
                0,
                watcher(() -> {
                    if (revoked.get()) {
                        throw new ApiException(ErrorCodes.UNAUTHENTICATED, "the API key was revoked");
                    }
                }),
                call);
        await().until(() -> call.seqs().equals(List.of(1L)));
        revoked.set(true);
        await().until(() -> call.ended.get() != null);
        Status status = ((StatusRuntimeException) call.ended.get()).getStatus();
        assertThat(status.getCode()).isEqualTo(Status.Code.UNAUTHENTICATED);
        assertThat(status.getDescription()).isEqualTo("UNAUTHENTICATED: the API key was revoked");

        FakeCall cancelled = new FakeCall();
        GrpcChangeSink.watch(streams, "g2", 0, watcher(() -> {}), cancelled);
        await().until(() -> cancelled.seqs().equals(List.of(1L)));
        cancelled.cancelled = true;
        cancelled.onCancel.get().run();
        await().until(() -> streams.openStreams() == 0);
        assertThat(cancelled.ended.get()).isNull();
    }

    private static ChangeStreams.Watcher<AuditEntry> watcher(Runnable stillAllowed) {
        return new ChangeStreams.Watcher<>(
                stillAllowed,
                e -> PROTO.fill(AuditEntryJson.of(e), AuditEntry.newBuilder()).build());
    }

    private void write(String space, String content) {
        assertThat(backend.publish(Requests.create(space, Requests.actor(ActorType.AGENT, "tester"), content)
                                .build())
                        .join()
                        .getAccepted())
                .isTrue();
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
        public void setCompression(String compression) {}

        @Override
        public boolean isReady() {
            return ready;
        }

        @Override
        public void setOnReadyHandler(Runnable handler) {
            onReady.set(handler);
        }

        @Override
        public void request(int count) {}

        @Override
        public void setMessageCompression(boolean enable) {}

        @Override
        public void disableAutoInboundFlowControl() {}

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
}
