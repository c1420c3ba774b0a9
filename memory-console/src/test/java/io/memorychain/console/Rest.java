package io.memorychain.console;

import io.micronaut.json.JsonMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Map;

/** The REST API as a client sees it: seeds what the console tests look at, as any caller would. */
public final class Rest {

    private static final HttpClient HTTP =
            HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NEVER).build();

    /** A status and its JSON body (null when not JSON). */
    public record Answer(int status, Map<String, Object> json, String raw) {
        public String string(String field) {
            return (String) json.get(field);
        }
    }

    private Rest() {}

    public static Answer get(String key, String path) {
        return send(key, HttpRequest.newBuilder(uri(path)).GET());
    }

    public static Answer post(String key, String path, Object body) {
        return send(
                key,
                HttpRequest.newBuilder(uri(path))
                        .header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofString(json(body))));
    }

    public static Answer put(String key, String path, Object body) {
        return send(
                key,
                HttpRequest.newBuilder(uri(path))
                        .header("Content-Type", "application/json")
                        .PUT(HttpRequest.BodyPublishers.ofString(json(body))));
    }

    /** Creates a memory with the agent key and answers its id. */
    public static String memory(String agentKey, String space, String content, String category) {
        Answer created = post(
                agentKey,
                "/v1/spaces/" + space + "/memories",
                Map.of("content", content, "category", category, "importance", 3));
        if (created.status() != 201) {
            throw new IllegalStateException("memory not created: " + created.raw());
        }
        @SuppressWarnings("unchecked")
        Map<String, Object> memory = (Map<String, Object>) created.json().get("memory");
        return (String) memory.get("id");
    }

    /** Any request, raw: status, headers and body as the server sent them. */
    public static HttpResponse<String> raw(HttpRequest.Builder request) {
        try {
            return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    public static URI uri(String path) {
        return URI.create(ConsoleHarness.url() + path);
    }

    private static Answer send(String key, HttpRequest.Builder request) {
        HttpResponse<String> response = raw(request.header("Authorization", "Bearer " + key));
        Map<String, Object> body = null;
        if (response.headers().firstValue("Content-Type").orElse("").contains("json")
                && !response.body().isBlank()) {
            try {
                body = mapper().readValue(
                                response.body(), io.micronaut.core.type.Argument.mapOf(String.class, Object.class));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return new Answer(response.statusCode(), body, response.body());
    }

    private static String json(Object body) {
        try {
            return mapper().writeValueAsString(body);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static JsonMapper mapper() {
        return ConsoleHarness.bean(JsonMapper.class);
    }
}
