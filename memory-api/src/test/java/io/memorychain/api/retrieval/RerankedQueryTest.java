package io.memorychain.api.retrieval;

import static io.memorychain.projector.ChainHarness.AGENT;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.memorychain.api.config.RetrievalConfig;
import io.memorychain.avro.CreateMemory;
import io.memorychain.domain.category.CategoryPolicy;
import io.memorychain.events.Requests;
import io.memorychain.projector.ChainHarness;
import io.memorychain.projector.SharedEmbedder;
import io.memorychain.projector.retrieval.DecayModel;
import io.memorychain.projector.retrieval.QueryRequest;
import io.memorychain.projector.retrieval.QueryResult;
import io.memorychain.projector.retrieval.QueryService;
import io.memorychain.projector.retrieval.RankingWeights;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * memory.query with {@code memory.retrieval.reranker.*} pointing at a real HTTP server started here that speaks the
 * text-embeddings-inference /rerank API with scripted replies: its scores reorder the answer; a slow, failing or
 * garbled server leaves the fused order and never fails the query.
 */
class RerankedQueryTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String SPACE = "rerank";

    private interface Reply {
        void answer(HttpExchange exchange, JsonNode request) throws IOException, InterruptedException;
    }

    private final ChainHarness h = new ChainHarness(SharedEmbedder.get());
    private final CountDownLatch release = new CountDownLatch(1);
    private final AtomicInteger calls = new AtomicInteger();
    private HttpServer server;
    private volatile Reply reply;
    private String cat;
    private String invoice;

    @BeforeEach
    void start() throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/rerank", exchange -> {
            try {
                calls.incrementAndGet();
                reply.answer(exchange, JSON.readTree(exchange.getRequestBody()));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } finally {
                exchange.close();
            }
        });
        server.setExecutor(Executors.newCachedThreadPool());
        server.start();
        cat = create("The user adopted a kitten named Miso");
        create("Quarterly revenue grew eleven percent");
        invoice = create("Invoice INV-2024-117 was paid late by Globex");
    }

    @AfterEach
    void stop() {
        release.countDown();
        server.stop(0);
        h.close();
    }

    private String create(String content) {
        return h.submit(Requests.create(
                        SPACE,
                        AGENT,
                        CreateMemory.newBuilder().setContent(content).build()))
                .getMemoryId();
    }

    private List<String> ask(Duration timeout) {
        RetrievalConfig.Reranker config = new RetrievalConfig.Reranker();
        config.setUrl(URI.create("http://127.0.0.1:" + server.getAddress().getPort()));
        config.setTimeout(timeout);
        config.setTopN(5);
        QueryService queries = new QueryService(
                h.views,
                h.embedder,
                CategoryPolicy.unrestricted(),
                DecayModel.standard(),
                RankingWeights.DEFAULTS,
                a -> {},
                h.clock,
                RetrievalBeans.reranker(config),
                config.getTopN());
        QueryResult result = queries.query(QueryRequest.of(SPACE, null, "does the user have a pet?"), AGENT);
        return result.items().stream().map(QueryResult.Item::id).toList();
    }

    private static void send(HttpExchange exchange, int status, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.sendResponseHeaders(status, bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }

    @Test
    void theRerankersScoresReorderTheFusedCandidates() {
        // the scripted cross-encoder prefers the invoice, which the fused order ranks below the kitten
        reply = (exchange, request) -> {
            StringBuilder scores = new StringBuilder("[");
            JsonNode texts = request.get("texts");
            for (int i = 0; i < texts.size(); i++) {
                scores.append(i == 0 ? "" : ",")
                        .append("{\"index\":")
                        .append(i)
                        .append(",\"score\":")
                        .append(texts.get(i).asText().contains("Invoice") ? 0.98 : 0.01 * (i + 1))
                        .append('}');
            }
            send(exchange, 200, scores.append(']').toString());
        };
        assertThat(ask(Duration.ofSeconds(5)).get(0)).as("reranked").isEqualTo(invoice);
        assertThat(calls).hasValue(1);
    }

    @Test
    void aSlowRerankerLeavesTheFusedOrder() {
        reply = (exchange, request) -> {
            release.await(30, TimeUnit.SECONDS); // answers only after the test: the client must give up first
            send(exchange, 200, "[]");
        };

        assertThat(ask(Duration.ofMillis(300))).startsWith(cat);
        assertThat(calls).hasValue(1);
    }

    @Test
    void aServerErrorOrAGarbledReplyLeavesTheFusedOrder() {
        reply = (exchange, request) -> send(exchange, 500, "{\"error\":\"overloaded\"}");
        assertThat(ask(Duration.ofSeconds(5))).startsWith(cat);

        reply = (exchange, request) -> send(exchange, 200, "[{\"index\": 0, \"score\": ");
        assertThat(ask(Duration.ofSeconds(5))).startsWith(cat);
        assertThat(calls).hasValue(2);
    }

    @Test
    void withoutAUrlThereIsNoReranker() {
        assertThat(RetrievalBeans.reranker(new RetrievalConfig.Reranker()))
                .isSameAs(io.memorychain.projector.retrieval.Reranker.NONE);
    }
}
