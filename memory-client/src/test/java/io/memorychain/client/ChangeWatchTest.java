package io.memorychain.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The watch against a scripted event stream: resumption, duplicates, retries and the errors that end it. */
class ChangeWatchTest {

    private final ExecutorService handlers = Executors.newCachedThreadPool();
    private final CountDownLatch release = new CountDownLatch(1);
    private final List<String> lastEventIds = new CopyOnWriteArrayList<>();
    private final List<JsonNode> seen = new CopyOnWriteArrayList<>();
    private HttpServer server;
    private ChangeWatch watch;

    /** One scripted answer per connection, in order; the last one repeats. */
    @FunctionalInterface
    interface Script {
        void answer(HttpExchange exchange) throws IOException, InterruptedException;
    }

    private MemoryChainClient serve(Script... connections) throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.setExecutor(handlers);
        server.createContext("/v1/spaces/s1/changes", exchange -> {
            lastEventIds.add(String.valueOf(exchange.getRequestHeaders().getFirst("Last-Event-ID")));
            try {
                connections[Math.min(lastEventIds.size(), connections.length) - 1].answer(exchange);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } finally {
                exchange.close();
            }
        });
        server.start();
        return MemoryChainClient.builder(
                        "http://127.0.0.1:" + server.getAddress().getPort(), "k")
                .build();
    }

    @AfterEach
    void stop() {
        if (watch != null) {
            watch.close();
        }
        release.countDown();
        server.stop(0);
        handlers.shutdownNow();
    }

    @Test
    void aConnectionCutMidEventIsResumedAfterTheLastSeqDeliveredWithoutAGapOrADuplicate() throws IOException {
        MemoryChainClient client = serve(
                stream("retry: 20\n\n" + event(1) + event(2) + "id: 3\nevent: MemoryCreated\n", false),
                stream(": resumed\n\n" + event(2) + event(3) + event(4), true));
        watch = client.watchChanges("s1", 0, seen::add);
        await().atMost(Duration.ofSeconds(10)).until(() -> seen.size() == 4);
        assertThat(seen).extracting(e -> e.path("seq").asLong()).containsExactly(1L, 2L, 3L, 4L);
        assertThat(lastEventIds).containsExactly("0", "2");
        assertThat(watch.connections()).isEqualTo(2);
        assertThat(watch.lastSeq()).isEqualTo(4);
        assertThat(watch.isRunning()).isTrue();
    }

    @Test
    void aConnectionSilentForLongerThanTheIdleTimeoutIsDroppedAndResumed() throws IOException {
        serve(stream("retry: 20\n\n" + event(1), true), stream(event(2), true));
        Transport transport = new Transport(
                java.net.http.HttpClient.newHttpClient(),
                java.net.URI.create("http://127.0.0.1:" + server.getAddress().getPort()),
                "k",
                RetryPolicy.none(),
                Duration.ofSeconds(10));
        watch = ChangeWatch.start(transport, "s1", 0, Duration.ofMillis(400), seen::add);
        await().atMost(Duration.ofSeconds(30)).until(() -> seen.size() == 2);
        assertThat(seen).extracting(e -> e.path("seq").asLong()).containsExactly(1L, 2L);
        assertThat(lastEventIds).startsWith("0", "1");
    }

    @Test
    void a503IsRetriedAfterItsRetryAfterAndARevokedKeysErrorEventEndsTheWatch() throws Exception {
        MemoryChainClient client = serve(
                answer(503, "{\"code\":\"REBALANCING\",\"message\":\"moving\"}", "0"),
                stream(
                        "retry: 20\n\n" + event(5) + "event: error\ndata: {\"code\":\"UNAUTHENTICATED\",\"message\":"
                                + "\"API key k was revoked\"}\n\n",
                        false));
        watch = client.watchChanges("s1", 4, seen::add);
        assertThat(watch.awaitEnd(Duration.ofSeconds(10))).isTrue();
        assertThat(seen).extracting(e -> e.path("seq").asLong()).containsExactly(5L);
        assertThat(watch.failure())
                .get()
                .isInstanceOfSatisfying(
                        MemoryChainException.Unauthenticated.class,
                        e -> assertThat(e.detail()).contains("revoked"));
        assertThat(lastEventIds).containsExactly("4", "4");
        assertThat(watch.isRunning()).isFalse();
    }

    @Test
    void anErrorAnswerOtherThan429Or503EndsTheWatchWithItsTypedException() throws Exception {
        MemoryChainClient client =
                serve(answer(403, "{\"code\":\"SPACE_NOT_ALLOWED\",\"message\":\"not yours\"}", null));
        watch = client.watchChanges("s1", 0, seen::add);
        assertThat(watch.awaitEnd(Duration.ofSeconds(10))).isTrue();
        assertThat(watch.failure()).get().isInstanceOf(MemoryChainException.SpaceNotAllowed.class);
        assertThat(watch.connections()).isEqualTo(1);
    }

    @Test
    void aConsumerThatThrowsEndsTheWatchWithItsExceptionAndTheChangeIsNotCountedDelivered() throws Exception {
        MemoryChainClient client = serve(stream(event(1), true));
        IllegalStateException boom = new IllegalStateException("boom");
        watch = client.watchChanges("s1", 0, e -> {
            throw boom;
        });
        assertThat(watch.awaitEnd(Duration.ofSeconds(10))).isTrue();
        assertThat(watch.failure()).containsSame(boom);
        assertThat(watch.lastSeq()).isZero();
    }

    @Test
    void closeStopsTheWatchAndItsConnection() throws Exception {
        MemoryChainClient client = serve(stream(event(1), true));
        watch = client.watchChanges("s1", 0, seen::add);
        await().atMost(Duration.ofSeconds(10)).until(() -> seen.size() == 1);
        watch.close();
        assertThat(watch.awaitEnd(Duration.ofSeconds(5))).isTrue();
        assertThat(watch.failure()).isEmpty();
        assertThat(watch.connections()).isEqualTo(1);
    }

    private static String event(long seq) {
        return "id: " + seq + "\nevent: MemoryCreated\ndata: {\"seq\":" + seq
                + ",\"event_type\":\"MemoryCreated\"}\n\n";
    }

    /** A 200 event stream with this text; held open until the test ends when {@code hold}, else closed. */
    private Script stream(String text, boolean hold) {
        return exchange -> {
            exchange.getResponseHeaders().add("Content-Type", "text/event-stream");
            exchange.sendResponseHeaders(200, 0);
            OutputStream out = exchange.getResponseBody();
            out.write(text.getBytes(StandardCharsets.UTF_8));
            out.flush();
            if (hold) {
                release.await(30, TimeUnit.SECONDS);
            }
        };
    }

    private static Script answer(int status, String json, String retryAfter) {
        return exchange -> {
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            if (retryAfter != null) {
                exchange.getResponseHeaders().add("Retry-After", retryAfter);
            }
            byte[] body = json.getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(status, body.length);
            exchange.getResponseBody().write(body);
        };
    }
}
