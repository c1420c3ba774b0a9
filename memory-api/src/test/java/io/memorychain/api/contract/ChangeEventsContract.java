package io.memorychain.api.contract;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.memorychain.api.auth.ApiKeys;
import io.memorychain.api.auth.Principal;
import io.memorychain.api.auth.Role;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Stream;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@code GET /v1/spaces/{space}/changes}, the space's changes as server-sent events, read off the wire with the JDK's
 * HttpClient as any SSE client would: the backlog then live changes in seq order (id, event and data as the audit log
 * has them), resumption with Last-Event-ID, keep-alive comments, coded refusals, and the end of a revoked key's stream.
 * Run by the applications that carry the gRPC contract (the unit one on TopologyTestDriver and the IT on the shared
 * broker), as a nested class sharing their running service; they configure a heartbeat of 1 s.
 */
public abstract class ChangeEventsContract {

    private static final ObjectMapper JSON = new ObjectMapper();
    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
    private final List<Stream<String>> opened = new CopyOnWriteArrayList<>();

    /** The application's REST base URL. */
    protected abstract String restUrl();

    protected abstract ApiKeys keys();

    /** Change streams of a space open on the server (any transport). */
    protected abstract int openChangeStreams(String space);

    @AfterEach
    void closeStreams() {
        opened.forEach(Stream::close);
    }

    @Test
    void sendsTheBacklogThenEachChangeWrittenAfterItOpenedInSeqOrderAsTheAuditLogHasThem() throws Exception {
        String space = space();
        String key = key(space);
        String first = create(space, key, "before the stream: seq 1");
        create(space, key, "before the stream: seq 2");

        Events events = open(space, key, "?after_seq=1", null);
        assertThat(events.status()).isEqualTo(200);
        assertThat(events.contentType()).startsWith("text/event-stream");
        Frame opening = events.next();
        assertThat(opening.retry()).as("the reconnection delay comes first").isNotNull();
        assertThat(opening.data()).isNull();
        Frame backlog = events.nextEvent();
        assertThat(backlog.id()).isEqualTo("2");

        post(space, key, "/memories/" + first + ":pin", Map.of());
        create(space, key, "after the stream: seq 4");
        List<Frame> live = List.of(events.nextEvent(), events.nextEvent());
        assertThat(live).extracting(Frame::id).containsExactly("3", "4");

        JsonNode audit = get(space, key, "/audit?after_seq=1").path("items");
        List<Frame> all = List.of(backlog, live.get(0), live.get(1));
        for (int i = 0; i < all.size(); i++) {
            assertThat(all.get(i).event())
                    .isEqualTo(audit.get(i).path("event_type").asText());
            assertThat(JSON.readTree(all.get(i).data())).isEqualTo(audit.get(i));
        }
        assertThat(all.get(1).event()).isEqualTo("MemoryPinned");
    }

    @Test
    void lastEventIdResumesAfterTheGivenSeqAndWinsOverAfterSeq() {
        String space = space();
        String key = key(space);
        for (int i = 1; i <= 4; i++) {
            create(space, key, "change " + i);
        }
        Events resumed = open(space, key, "?after_seq=1", "3");
        assertThat(resumed.nextEvent().id()).isEqualTo("4");
        create(space, key, "change 5");
        assertThat(resumed.nextEvent().id()).isEqualTo("5");
    }

    @Test
    void anIdleStreamSendsKeepAliveComments() {
        String space = space();
        Events events = open(space, key(space), "", null);
        events.next(); // the opening retry
        Frame idle = events.next();
        assertThat(idle.comments()).contains("keep-alive");
        assertThat(idle.id()).isNull();
        assertThat(idle.data()).isNull();
    }

    @Test
    void refusesABadSeqAKeylessCallAndAnotherSpaceWithTheirCodedJsonErrors() {
        String space = space();
        String key = key(space);
        assertError(open(space, key, "?after_seq=-1", null), 400, "INVALID_ARGUMENT");
        assertError(open(space, key, "?after_seq=abc", null), 400, "INVALID_ARGUMENT");
        assertError(open(space, key, "", "not-a-seq"), 400, "INVALID_ARGUMENT");
        assertError(open(space, null, "", null), 401, "UNAUTHENTICATED");
        assertError(open(space(), key, "", null), 403, "SPACE_NOT_ALLOWED");
        assertError(open("bad space!", key(null), "", null), 400, "INVALID_ARGUMENT");
    }

    @Test
    void revokingTheKeyEndsTheStreamWithAnUnauthenticatedErrorEventWithinSeconds() {
        String space = space();
        ApiKeys.Issued issued = keys().issue(
                        new Principal(
                                "sse-" + UUID.randomUUID().toString().substring(0, 8),
                                Role.AGENT,
                                "watcher",
                                List.of(space)),
                        "test");
        String key = issued.key().toString();
        create(space, key, "seq 1");
        Events events = open(space, key, "", null);
        assertThat(events.nextEvent().id()).isEqualTo("1");
        assertThat(openChangeStreams(space)).isEqualTo(1);

        long revokedAt = System.nanoTime();
        keys().revoke(issued.record().keyId());
        Frame end = events.nextEvent();
        assertThat(Duration.ofNanos(System.nanoTime() - revokedAt)).isLessThan(Duration.ofSeconds(5));
        assertThat(end.event()).isEqualTo("error");
        assertThat(end.json().path("code").asText()).isEqualTo("UNAUTHENTICATED");
        assertThat(end.json().path("message").asText()).contains("revoked");
        assertThat(events.ended()).as("the response ends after the error event").isTrue();
        assertThat(openChangeStreams(space))
                .as("freed before its error event was sent")
                .isZero();
    }

    @Test
    void aClientThatDisconnectsFreesItsStream() {
        String space = space();
        Events events = open(space, key(space), "", null);
        events.next();
        await().until(() -> openChangeStreams(space) == 1);
        events.lines().close();
        await().until(() -> openChangeStreams(space) == 0);
    }

    // ---------------------------------------------------------------- an SSE reader, as a client has it

    /** One dispatched block of an event stream: its fields (null when absent) and comments. */
    protected record Frame(String id, String event, String data, String retry, List<String> comments) {
        JsonNode json() {
            try {
                return JSON.readTree(data);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    /** A response: its status, content type, and its body as lines (an error's JSON for a refusal). */
    protected record Events(int status, String contentType, Stream<String> lines, Iterator<String> it) {

        /** The next block up to a blank line (blank lines between blocks skipped). */
        Frame next() {
            String id = null;
            String event = null;
            StringBuilder data = null;
            String retry = null;
            List<String> comments = new ArrayList<>();
            boolean any = false;
            while (it.hasNext()) {
                String line = it.next();
                if (line.isEmpty()) {
                    if (any) {
                        break;
                    }
                    continue;
                }
                any = true;
                if (line.startsWith(":")) {
                    comments.add(line.substring(1).trim());
                    continue;
                }
                int colon = line.indexOf(':');
                String field = colon < 0 ? line : line.substring(0, colon);
                String value = colon < 0 ? "" : line.substring(colon + 1).replaceFirst("^ ", "");
                switch (field) {
                    case "id" -> id = value;
                    case "event" -> event = value;
                    case "retry" -> retry = value;
                    case "data" ->
                        data = data == null
                                ? new StringBuilder(value)
                                : data.append('\n').append(value);
                    default -> {}
                }
            }
            assertThat(any).as("another block before the stream ended").isTrue();
            return new Frame(id, event, data == null ? null : data.toString(), retry, comments);
        }

        /** The next block with data (an event), skipping keep-alives and the opening retry. */
        Frame nextEvent() {
            Frame f = next();
            while (f.data() == null) {
                f = next();
            }
            return f;
        }

        boolean ended() {
            return !it.hasNext();
        }

        String body() {
            return String.join("\n", (Iterable<String>) () -> it);
        }
    }

    protected Events open(String space, String key, String query, String lastEventId) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(
                        restUrl() + "/v1/spaces/" + space.replace(" ", "%20").replace("!", "%21") + "/changes" + query))
                .header("Accept", "text/event-stream")
                .GET();
        if (key != null) {
            request.header("Authorization", "Bearer " + key);
        }
        if (lastEventId != null) {
            request.header("Last-Event-ID", lastEventId);
        }
        try {
            HttpResponse<Stream<String>> response = http.send(request.build(), HttpResponse.BodyHandlers.ofLines());
            opened.add(response.body());
            return new Events(
                    response.statusCode(),
                    response.headers().firstValue("Content-Type").orElse(""),
                    response.body(),
                    response.body().iterator());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static void assertError(Events answer, int status, String code) {
        assertThat(answer.status()).isEqualTo(status);
        assertThat(answer.contentType()).startsWith("application/json");
        try {
            JsonNode error = JSON.readTree(answer.body());
            assertThat(error.path("code").asText()).isEqualTo(code);
            assertThat(error.path("message").asText()).isNotBlank();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private String key(String space) {
        return keys().issue(
                        new Principal(
                                "sse-" + UUID.randomUUID().toString().substring(0, 8),
                                Role.AGENT,
                                "sse",
                                space == null ? List.of("*") : List.of(space)),
                        "test")
                .key()
                .toString();
    }

    private String create(String space, String key, String content) {
        return post(space, key, "/memories", Map.of("content", content))
                .path("memory")
                .path("id")
                .asText();
    }

    private JsonNode post(String space, String key, String path, Map<String, ?> body) {
        return call(HttpRequest.newBuilder(URI.create(restUrl() + "/v1/spaces/" + space + path))
                .header("Authorization", "Bearer " + key)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(write(body))));
    }

    private JsonNode get(String space, String key, String path) {
        return call(HttpRequest.newBuilder(URI.create(restUrl() + "/v1/spaces/" + space + path))
                .header("Authorization", "Bearer " + key)
                .GET());
    }

    private JsonNode call(HttpRequest.Builder request) {
        try {
            HttpResponse<String> response =
                    http.send(request.timeout(Duration.ofSeconds(60)).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(response.statusCode()).as(response.body()).isBetween(200, 299);
            return JSON.readTree(response.body());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static String write(Object body) {
        try {
            return JSON.writeValueAsString(body);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String space() {
        return "sse-" + UUID.randomUUID().toString().substring(0, 12);
    }

    private static org.awaitility.core.ConditionFactory await() {
        return Awaitility.await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(20));
    }
}
