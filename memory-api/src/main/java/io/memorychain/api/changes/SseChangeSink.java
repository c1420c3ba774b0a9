package io.memorychain.api.changes;

import io.memorychain.api.audit.AuditEntryJson;
import io.memorychain.api.auth.KeyStoreUnavailableException;
import io.memorychain.api.error.ApiException;
import io.memorychain.api.error.ErrorCodes;
import io.micronaut.http.sse.Event;
import io.micronaut.json.JsonMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.FluxSink;

/**
 * The server-sent events side of a change stream: each audit entry as an event ({@code id:} its seq, {@code event:} its
 * type, {@code data:} the audit entry's JSON), a {@code : keep-alive} comment after {@code heartbeat} of silence, and,
 * when the server ends the stream, one {@value #ERROR_EVENT} event whose data is the error body (UNAVAILABLE when the
 * server stops: reconnect; UNAUTHENTICATED or a 403 code: stop) before the response completes.
 */
final class SseChangeSink implements ChangeSink<AuditEntryJson> {

    /** The name of the last event of a stream the server ends; no change type is named so (they are CamelCase). */
    static final String ERROR_EVENT = "error";

    static final String KEEP_ALIVE = "keep-alive";
    private static final Logger log = LoggerFactory.getLogger(SseChangeSink.class);

    private volatile FluxSink<Event<String>> out;
    private final JsonMapper json;
    private final Duration heartbeat;
    private final Clock clock;
    private volatile Instant lastSent;

    SseChangeSink(JsonMapper json, Duration heartbeat, Clock clock) {
        this.json = json;
        this.heartbeat = heartbeat;
        this.clock = clock;
        this.lastSent = clock.instant();
    }

    /** The response's events, once it is subscribed (before the stream starts). */
    void attach(FluxSink<Event<String>> out) {
        this.out = out;
        this.lastSent = clock.instant();
    }

    /** The first frame, sent when the stream opens (so the client has the headers at once): the reconnection delay. */
    static Event<String> opening(String space, long after, Duration retry) {
        return Event.of("")
                .comment("changes of " + space + " after seq " + after)
                .retry(retry);
    }

    @Override
    public boolean ready() {
        return !out.isCancelled() && out.requestedFromDownstream() > 0;
    }

    @Override
    public void send(AuditEntryJson entry) {
        emit(Event.of(write(entry)).id(Long.toString(entry.seq())).name(entry.eventType()));
    }

    @Override
    public void idle() {
        if (!clock.instant().isBefore(lastSent.plus(heartbeat))) {
            emit(Event.of("").comment(KEEP_ALIVE));
        }
    }

    @Override
    public void end(End end) {
        ApiException error;
        if (end instanceof Failed failed && failed.failure() instanceof ApiException e) {
            error = e;
        } else if (end instanceof ShuttingDown down) {
            error = new ApiException(
                    ErrorCodes.UNAVAILABLE,
                    "the server is shutting down: reconnect with " + "Last-Event-ID: " + down.lastSeq()
                            + " (elsewhere, or once it is back)");
        } else if (end instanceof Failed failed && failed.failure() instanceof KeyStoreUnavailableException e) {
            error = new ApiException(ErrorCodes.UNAVAILABLE, "cannot check API keys now: " + e.getMessage());
        } else {
            log.error("The change stream failed: {}", end, end instanceof Failed f ? f.failure() : null);
            error = new ApiException(ErrorCodes.INTERNAL, "the change stream failed; see the server log");
        }
        emit(Event.of(write(error.toError())).name(ERROR_EVENT));
        out.complete();
    }

    private void emit(Event<String> event) {
        out.next(event);
        lastSent = clock.instant();
    }

    private String write(Object value) {
        try {
            return json.writeValueAsString(value);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
