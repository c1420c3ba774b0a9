package io.memorychain.client;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.StringJoiner;
import java.util.UUID;

/** One HTTP exchange with retries: JSON in, JSON out, error answers as {@link MemoryChainException}. */
final class Transport {

    static final ObjectMapper JSON = new ObjectMapper();

    private final HttpClient http;
    private final URI base;
    private final String apiKey;
    private final RetryPolicy retry;
    private final Duration timeout;

    Transport(HttpClient http, URI base, String apiKey, RetryPolicy retry, Duration timeout) {
        this.http = http;
        this.base = base;
        this.apiKey = apiKey;
        this.retry = retry;
        this.timeout = timeout;
    }

    /** A call and its answer: the JSON body (null when empty), the ETag and the request id echoed. */
    record Answer(JsonNode body, String etag, String requestId, int status) {}

    /**
     * @param idempotencyKey for a write: the key sent on every attempt (null: a fresh one, made once here); ignored for
     *     GET
     */
    Answer call(
            String method,
            String path,
            Map<String, ?> query,
            Object body,
            String contentType,
            String idempotencyKey,
            String ifMatch) {
        boolean write = !method.equals("GET");
        String key = write
                ? (idempotencyKey != null ? idempotencyKey : UUID.randomUUID().toString())
                : null;
        HttpRequest.BodyPublisher publisher = body == null
                ? HttpRequest.BodyPublishers.noBody()
                : HttpRequest.BodyPublishers.ofString(body instanceof String s ? s : write(body));
        HttpRequest.Builder builder = HttpRequest.newBuilder(base.resolve(path + queryString(query)))
                .timeout(timeout)
                .method(method, publisher)
                .header("Accept", "application/json, text/markdown");
        if (apiKey != null) {
            builder.header("Authorization", "Bearer " + apiKey);
        }
        if (body != null) {
            builder.header("Content-Type", contentType != null ? contentType : "application/json");
        }
        if (key != null) {
            builder.header("Idempotency-Key", key);
        }
        if (ifMatch != null) {
            builder.header("If-Match", ifMatch);
        }
        HttpRequest request = builder.build();
        for (int attempt = 1; ; attempt++) {
            HttpResponse<String> response;
            try {
                response = http.send(request, HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
            } catch (HttpTimeoutException e) {
                if (attempt >= retry.maxAttempts()) {
                    throw new MemoryChainException.Timeout(
                            "no answer within " + timeout + ": " + e.getMessage(), key, 0);
                }
                pause(retry.delay(attempt, null));
                continue;
            } catch (IOException e) { // connection refused, reset or closed before an answer
                if (attempt >= retry.maxAttempts()) {
                    throw new MemoryChainException.Unavailable("no answer: " + e, key, 0);
                }
                pause(retry.delay(attempt, null));
                continue;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new MemoryChainException.Unavailable("interrupted", key, 0);
            }
            int status = response.statusCode();
            if ((status == 429 || status == 503) && attempt < retry.maxAttempts()) {
                pause(retry.delay(attempt, retryAfter(response)));
                continue;
            }
            String requestId = response.headers().firstValue("Idempotency-Key").orElse(key);
            if (status >= 400) {
                throw error(status, response.body(), requestId);
            }
            return new Answer(
                    parse(response), response.headers().firstValue("ETag").orElse(null), requestId, status);
        }
    }

    /**
     * Opens a server-sent events stream ({@code GET path}, {@code Accept: text/event-stream}) resuming after
     * {@code lastEventId}: the answer with its body as lines, whatever its status (the caller reads an error's body).
     * {@code timeout} bounds the wait for the answer's headers only; the body streams for as long as it lasts.
     */
    HttpResponse<java.util.stream.Stream<String>> openEvents(String path, String lastEventId)
            throws IOException, InterruptedException {
        HttpRequest.Builder builder = HttpRequest.newBuilder(base.resolve(path))
                .timeout(timeout)
                .GET()
                .header("Accept", "text/event-stream")
                .header("Cache-Control", "no-cache");
        if (apiKey != null) {
            builder.header("Authorization", "Bearer " + apiKey);
        }
        if (lastEventId != null) {
            builder.header("Last-Event-ID", lastEventId);
        }
        return http.send(builder.build(), HttpResponse.BodyHandlers.ofLines());
    }

    /** The typed exception of an error answer's status and body (its JSON error, or the text of a proxy's page). */
    static MemoryChainException error(int status, String body, String requestId) {
        String code = null;
        String message = body;
        try {
            JsonNode e = JSON.readTree(body);
            if (e != null && e.hasNonNull("code")) {
                code = e.get("code").asText();
                message = e.path("message").asText("");
                requestId = e.hasNonNull("request_id") ? e.get("request_id").asText() : requestId;
            }
        } catch (IOException notJson) {
            // a proxy's page: keep the text
        }
        return MemoryChainException.of(code != null ? code : "HTTP_" + status, message, requestId, status);
    }

    private static JsonNode parse(HttpResponse<String> response) {
        String text = response.body();
        if (text == null || text.isEmpty()) {
            return null;
        }
        if (response.headers().firstValue("Content-Type").orElse("").startsWith("text/")) {
            return JSON.getNodeFactory().textNode(text);
        }
        try {
            return JSON.readTree(text);
        } catch (IOException e) {
            return JSON.getNodeFactory().textNode(text);
        }
    }

    static Long retryAfter(HttpResponse<?> response) {
        return response.headers()
                .firstValue("Retry-After")
                .map(v -> {
                    try {
                        return Long.parseLong(v.trim());
                    } catch (NumberFormatException e) {
                        return null; // an HTTP date: use the backoff
                    }
                })
                .orElse(null);
    }

    private static void pause(Duration d) {
        try {
            Thread.sleep(d.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    static String write(Object body) {
        try {
            return JSON.writeValueAsString(body);
        } catch (IOException e) {
            throw new IllegalArgumentException("not JSON-serialisable: " + e.getMessage(), e);
        }
    }

    static String queryString(Map<String, ?> query) {
        if (query == null || query.isEmpty()) {
            return "";
        }
        StringJoiner q = new StringJoiner("&", "?", "");
        query.forEach((k, v) -> {
            if (v != null) {
                q.add(URLEncoder.encode(k, StandardCharsets.UTF_8) + "="
                        + URLEncoder.encode(String.valueOf(v), StandardCharsets.UTF_8));
            }
        });
        return q.length() == 1 ? "" : q.toString();
    }
}
