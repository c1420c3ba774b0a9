package io.memorychain.api.changes;

import io.memorychain.api.audit.AuditEntryJson;
import io.memorychain.api.audit.AuditLog;
import io.memorychain.api.auth.ApiKeys;
import io.memorychain.api.auth.Principal;
import io.memorychain.api.error.ApiError;
import io.memorychain.api.error.ApiException;
import io.memorychain.api.error.ErrorAnswers;
import io.memorychain.api.request.Texts;
import io.memorychain.avro.Actor;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.http.HttpHeaders;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.MediaType;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Get;
import io.micronaut.http.annotation.Header;
import io.micronaut.http.annotation.PathVariable;
import io.micronaut.http.annotation.QueryValue;
import io.micronaut.http.annotation.RequestAttribute;
import io.micronaut.http.sse.Event;
import io.micronaut.json.JsonMapper;
import io.micronaut.scheduling.TaskExecutors;
import io.micronaut.scheduling.annotation.ExecuteOn;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;
import java.time.Clock;
import org.reactivestreams.Publisher;
import reactor.core.publisher.Flux;
import reactor.core.publisher.FluxSink;

/**
 * A space's changes as server-sent events: the audit entries after a seq, then each new one as the chain applies it
 * (the REST side of gRPC {@code WatchChanges}; both run on {@link ChangeStreams}).
 */
@Controller("/v1/spaces/{space}/changes")
@ExecuteOn(TaskExecutors.BLOCKING)
@Tag(name = "chain")
class ChangeEventsController {

    static final String LAST_EVENT_ID = "Last-Event-ID";

    private final ChangeStreams streams;
    private final AuditLog audit;
    private final ApiKeys keys;
    private final JsonMapper json;
    private final ChangesConfig config;

    public ChangeEventsController(
            ChangeStreams streams, AuditLog audit, ApiKeys keys, JsonMapper json, ChangesConfig config) {
        this.streams = streams;
        this.audit = audit;
        this.keys = keys;
        this.json = json;
        this.config = config;
    }

    @Get(produces = MediaType.TEXT_EVENT_STREAM)
    @Operation(
            operationId = "watchChanges",
            summary = "The space's changes as server-sent events: the audit entries "
                    + "after a seq, then each new one as it reaches the chain, until the client disconnects",
            description = "Each change is one event: `id:` its seq, `event:` its type (MemoryCreated, ...), `data:` "
                    + "the audit entry's JSON (as GET /audit answers it). Resume after a dropped connection with the "
                    + "standard `Last-Event-ID` header (the last id received; it wins over after_seq): no change is "
                    + "skipped or sent twice. The stream opens with `retry:` (the reconnection delay) and sends a "
                    + "`: keep-alive` comment after some silence (memory.changes.heartbeat, 15 s). When the server "
                    + "ends it, the last event is `event: error` with the Error body as data: UNAVAILABLE (the server "
                    + "stops: reconnect with Last-Event-ID), UNAUTHENTICATED (the key was revoked: within about 2 s) "
                    + "or another code (do not reconnect). Counts as one request against the key's quota when it "
                    + "opens. Served by the instance that projects the space: another instance answers 421 NOT_OWNER "
                    + "naming it (a stream is not forwarded), or 503 REBALANCING while the space moves.")
    @ApiResponse(
            responseCode = "200",
            description = "text/event-stream of the space's changes",
            content = @Content(mediaType = MediaType.TEXT_EVENT_STREAM, schema = @Schema(type = "string")))
    @ApiResponse(
            responseCode = "400",
            description = "INVALID_ARGUMENT: a bad space, after_seq or Last-Event-ID",
            content =
                    @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = ApiError.class)))
    @ApiResponse(
            responseCode = "401",
            description = ErrorAnswers.UNAUTHORIZED,
            content =
                    @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = ApiError.class)))
    @ApiResponse(
            responseCode = "403",
            description = ErrorAnswers.FORBIDDEN,
            content =
                    @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = ApiError.class)))
    @ApiResponse(
            responseCode = "421",
            description =
                    "NOT_OWNER: another instance serves the space; open the " + "stream there (the message names it)",
            content =
                    @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = ApiError.class)))
    @ApiResponse(
            responseCode = "429",
            description = ErrorAnswers.TOO_MANY,
            content =
                    @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = ApiError.class)))
    @ApiResponse(
            responseCode = "503",
            description = ErrorAnswers.UNAVAILABLE,
            content =
                    @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = ApiError.class)))
    public Publisher<Event<String>> watchChanges(
            @PathVariable String space,
            @Parameter(hidden = true) @RequestAttribute(Principal.ACTOR) Actor actor,
            @Nullable
                    @QueryValue("after_seq")
                    @Parameter(
                            description = "the seq to start after (default 0: from the " + "start of the chain)",
                            schema = @Schema(type = "integer", format = "int64"))
                    String afterSeq,
            @Nullable
                    @Header(LAST_EVENT_ID)
                    @Parameter(description = "the id (seq) of the last event received: " + "resume after it")
                    String lastEventId,
            HttpRequest<?> request) {
        long after = after(lastEventId, afterSeq);
        String authorization = request.getHeaders().get(HttpHeaders.AUTHORIZATION);
        ChangeStreams.Watcher<AuditEntryJson> watcher = new ChangeStreams.Watcher<>(
                () -> keys.authenticate(authorization), entry -> audit.entry(space, actor, entry));
        SseChangeSink sink = new SseChangeSink(json, config.getHeartbeat(), Clock.systemUTC());
        // checked now (a bad space is a 400), started once the response is subscribed
        ChangeStreams.Stream<AuditEntryJson> stream = streams.open(space, after, "after_seq", watcher, sink);
        return Flux.create(
                out -> {
                    sink.attach(out);
                    out.onRequest(n -> stream.wake());
                    out.onDispose(stream::cancel);
                    out.next(SseChangeSink.opening(space, after, config.getRetry()));
                    try {
                        stream.start();
                    } catch (ApiException e) {
                        sink.end(new ChangeSink.Failed(e));
                    }
                },
                FluxSink.OverflowStrategy.BUFFER);
    }

    /** Where to start: after the Last-Event-ID (a reconnection), else after after_seq, else from the start. */
    static long after(@Nullable String lastEventId, @Nullable String afterSeq) {
        if (lastEventId != null && !lastEventId.isBlank()) {
            return seq(LAST_EVENT_ID, lastEventId);
        }
        return afterSeq == null || afterSeq.isBlank() ? 0 : seq("after_seq", afterSeq);
    }

    private static long seq(String name, String value) {
        try {
            long seq = Long.parseLong(value.trim());
            if (seq >= 0) {
                return seq;
            }
        } catch (NumberFormatException e) {
            // answered below
        }
        throw ApiException.invalid(
                name + " must be a seq (a whole number >= 0), not '" + Texts.abbreviate(value) + "'");
    }
}
