package io.memorychain.llm.rerank;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The /rerank client against a real HTTP server started here, whose replies each test scripts. */
class TeiRerankClientTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    private interface Reply {
        void answer(HttpExchange exchange) throws IOException, InterruptedException;
    }

    private HttpServer server;
    private volatile Reply reply;
    private final List<JsonNode> requests = new CopyOnWriteArrayList<>();
    private final CountDownLatch release = new CountDownLatch(1);

    @BeforeEach
    void start() throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/rerank", exchange -> {
            try {
                requests.add(JSON.readTree(exchange.getRequestBody()));
                reply.answer(exchange);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } finally {
                exchange.close();
            }
        });
        server.setExecutor(java.util.concurrent.Executors.newCachedThreadPool());
        server.start();
    }

    @AfterEach
    void stop() {
        release.countDown();
        server.stop(0);
    }

    private TeiRerankClient client(Duration timeout) {
        return new TeiRerankClient(
                URI.create("http://127.0.0.1:" + server.getAddress().getPort()), timeout);
    }

    private static void send(HttpExchange exchange, int status, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().add("Content-Type", "application/json");
        exchange.sendResponseHeaders(status, bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }

    @Test
    void postsTheQueryAndTextsAndReturnsTheScoresInTextOrder() {
        reply = exchange -> send(
                exchange,
                200,
                "[{\"index\":2,\"score\":0.91},{\"index\":0,\"score\":0.40}," + "{\"index\":1,\"score\":0.02}]");

        List<Double> scores = client(Duration.ofSeconds(5)).scores("pets?", List.of("a cat", "an invoice", "a kitten"));

        assertThat(scores).containsExactly(0.40, 0.02, 0.91);
        JsonNode sent = requests.get(0);
        assertThat(sent.get("query").asText()).isEqualTo("pets?");
        assertThat(sent.get("texts")).extracting(JsonNode::asText).containsExactly("a cat", "an invoice", "a kitten");
        assertThat(sent.get("raw_scores").asBoolean(true)).isFalse();
    }

    @Test
    void aSlowServerIsATimeout() {
        reply = exchange -> {
            release.await(30, TimeUnit.SECONDS); // held until the test ends: the client must give up first
            send(exchange, 200, "[]");
        };

        assertThatThrownBy(() -> client(Duration.ofMillis(300)).scores("q", List.of("a", "b")))
                .isInstanceOf(RerankException.class)
                .hasMessageContaining("within 300 ms");
    }

    @Test
    void aServerErrorIsARerankException() {
        reply = exchange -> send(exchange, 500, "{\"error\":\"model not loaded\"}");

        assertThatThrownBy(() -> client(Duration.ofSeconds(5)).scores("q", List.of("a", "b")))
                .isInstanceOf(RerankException.class)
                .hasMessageContaining("HTTP 500")
                .hasMessageContaining("not loaded");
    }

    @Test
    void malformedRepliesAreRerankExceptions() {
        TeiRerankClient client = client(Duration.ofSeconds(5));
        for (String body : List.of(
                "not json",
                "{\"index\":0,\"score\":1}",
                "[{\"index\":0,\"score\":\"high\"}," + "{\"index\":1,\"score\":0.1}]",
                "[{\"index\":0,\"score\":0.5}]",
                "[{\"index\":0,\"score\":0.5}," + "{\"index\":0,\"score\":0.4}]",
                "[{\"index\":5,\"score\":0.5},{\"index\":1,\"score\":0.4}]",
                "[{\"index\":0.5,\"score\":0.5},{\"index\":1,\"score\":0.4}]")) {
            reply = exchange -> send(exchange, 200, body);
            assertThatThrownBy(() -> client.scores("q", List.of("a", "b")))
                    .as(body)
                    .isInstanceOf(RerankException.class)
                    .hasMessageContaining("malformed reply");
        }
    }

    @Test
    void anUnreachableServerIsARerankException() {
        TeiRerankClient client = client(Duration.ofSeconds(2));
        server.stop(0);

        assertThatThrownBy(() -> client.scores("q", List.of("a", "b")))
                .isInstanceOf(RerankException.class)
                .hasMessageContaining("cannot reach");
    }

    @Test
    void theEndpointIsTheServersRerankPath() {
        assertThat(new TeiRerankClient(URI.create("http://h:8080"), Duration.ofSeconds(1)).endpoint())
                .isEqualTo(URI.create("http://h:8080/rerank"));
        assertThat(new TeiRerankClient(URI.create("http://h:8080/"), Duration.ofSeconds(1)).endpoint())
                .isEqualTo(URI.create("http://h:8080/rerank"));
        assertThat(new TeiRerankClient(URI.create("http://h:8080/rerank"), Duration.ofSeconds(1)).endpoint())
                .isEqualTo(URI.create("http://h:8080/rerank"));
        assertThatThrownBy(() -> new TeiRerankClient(URI.create("ftp://h"), Duration.ofSeconds(1)))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new TeiRerankClient(URI.create("http://h"), Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
