package io.memorychain.client;

import static io.memorychain.client.PathSegments.filePath;
import static io.memorychain.client.PathSegments.seg;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.URI;
import java.net.http.HttpClient;
import java.time.Duration;
import java.util.Map;

/**
 * The Memory Chain REST API over the JDK's HttpClient and Jackson. One method per REST operation of the service's
 * operation catalogue, named after it ({@code CREATE_MEMORY} is {@link #createMemory}); bodies and query parameters are
 * the JSON fields of the API (snake_case), answers its JSON. Every write carries an Idempotency-Key, made once per call
 * (or given in {@link Write}) and sent again on each retry; 429, 503, timeouts and broken connections are retried as
 * {@link RetryPolicy} says. Error answers throw the {@link MemoryChainException} of their code.
 *
 * <p>Memories, blocks, retrieval, messages, files and checkpoints are declared here; audit, chain, keys, grants,
 * consents, profile, alerts and the reviews of proposals, reflections, refinements and contradictions in
 * {@link GovernanceCalls}. Pages: {@link Pages}; a space's changes as they happen (server-sent events):
 * {@link ChangeWatch}.
 */
public final class MemoryChainClient extends GovernanceCalls {

    private MemoryChainClient(Transport transport) {
        super(transport);
    }

    /** A client of the service at {@code baseUrl} (e.g. {@code http://localhost:8080}) with this API key. */
    public static Builder builder(String baseUrl, String apiKey) {
        return new Builder(baseUrl, apiKey);
    }

    /** Builds a {@link MemoryChainClient}. */
    public static final class Builder {
        private final URI base;
        private final String apiKey;
        private HttpClient http;
        private RetryPolicy retry = RetryPolicy.defaults();
        private Duration timeout = Duration.ofSeconds(30);

        private Builder(String baseUrl, String apiKey) {
            this.base = URI.create(baseUrl.endsWith("/") ? baseUrl.substring(0, baseUrl.length() - 1) : baseUrl);
            this.apiKey = apiKey;
        }

        public Builder retry(RetryPolicy retry) {
            this.retry = retry;
            return this;
        }

        /** How long one attempt may wait for its answer (default 30 s). */
        public Builder timeout(Duration timeout) {
            this.timeout = timeout;
            return this;
        }

        public Builder httpClient(HttpClient http) {
            this.http = http;
            return this;
        }

        public MemoryChainClient build() {
            HttpClient client = http != null
                    ? http
                    : HttpClient.newBuilder()
                            .connectTimeout(Duration.ofSeconds(10))
                            .build();
            return new MemoryChainClient(new Transport(client, base, apiKey, retry, timeout));
        }
    }

    /** A read with its ETag (the version to send back as If-Match). */
    public record Versioned(JsonNode body, String etag) {}

    /** {@link #getMemory} with the memory's ETag. */
    public Versioned getMemoryVersioned(String space, String id) {
        Transport.Answer a = transport.call(
                "GET", "/v1/spaces/" + seg(space) + "/memories/" + seg(id), null, null, null, null, null);
        return new Versioned(a.body(), a.etag());
    }

    /** {@link #createMemory} of a text with the defaults. */
    public JsonNode createMemory(String space, String content) {
        return createMemory(space, Map.of("content", content), Write.DEFAULT);
    }

    /** {@code GET /v1/chain/keys}: the chain's public keys (no API key needed). */
    public JsonNode chainKeys() {
        return get("/v1/chain/keys", null);
    }

    /**
     * {@code GET /v1/spaces/{space}/changes} (WATCH_CHANGES): the space's changes after {@code afterSeq} (0: all), in
     * seq order, pushed as server-sent events to {@code onChange} (each audit entry once, on the watch's thread) until
     * the watch is closed; dropped connections are resumed where they stopped. See {@link ChangeWatch}.
     */
    public ChangeWatch watchChanges(String space, long afterSeq, java.util.function.Consumer<JsonNode> onChange) {
        return ChangeWatch.start(transport, space, afterSeq, ChangeWatch.DEFAULT_IDLE_TIMEOUT, onChange);
    }

    /** {@code POST /v1/spaces/{space}/memories} (CREATE_MEMORY). */
    public JsonNode createMemory(String space, Map<String, ?> body, Write write) {
        return send("POST", "/v1/spaces/" + seg(space) + "/memories", body, null, write);
    }

    /** {@code GET /v1/spaces/{space}/memories/ID} (GET_MEMORY). */
    public JsonNode getMemory(String space, String id, Map<String, ?> query) {
        return get("/v1/spaces/" + seg(space) + "/memories/" + seg(id), query);
    }

    /** {@code GET /v1/spaces/{space}/memories} (LIST_MEMORIES). */
    public JsonNode listMemories(String space, Map<String, ?> query) {
        return get("/v1/spaces/" + seg(space) + "/memories", query);
    }

    /** {@code PATCH /v1/spaces/{space}/memories/ID} (UPDATE_MEMORY). */
    public JsonNode updateMemory(String space, String id, Map<String, ?> body, Write write) {
        return send("PATCH", "/v1/spaces/" + seg(space) + "/memories/" + seg(id), body, null, write);
    }

    /** {@code DELETE /v1/spaces/{space}/memories/ID} (DELETE_MEMORY). */
    public JsonNode deleteMemory(String space, String id, Map<String, ?> body, Write write) {
        return send("DELETE", "/v1/spaces/" + seg(space) + "/memories/" + seg(id), body, null, write);
    }

    /** {@code POST /v1/spaces/{space}/memories/ID:restore} (RESTORE_MEMORY). */
    public JsonNode restoreMemory(String space, String id, Map<String, ?> body, Write write) {
        return send("POST", "/v1/spaces/" + seg(space) + "/memories/" + seg(id) + ":restore", body, null, write);
    }

    /** {@code POST /v1/spaces/{space}/memories/ID:protect} (PROTECT_MEMORY). */
    public JsonNode protectMemory(String space, String id, Map<String, ?> body, Write write) {
        return send("POST", "/v1/spaces/" + seg(space) + "/memories/" + seg(id) + ":protect", body, null, write);
    }

    /** {@code POST /v1/spaces/{space}/memories/ID:unprotect} (UNPROTECT_MEMORY). */
    public JsonNode unprotectMemory(String space, String id, Map<String, ?> body, Write write) {
        return send("POST", "/v1/spaces/" + seg(space) + "/memories/" + seg(id) + ":unprotect", body, null, write);
    }

    /** {@code POST /v1/spaces/{space}/memories/ID:erase} (ERASE_MEMORY). */
    public JsonNode eraseMemory(String space, String id, Map<String, ?> body, Write write) {
        return send("POST", "/v1/spaces/" + seg(space) + "/memories/" + seg(id) + ":erase", body, null, write);
    }

    /** {@code POST /v1/spaces/{space}/memories/ID:purge} (PURGE_MEMORY). */
    public JsonNode purgeMemory(String space, String id, Map<String, ?> body, Write write) {
        return send("POST", "/v1/spaces/" + seg(space) + "/memories/" + seg(id) + ":purge", body, null, write);
    }

    /** {@code GET /v1/spaces/{space}/memories/ID/erasure} (ERASURE_PROOF). */
    public JsonNode erasureProof(String space, String id, Map<String, ?> query) {
        return get("/v1/spaces/" + seg(space) + "/memories/" + seg(id) + "/erasure", query);
    }

    /** {@code POST /v1/spaces/{space}/memories/ID:pin} (PIN_MEMORY). */
    public JsonNode pinMemory(String space, String id, Map<String, ?> body, Write write) {
        return send("POST", "/v1/spaces/" + seg(space) + "/memories/" + seg(id) + ":pin", body, null, write);
    }

    /** {@code POST /v1/spaces/{space}/memories/ID:unpin} (UNPIN_MEMORY). */
    public JsonNode unpinMemory(String space, String id, Map<String, ?> body, Write write) {
        return send("POST", "/v1/spaces/" + seg(space) + "/memories/" + seg(id) + ":unpin", body, null, write);
    }

    /** {@code POST /v1/spaces/{space}/consolidations} (CONSOLIDATE). */
    public JsonNode consolidate(String space, Map<String, ?> body, Write write) {
        return send("POST", "/v1/spaces/" + seg(space) + "/consolidations", body, null, write);
    }

    /** {@code GET /v1/spaces/{space}/memories/ID/history} (GET_HISTORY). */
    public JsonNode getHistory(String space, String id, Map<String, ?> query) {
        return get("/v1/spaces/" + seg(space) + "/memories/" + seg(id) + "/history", query);
    }

    /** {@code PUT /v1/spaces/{space}/blocks/ID} (PUT_BLOCK). */
    public JsonNode putBlock(String space, String label, Map<String, ?> body, Write write) {
        return send("PUT", "/v1/spaces/" + seg(space) + "/blocks/" + seg(label), body, null, write);
    }

    /** {@code GET /v1/spaces/{space}/blocks/ID} (GET_BLOCK). */
    public JsonNode getBlock(String space, String label, Map<String, ?> query) {
        return get("/v1/spaces/" + seg(space) + "/blocks/" + seg(label), query);
    }

    /** {@code GET /v1/spaces/{space}/core} (GET_CORE). */
    public JsonNode getCore(String space, Map<String, ?> query) {
        return get("/v1/spaces/" + seg(space) + "/core", query);
    }

    /** {@code POST /v1/spaces/{space}/query} (QUERY). */
    public JsonNode query(String space, Map<String, ?> body, Write write) {
        return send("POST", "/v1/spaces/" + seg(space) + "/query", body, null, write);
    }

    /** {@code POST /v1/spaces/{space}/context} (CONTEXT). */
    public JsonNode context(String space, Map<String, ?> body, Write write) {
        return send("POST", "/v1/spaces/" + seg(space) + "/context", body, null, write);
    }

    /** {@code POST /v1/spaces/{space}/memories/ID/links} (LINK). */
    public JsonNode link(String space, String id, Map<String, ?> body, Write write) {
        return send("POST", "/v1/spaces/" + seg(space) + "/memories/" + seg(id) + "/links", body, null, write);
    }

    /** {@code DELETE /v1/spaces/{space}/memories/ID/links/ID} (UNLINK). */
    public JsonNode unlink(String space, String id, String to, Map<String, ?> body, Write write) {
        return send(
                "DELETE", "/v1/spaces/" + seg(space) + "/memories/" + seg(id) + "/links/" + seg(to), body, null, write);
    }

    /** {@code GET /v1/spaces/{space}/memories/ID/relations} (GET_RELATIONS). */
    public JsonNode getRelations(String space, String id, Map<String, ?> query) {
        return get("/v1/spaces/" + seg(space) + "/memories/" + seg(id) + "/relations", query);
    }

    /** {@code GET /v1/spaces/{space}/export} (EXPORT_SPACE). */
    public JsonNode exportSpace(String space, Map<String, ?> query) {
        return get("/v1/spaces/" + seg(space) + "/export", query);
    }

    /** {@code POST /v1/spaces/{space}/import} (IMPORT_SPACE). */
    public JsonNode importSpace(String space, Map<String, ?> body, Write write) {
        return send("POST", "/v1/spaces/" + seg(space) + "/import", body, null, write);
    }

    /** {@code GET /v1/spaces/{space}/files} (LIST_FILES). */
    public JsonNode listFiles(String space, Map<String, ?> query) {
        return get("/v1/spaces/" + seg(space) + "/files", query);
    }

    /** {@code GET /v1/spaces/{space}/files/{path}} (READ_FILE). */
    public JsonNode readFile(String space, String path, Map<String, ?> query) {
        return get("/v1/spaces/" + seg(space) + "/files/" + filePath(path), query);
    }

    /** {@code PUT /v1/spaces/{space}/files/{path}} (WRITE_FILE). */
    public JsonNode writeFile(String space, String path, String markdown, Write write) {
        return send("PUT", "/v1/spaces/" + seg(space) + "/files/" + filePath(path), markdown, "text/markdown", write);
    }

    /** {@code POST /v1/spaces/{space}/files/{path}:patch} (PATCH_FILE). */
    public JsonNode patchFile(String space, String path, Map<String, ?> body, Write write) {
        return send("POST", "/v1/spaces/" + seg(space) + "/files/" + filePath(path) + ":patch", body, null, write);
    }

    /** {@code POST /v1/spaces/{space}/files/{path}:append} (APPEND_FILE). */
    public JsonNode appendFile(String space, String path, Map<String, ?> body, Write write) {
        return send("POST", "/v1/spaces/" + seg(space) + "/files/" + filePath(path) + ":append", body, null, write);
    }

    /** {@code POST /v1/spaces/{space}/messages} (POST_MESSAGE). */
    public JsonNode postMessage(String space, Map<String, ?> body, Write write) {
        return send("POST", "/v1/spaces/" + seg(space) + "/messages", body, null, write);
    }

    /** {@code POST /v1/spaces/{space}/messages:confirm-forget} (CONFIRM_FORGET). */
    public JsonNode confirmForget(String space, Map<String, ?> body, Write write) {
        return send("POST", "/v1/spaces/" + seg(space) + "/messages:confirm-forget", body, null, write);
    }

    /**
     * {@code POST /v1/spaces/{space}/checkpoints} (SAVE_CHECKPOINT): thread_id, state, [user_id, checkpoint_id, ...].
     */
    public JsonNode saveCheckpoint(String space, Map<String, ?> body, Write write) {
        return send("POST", "/v1/spaces/" + seg(space) + "/checkpoints", body, null, write);
    }

    /**
     * {@code GET /v1/spaces/{space}/checkpoints/ID} (GET_CHECKPOINT): ?thread_id=&user_id=; id "latest": the newest.
     */
    public JsonNode getCheckpoint(String space, String id, Map<String, ?> query) {
        return get("/v1/spaces/" + seg(space) + "/checkpoints/" + seg(id), query);
    }

    /**
     * {@code GET /v1/spaces/{space}/checkpoints} (LIST_CHECKPOINTS): ?thread_id=&user_id=&limit=&cursor=, newest first.
     */
    public JsonNode listCheckpoints(String space, Map<String, ?> query) {
        return get("/v1/spaces/" + seg(space) + "/checkpoints", query);
    }

    /** {@code DELETE /v1/spaces/{space}/checkpoints} (DELETE_CHECKPOINTS): ?thread_id=&user_id=, the thread's all. */
    public JsonNode deleteCheckpoints(String space, Map<String, ?> query, Write write) {
        Write w = write == null ? Write.DEFAULT : write;
        return transport
                .call(
                        "DELETE",
                        "/v1/spaces/" + seg(space) + "/checkpoints",
                        query,
                        null,
                        null,
                        w.idempotencyKey(),
                        null)
                .body();
    }
}
