package io.memorychain.llm.rerank;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * A cross-encoder reranker served over HTTP with the Hugging Face text-embeddings-inference {@code /rerank} API:
 * {@code POST {"query": "...", "texts": [...], "raw_scores": false, "truncate": true}} answered with {@code [{"index":
 * i, "score": s}, ...]} (any order). One attempt per call, bounded by the timeout: a reranker sits on the query path,
 * so a slow or failing server is a {@link RerankException} at once and the caller keeps its own order. Thread-safe.
 */
public final class TeiRerankClient {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final URI endpoint;
    private final Duration timeout;
    private final HttpClient http;

    /**
     * @param url the server ({@code http://host:port}, {@code /rerank} is appended) or the endpoint itself
     * @param timeout the longest wait for a whole reply
     */
    public TeiRerankClient(URI url, Duration timeout) {
        Objects.requireNonNull(url, "url");
        if (timeout == null || timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("the reranker timeout must be positive, was " + timeout);
        }
        if (!"http".equals(url.getScheme()) && !"https".equals(url.getScheme())) {
            throw new IllegalArgumentException("the reranker url must be http or https, was " + url);
        }
        String base = url.toString();
        this.endpoint =
                base.endsWith("/rerank") ? url : URI.create(base.endsWith("/") ? base + "rerank" : base + "/rerank");
        this.timeout = timeout;
        this.http = HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(timeout)
                .build();
    }

    public URI endpoint() {
        return endpoint;
    }

    /**
     * The server's score of each text for the query, in the order of {@code texts}.
     *
     * @throws RerankException on a timeout, an unreachable server, a non-2xx status or a reply that does not give
     *     exactly one finite score per text
     */
    public List<Double> scores(String query, List<String> texts) {
        Objects.requireNonNull(query, "query");
        Objects.requireNonNull(texts, "texts");
        if (texts.isEmpty()) {
            return List.of();
        }
        ObjectNode body = JSON.createObjectNode().put("query", query);
        ArrayNode array = body.putArray("texts");
        texts.forEach(array::add);
        body.put("raw_scores", false).put("truncate", true);
        HttpRequest request;
        try {
            request = HttpRequest.newBuilder(endpoint)
                    .timeout(timeout)
                    .header("Content-Type", "application/json")
                    .header("Accept", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofByteArray(JSON.writeValueAsBytes(body)))
                    .build();
        } catch (IOException e) {
            throw new RerankException("cannot encode the request: " + e.getMessage(), e);
        }
        HttpResponse<String> response;
        try {
            response = http.send(request, HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
        } catch (HttpTimeoutException e) {
            throw new RerankException("no reply from " + endpoint + " within " + timeout.toMillis() + " ms", e);
        } catch (IOException e) {
            throw new RerankException("cannot reach " + endpoint + ": " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new RerankException("interrupted while waiting for " + endpoint, e);
        }
        if (response.statusCode() < 200 || response.statusCode() >= 300) {
            throw new RerankException(
                    "HTTP " + response.statusCode() + " from " + endpoint + ": " + excerpt(response.body()), null);
        }
        return parse(response.body(), texts.size());
    }

    /** One score per index 0..count-1 from {@code [{"index": i, "score": s}, ...]}. */
    static List<Double> parse(String body, int count) {
        JsonNode reply;
        try {
            reply = JSON.readTree(body);
        } catch (IOException e) {
            throw new RerankException("malformed reply (not JSON): " + excerpt(body), e);
        }
        if (reply == null || !reply.isArray()) {
            throw new RerankException("malformed reply (not a list): " + excerpt(body), null);
        }
        Double[] scores = new Double[count];
        for (JsonNode item : reply) {
            JsonNode index = item.get("index");
            JsonNode score = item.get("score");
            if (index == null
                    || !index.canConvertToInt()
                    || !index.isIntegralNumber()
                    || score == null
                    || !score.isNumber()) {
                throw new RerankException(
                        "malformed reply (an item without an integer index and a numeric score): " + excerpt(body),
                        null);
            }
            int i = index.intValue();
            double s = score.doubleValue();
            if (i < 0 || i >= count || scores[i] != null || !Double.isFinite(s)) {
                throw new RerankException(
                        "malformed reply (index " + i + " out of range, repeated, or its score not" + " finite) for "
                                + count + " texts: " + excerpt(body),
                        null);
            }
            scores[i] = s;
        }
        if (Arrays.stream(scores).anyMatch(Objects::isNull)) {
            throw new RerankException(
                    "malformed reply (" + reply.size() + " scores for " + count + " texts): " + excerpt(body), null);
        }
        return List.copyOf(new ArrayList<>(Arrays.asList(scores)));
    }

    private static String excerpt(String body) {
        if (body == null) {
            return "";
        }
        String flat = body.replaceAll("\\s+", " ").strip();
        return flat.length() <= 200 ? flat : flat.substring(0, 200) + "...";
    }
}
