package io.memorychain.api.changes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.memorychain.api.audit.AuditEntryJson;
import io.memorychain.api.error.ApiException;
import io.memorychain.api.error.ErrorCodes;
import io.memorychain.api.topology.TopologyBackend;
import io.memorychain.avro.ActorType;
import io.memorychain.events.Requests;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The change streams' engine on the real topologies (TopologyTestDriver), with a fake sink in place of a transport. */
class ChangeStreamsTest {

    private final TopologyBackend backend = new TopologyBackend();
    private final ChangeStreams streams = new ChangeStreams(() -> backend, Duration.ofMillis(200));
    private static final ChangeStreams.Watcher<AuditEntryJson> ANYONE =
            new ChangeStreams.Watcher<>(() -> {}, AuditEntryJson::of);

    @AfterEach
    void close() {
        streams.close();
        backend.harness().close();
    }

    @Test
    void sendsTheEntriesAfterTheStartSeqThenEachNewOneInOrder() {
        write("s1", "one");
        write("s1", "two");
        FakeSink sink = new FakeSink();
        streams.open("s1", 1, "since_rev", ANYONE, sink).start();
        await().until(() -> sink.seqs().equals(List.of(2L)));
        write("s1", "three");
        write("other-space", "not for this stream");
        write("s1", "four");
        await().until(() -> sink.seqs().equals(List.of(2L, 3L, 4L)));
        assertThat(sink.sent.get(1).eventType()).isEqualTo("MemoryCreated");
        assertThat(sink.sent.get(1).actor().id()).isEqualTo("tester");
        assertThat(sink.ended.get()).isNull();
    }

    @Test
    void aSlowClientHoldsBackItsOwnStreamUntilItIsReady() {
        FakeSink sink = new FakeSink();
        sink.ready = false;
        ChangeStreams.Stream<AuditEntryJson> stream = streams.open("s2", 0, "since_rev", ANYONE, sink);
        stream.start();
        write("s2", "one");
        write("s2", "two");
        await().during(Duration.ofMillis(300)).until(() -> sink.sent.isEmpty());
        sink.ready = true;
        stream.wake();
        await().until(() -> sink.seqs().equals(List.of(1L, 2L)));
    }

    @Test
    void anIdleStreamLetsItsSinkSendKeepAlivesAndAnIdleOneOnlyWhileReady() {
        FakeSink sink = new FakeSink();
        streams.open("s7", 0, "after_seq", ANYONE, sink).start();
        await().until(() -> sink.idles.get() >= 2);
        assertThat(sink.sent).isEmpty();
        sink.ready = false;
        int idles = sink.idles.get();
        await().during(Duration.ofMillis(500)).until(() -> sink.idles.get() <= idles + 1);
    }

    @Test
    void aCancelledStreamSendsNothingMoreAndFreesItsThread() {
        FakeSink sink = new FakeSink();
        ChangeStreams.Stream<AuditEntryJson> stream = streams.open("s3", 0, "since_rev", ANYONE, sink);
        stream.start();
        await().until(() -> streams.openStreams() == 1);
        stream.cancel();
        await().until(() -> streams.openStreams() == 0);
        write("s3", "after the cancel");
        assertThat(sink.sent).isEmpty();
        assertThat(sink.ended.get()).as("a cancelled stream is not answered").isNull();
    }

    @Test
    void shutdownEndsEveryOpenStreamNamingTheLastSeqSent() {
        write("s4", "one");
        FakeSink sink = new FakeSink();
        streams.open("s4", 0, "since_rev", ANYONE, sink).start();
        await().until(() -> sink.seqs().equals(List.of(1L)));
        streams.close();
        await().until(() -> sink.ended.get() != null);
        assertThat(sink.ended.get()).isEqualTo(new ChangeSink.ShuttingDown(1));
        assertThat(streams.openStreams()).isZero();
        ChangeStreams.Stream<AuditEntryJson> late = streams.open("s4", 1, "since_rev", ANYONE, new FakeSink());
        assertThatThrownBy(late::start).isInstanceOf(ApiException.class).hasMessageContaining("shutting down");
    }

    @Test
    void aStreamEndsWithTheCallersErrorOnceItMayNoLongerWatch() {
        write("s6", "one");
        AtomicBoolean revoked = new AtomicBoolean();
        FakeSink sink = new FakeSink();
        streams.open(
                        "s6",
                        0,
                        "since_rev",
                        new ChangeStreams.Watcher<>(
                                () -> {
                                    if (revoked.get()) {
                                        throw new ApiException(ErrorCodes.UNAUTHENTICATED, "the API key was revoked");
                                    }
                                },
                                AuditEntryJson::of),
                        sink)
                .start();
        await().until(() -> sink.seqs().equals(List.of(1L)));
        revoked.set(true);
        await().until(() -> sink.ended.get() != null);
        ApiException e = (ApiException) ((ChangeSink.Failed) sink.ended.get()).failure();
        assertThat(e.code()).isEqualTo(ErrorCodes.UNAUTHENTICATED);
        assertThat(streams.openStreams()).isZero();
        write("s6", "after the revocation");
        assertThat(sink.seqs()).containsExactly(1L);
    }

    @Test
    void refusesABadSpaceOrANegativeSeqBeforeStartingNamingTheTransportsParameter() {
        assertThatThrownBy(() -> streams.open("no/slashes", 0, "since_rev", ANYONE, new FakeSink()))
                .isInstanceOf(ApiException.class)
                .extracting(e -> ((ApiException) e).code())
                .isEqualTo("INVALID_ARGUMENT");
        assertThatThrownBy(() -> streams.open("s5", -1, "since_rev", ANYONE, new FakeSink()))
                .isInstanceOf(ApiException.class)
                .hasMessageContaining("since_rev");
        assertThatThrownBy(() -> streams.open("s5", -1, "after_seq", ANYONE, new FakeSink()))
                .isInstanceOf(ApiException.class)
                .hasMessageContaining("after_seq");
        assertThat(streams.openStreams()).isZero();
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

    /** A transport's side of one stream, recording what it was given. */
    private static final class FakeSink implements ChangeSink<AuditEntryJson> {
        final List<AuditEntryJson> sent = new CopyOnWriteArrayList<>();
        final AtomicReference<End> ended = new AtomicReference<>();
        final AtomicInteger idles = new AtomicInteger();
        volatile boolean ready = true;

        List<Long> seqs() {
            return sent.stream().map(AuditEntryJson::seq).toList();
        }

        @Override
        public boolean ready() {
            return ready;
        }

        @Override
        public void send(AuditEntryJson entry) {
            sent.add(entry);
        }

        @Override
        public void idle() {
            idles.incrementAndGet();
        }

        @Override
        public void end(End end) {
            ended.set(end);
        }
    }
}
