package io.memorychain.api.changes;

import static org.assertj.core.api.Assertions.assertThat;

import io.memorychain.api.audit.AuditEntryJson;
import io.memorychain.api.error.ApiException;
import io.memorychain.api.error.ErrorCodes;
import io.memorychain.api.memories.ActorJson;
import io.micronaut.http.sse.Event;
import io.micronaut.json.JsonMapper;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;
import reactor.core.publisher.FluxSink;

/** The server-sent events a change stream becomes: fields of each event, keep-alives after silence, the error event. */
class SseChangeSinkTest {

    private final MutableClock clock = new MutableClock();
    private final SseChangeSink sink = new SseChangeSink(JsonMapper.createDefault(), Duration.ofSeconds(15), clock);
    private final List<Event<String>> received = new CopyOnWriteArrayList<>();
    private final AtomicBoolean completed = new AtomicBoolean();

    SseChangeSinkTest() {
        Flux.<Event<String>>create(out -> sink.attach(out), FluxSink.OverflowStrategy.BUFFER)
                .subscribe(received::add, e -> {}, () -> completed.set(true));
    }

    @Test
    void anEntryIsAnEventWithItsSeqAsIdItsTypeAsNameAndItsAuditJsonAsData() throws Exception {
        AuditEntryJson entry = new AuditEntryJson(
                7,
                "MemoryCreated",
                "r-1",
                new ActorJson("agent", "a"),
                "2026-01-01T00:00:00Z",
                List.of("m1"),
                "created m1",
                "ab12");
        assertThat(sink.ready()).isTrue();
        sink.send(entry);
        Event<String> event = received.get(0);
        assertThat(event.getId()).isEqualTo("7");
        assertThat(event.getName()).isEqualTo("MemoryCreated");
        assertThat(event.getData()).doesNotContain("\n");
        assertThat(JsonMapper.createDefault().readValue(event.getData(), AuditEntryJson.class))
                .isEqualTo(entry);
    }

    @Test
    void aKeepAliveCommentOnlyAfterTheHeartbeatOfSilence() {
        sink.idle();
        clock.advance(Duration.ofSeconds(14));
        sink.idle();
        assertThat(received).isEmpty();
        clock.advance(Duration.ofSeconds(1));
        sink.idle();
        assertThat(received).hasSize(1);
        assertThat(received.get(0).getComment()).isEqualTo("keep-alive");
        assertThat(received.get(0).getData()).isEmpty();
        clock.advance(Duration.ofSeconds(10));
        sink.idle();
        assertThat(received).as("the keep-alive restarted the silence").hasSize(1);
    }

    @Test
    void theServerEndsTheStreamWithAnErrorEventCarryingTheErrorBodyThenCompletes() {
        sink.end(new ChangeSink.Failed(new ApiException(ErrorCodes.UNAUTHENTICATED, "API key k1 was revoked")));
        assertThat(received).hasSize(1);
        assertThat(received.get(0).getName()).isEqualTo("error");
        assertThat(received.get(0).getId())
                .as("an error is no change: no id to resume after")
                .isNull();
        assertThat(received.get(0).getData())
                .contains("\"code\":\"UNAUTHENTICATED\"")
                .contains("revoked");
        assertThat(completed).isTrue();
    }

    @Test
    void aShutdownNamesTheLastEventIdToReconnectWith() {
        sink.end(new ChangeSink.ShuttingDown(41));
        assertThat(received.get(0).getData())
                .contains("\"code\":\"UNAVAILABLE\"")
                .contains("Last-Event-ID: 41");
        assertThat(completed).isTrue();
    }

    @Test
    void theOpeningFrameAnnouncesTheReconnectionDelay() {
        Event<String> opening = SseChangeSink.opening("s1", 3, Duration.ofSeconds(2));
        assertThat(opening.getRetry()).isEqualTo(Duration.ofSeconds(2));
        assertThat(opening.getId()).isNull();
        assertThat(opening.getComment()).contains("after seq 3");
    }

    private static final class MutableClock extends Clock {
        private Instant now = Instant.parse("2026-01-01T00:00:00Z");

        void advance(Duration d) {
            now = now.plus(d);
        }

        @Override
        public ZoneOffset getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(java.time.ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return now;
        }
    }
}
