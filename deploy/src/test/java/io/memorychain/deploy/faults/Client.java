package io.memorychain.deploy.faults;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One client of the load, on its own thread, with spaces of its own: creates memories (unique content, a unique
 * {@code Idempotency-Key}), updates them, and reads them back through either instance, recording every call in the
 * {@link History}. A write that gets no acknowledgement is retried with the same key on the other instance for a while
 * (as a client should: the key makes the retry safe), then given up. Reads send {@code X-Memory-Min-Seq} (the seq of
 * the client's last acknowledged write to the space: memory-api/README.md, "Several instances"), and an answer older
 * than what this client was already told (a 404 for an acknowledged memory, a lower version, another content at the
 * acknowledged version) is an anomaly.
 */
final class Client implements Runnable {

    private static final Logger LOG = LoggerFactory.getLogger(Client.class);
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration RETRY_FOR = Duration.ofSeconds(15);
    private static final long PACE_MILLIS = 150;
    private static final List<String> WORDS = List.of(
            "amber", "birch", "cobalt", "delta", "ember", "fjord", "garnet", "harbor", "indigo", "juniper", "kelp",
            "lantern", "meadow", "nickel", "orchid", "pebble", "quartz", "raven", "saffron", "tundra", "umber",
            "violet", "willow", "xenon", "yarrow", "zephyr");

    /** What this client was told about one of its memories: the last acknowledged version and content. */
    private record Known(String space, String id, int version, String content) {}

    private final int id;
    private final List<String> spaces;
    private final List<MemoryInstance> instances;
    private final String key;
    private final History history;
    private final AtomicBoolean running;
    private final HttpClient http;
    private final Random random;
    private final Map<String, Known> known = new HashMap<>();
    private final List<String> ids = new ArrayList<>();
    private final Map<String, Long> lastSeq = new HashMap<>();
    private int writes;

    Client(
            int id,
            List<String> spaces,
            List<MemoryInstance> instances,
            String key,
            History history,
            AtomicBoolean running) {
        this.id = id;
        this.spaces = List.copyOf(spaces);
        this.instances = List.copyOf(instances);
        this.key = key;
        this.history = history;
        this.running = running;
        this.http = HttpClient.newBuilder()
                .connectTimeout(Duration.ofSeconds(2))
                .version(HttpClient.Version.HTTP_1_1)
                .build();
        this.random = new Random(id);
    }

    @Override
    public void run() {
        while (running.get()) {
            double r = random.nextDouble();
            if (ids.isEmpty() || r < 0.4) {
                create();
            } else if (r < 0.55) {
                update();
            } else {
                read();
            }
            pace();
        }
    }

    /** After the faults: reads every memory this client was acknowledged once through each instance. */
    void readAll() {
        for (String memoryId : ids) {
            for (MemoryInstance instance : instances) {
                read(known.get(memoryId), instance);
            }
        }
    }

    int memories() {
        return ids.size();
    }

    private void create() {
        String space = spaces.get(random.nextInt(spaces.size()));
        String requestId = "fh-c" + id + "-w" + (++writes);
        String content = text(requestId);
        JsonNode answer = write(
                Operation.Kind.CREATE,
                space,
                null,
                requestId,
                "POST",
                "/memories",
                "{\"content\":\"" + content + "\"}");
        if (answer != null) {
            JsonNode memory = answer.path("memory");
            Known k = new Known(
                    space, memory.path("id").asText(), memory.path("version").asInt(), content);
            known.put(k.id(), k);
            ids.add(k.id());
            if (!content.equals(memory.path("content").asText())) {
                history.anomaly("client " + id + ": create " + requestId + " acknowledged with content '"
                        + memory.path("content").asText() + "', not what it wrote");
            }
        }
    }

    private void update() {
        Known before = known.get(ids.get(random.nextInt(ids.size())));
        String requestId = "fh-c" + id + "-w" + (++writes);
        String content = text(requestId);
        JsonNode answer = write(
                Operation.Kind.UPDATE,
                before.space(),
                before.id(),
                requestId,
                "PATCH",
                "/memories/" + before.id(),
                "{\"content\":\"" + content + "\"}");
        if (answer != null) {
            int version = answer.path("memory").path("version").asInt();
            Known now = known.get(before.id());
            if (version > now.version()) {
                known.put(before.id(), new Known(before.space(), before.id(), version, content));
            } else {
                history.anomaly("client " + id + ": update " + requestId + " of " + before.id()
                        + " acknowledged at version " + version + ", not above the acknowledged " + now.version());
            }
        }
    }

    private void read() {
        // the newest memory half of the time: the likeliest to be missing from a lagging copy
        String memoryId = random.nextBoolean() ? ids.get(ids.size() - 1) : ids.get(random.nextInt(ids.size()));
        read(known.get(memoryId), instances.get(random.nextInt(instances.size())));
    }

    private void read(Known expected, MemoryInstance instance) {
        long minSeq = lastSeq.getOrDefault(expected.space(), 0L);
        HttpRequest request = HttpRequest.newBuilder(URI.create(
                        instance.baseUrl() + "/v1/spaces/" + expected.space() + "/memories/" + expected.id()))
                .timeout(Duration.ofSeconds(20))
                .header("Authorization", "Bearer " + key)
                .header("X-Memory-Min-Seq", String.valueOf(minSeq))
                .GET()
                .build();
        long invoked = history.now();
        Answer answer = send(request);
        Operation.Outcome outcome = answer.outcome();
        String detail = answer.detail();
        if (answer.status() == 200) {
            JsonNode memory = answer.json();
            int version = memory.path("version").asInt();
            String content = memory.path("content").asText();
            String from = answer.servedFrom();
            if (version < expected.version()) {
                history.anomaly("client " + id + ": read of " + expected.id() + " on " + instance.name() + " (" + from
                        + ", min seq " + minSeq + ") returned version " + version + ", older than the acknowledged "
                        + expected.version());
            } else if (version == expected.version() && !content.equals(expected.content())) {
                history.anomaly("client " + id + ": read of " + expected.id() + " on " + instance.name() + " (" + from
                        + ") returned other content at the acknowledged version " + version);
            }
            detail = from;
        } else if (answer.status() == 404) {
            history.anomaly("client " + id + ": read of acknowledged " + expected.id() + " on " + instance.name()
                    + " (min seq " + minSeq + ") answered 404: " + answer.detail());
        }
        history.record(new Operation(
                id,
                Operation.Kind.READ,
                instance.name(),
                expected.space(),
                null,
                expected.id(),
                invoked,
                history.now(),
                outcome,
                answer.status(),
                detail));
    }

    /**
     * Sends the write until it is acknowledged, alternating instances, for up to {@link #RETRY_FOR} (and not after a
     * refusal: a 4xx other than 429); returns the acknowledged body, or null.
     */
    private JsonNode write(
            Operation.Kind kind,
            String space,
            String memoryId,
            String requestId,
            String method,
            String path,
            String body) {
        long deadline = System.nanoTime() + RETRY_FOR.toNanos();
        int next = random.nextInt(instances.size());
        while (true) {
            MemoryInstance instance = instances.get(next++ % instances.size());
            HttpRequest request = HttpRequest.newBuilder(URI.create(instance.baseUrl() + "/v1/spaces/" + space + path))
                    .timeout(Duration.ofSeconds(20))
                    .header("Authorization", "Bearer " + key)
                    .header("Content-Type", "application/json")
                    .header("Idempotency-Key", requestId)
                    .method(method, HttpRequest.BodyPublishers.ofString(body))
                    .build();
            long invoked = history.now();
            Answer answer = send(request);
            history.record(new Operation(
                    id,
                    kind,
                    instance.name(),
                    space,
                    requestId,
                    memoryId,
                    invoked,
                    history.now(),
                    answer.outcome(),
                    answer.status(),
                    answer.detail()));
            if (answer.outcome() == Operation.Outcome.OK) {
                JsonNode json = answer.json();
                long seq = json.path("seq").asLong();
                String written = json.path("memory").path("id").asText();
                lastSeq.merge(space, seq, Math::max);
                history.acknowledged(new History.Ack(
                        id,
                        kind,
                        space,
                        requestId,
                        written,
                        seq,
                        json.path("memory").path("version").asInt()));
                return json;
            }
            boolean refused = answer.status() >= 400 && answer.status() < 500 && answer.status() != 429;
            if (refused || System.nanoTime() > deadline || !running.get()) {
                history.unacknowledged(requestId);
                LOG.debug(
                        "client {}: {} {} not acknowledged: {} {}",
                        id,
                        kind,
                        requestId,
                        answer.status(),
                        answer.detail());
                return null;
            }
            pace();
        }
    }

    private record Answer(int status, String body, String servedFrom, Operation.Outcome outcome, String detail) {

        JsonNode json() {
            try {
                return JSON.readTree(body);
            } catch (IOException e) {
                return JSON.createObjectNode();
            }
        }
    }

    private Answer send(HttpRequest request) {
        try {
            HttpResponse<String> r = http.send(request, HttpResponse.BodyHandlers.ofString());
            String servedFrom = r.headers().firstValue("X-Memory-Served-From").orElse("owner")
                    + r.headers()
                            .firstValue("X-Memory-Served-By")
                            .map(s -> " " + s)
                            .orElse("");
            boolean ok = r.statusCode() / 100 == 2;
            String detail = ok ? "" : r.body().length() > 200 ? r.body().substring(0, 200) : r.body();
            return new Answer(
                    r.statusCode(), r.body(), servedFrom, ok ? Operation.Outcome.OK : Operation.Outcome.ERROR, detail);
        } catch (IOException e) {
            return new Answer(
                    0, "", "", Operation.Outcome.NO_ANSWER, e.getClass().getSimpleName());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Answer(0, "", "", Operation.Outcome.NO_ANSWER, "interrupted");
        }
    }

    private String text(String requestId) {
        StringBuilder s =
                new StringBuilder("Fault harness note ").append(requestId).append(':');
        for (int i = 0; i < 6; i++) {
            s.append(' ').append(WORDS.get(random.nextInt(WORDS.size())));
        }
        return s.toString();
    }

    /** The load's rate: a client waits this long between calls (a pace, not a wait for any condition). */
    private static void pace() {
        try {
            TimeUnit.MILLISECONDS.sleep(PACE_MILLIS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
