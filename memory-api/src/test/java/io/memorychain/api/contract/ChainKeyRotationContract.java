package io.memorychain.api.contract;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.memorychain.api.auth.ApiKeys;
import io.memorychain.api.auth.Principal;
import io.memorychain.api.auth.Role;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * Signing-key rotation and compromise marks through the real service (docs/architecture.md §4): rotate, write, verify
 * with the Java verifier ({@code /chain/verify}) and offline with the Node verifier on the chain export, mark the old
 * key compromised, and both verifiers report its later events as suspect; {@code GET /v1/chain/keys} shows the status.
 */
public abstract class ChainKeyRotationContract {

    private static final ObjectMapper JSON = new ObjectMapper();
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

    /** The application's REST base URL. */
    protected abstract String restUrl();

    protected abstract ApiKeys keys();

    @Test
    void aRotatedChainVerifiesInJavaAndNodeAndTheMarkedKeysLaterEventsAreSuspect() throws Exception {
        String space = "keyrot-" + UUID.randomUUID().toString().substring(0, 8);
        String agent = keys().issue(new Principal("keyrot-agent", Role.AGENT, "keyrot", List.of(space)), "test")
                .key().toString();
        String admin = keys().issue(new Principal("keyrot-admin", Role.ADMIN, "root", List.of("*")), "test")
                .key().toString();
        write(space, agent, "written under the first key");
        write(space, agent, "also under the first key");

        Resp refused = post(space, agent, "/chain/keys:rotate", Map.of("reason", "not mine to rotate"));
        assertThat(refused.status()).as(refused.body().toString()).isEqualTo(403);
        Resp rotated = post(space, admin, "/chain/keys:rotate", Map.of("reason", "yearly rotation"));
        assertThat(rotated.status()).as(rotated.body().toString()).isEqualTo(200);
        assertThat(rotated.body().path("seq").asLong()).isEqualTo(3);
        write(space, agent, "written under the new key");
        write(space, agent, "also under the new key");

        Path export = export(space, agent);
        List<JsonNode> events = Files.readAllLines(export).stream().skip(1).map(ChainKeyRotationContract::tree)
                .map(line -> line.path("event")).toList();
        assertThat(events).hasSize(5);
        String oldKey = events.get(0).path("key_id").asText();
        String newKey = events.get(3).path("key_id").asText();
        assertThat(events.get(2).path("key_id").asText()).as("the rotation is signed by the key it replaces")
                .isEqualTo(oldKey);
        assertThat(events.get(2).path("payload").path("SigningKeyRotated").path("new_key_id").asText())
                .isEqualTo(newKey);
        assertThat(newKey).isNotEqualTo(oldKey);
        assertThat(events.get(4).path("key_id").asText()).isEqualTo(newKey);

        JsonNode verified = get(space, admin, "/chain/verify?full=true").body();
        assertThat(verified.path("ok").asBoolean()).as(verified.toString()).isTrue();
        assertThat(verified.path("events").asLong()).isEqualTo(5);
        assertThat(verified.has("suspects")).isFalse();
        Run node = nodeVerify(export);
        assertThat(node.status()).as(node.out() + node.err()).isZero();
        assertThat(node.out()).startsWith("OK " + space + " 5 events head 5 ").doesNotContain("SUSPECT");

        Resp current = post(space, admin, "/chain/keys/" + newKey + ":compromised",
                Map.of("from_seq", 1, "reason", "leaked"));
        assertThat(current.status()).as("the current key: rotate first").isEqualTo(409);
        Resp marked = post(space, admin, "/chain/keys/" + oldKey + ":compromised",
                Map.of("from_seq", 1, "reason", "the old key leaked"));
        assertThat(marked.status()).as(marked.body().toString()).isEqualTo(200);
        assertThat(marked.body().path("seq").asLong()).isEqualTo(6);

        JsonNode suspect = get(space, admin, "/chain/verify?full=true").body();
        assertThat(suspect.path("ok").asBoolean()).as("suspects are not a break: " + suspect).isTrue();
        assertThat(list(suspect.path("suspects"))).containsExactly(Map.of("key_id", oldKey,
                "from_seq", 2, "to_seq", 3, "trusted_up_to", 1, "marked_at_seq", 6));
        Run offline = nodeVerify(export(space, agent));
        assertThat(offline.status()).as(offline.out() + offline.err()).isZero();
        assertThat(offline.out()).startsWith("OK " + space + " 6 events head 6 ")
                .contains("SUSPECT " + space + " key=" + oldKey + " seqs=2..3 trusted_up_to=1 marked_at=6");

        Awaitility.await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
            JsonNode keys = send(HttpRequest.newBuilder(URI.create(restUrl() + "/v1/chain/keys")).GET(), null)
                    .body().path("keys");
            Map<String, JsonNode> byId = new java.util.HashMap<>();
            keys.forEach(k -> byId.put(k.path("key_id").asText(), k));
            assertThat(byId).containsKeys(oldKey, newKey);
            assertThat(byId.get(oldKey).path("status").asText()).isEqualTo("compromised");
            assertThat(list(byId.get(oldKey).path("compromised"))).contains(Map.of(
                    "space", space, "trusted_up_to", 1, "marked_at_seq", 6));
            assertThat(byId.get(newKey).path("status").asText()).isEqualTo("active");
            assertThat(list(byId.get(newKey).path("spaces"))).containsExactly(space);
        });
    }

    private void write(String space, String key, String content) throws Exception {
        Resp created = post(space, key, "/memories", Map.of("content", content));
        assertThat(created.status()).as(created.body().toString()).isIn(200, 201);
    }

    private record Resp(int status, JsonNode body) {
    }

    private record Run(int status, String out, String err) {
    }

    private Resp post(String space, String key, String path, Object body) throws Exception {
        return send(HttpRequest.newBuilder(URI.create(restUrl() + "/v1/spaces/" + space + path))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(body))), key);
    }

    private Resp get(String space, String key, String path) throws Exception {
        return send(HttpRequest.newBuilder(URI.create(restUrl() + "/v1/spaces/" + space + path)).GET(), key);
    }

    private Resp send(HttpRequest.Builder request, String key) throws IOException, InterruptedException {
        if (key != null) {
            request.header("Authorization", "Bearer " + key);
        }
        HttpResponse<String> response = http.send(request.timeout(Duration.ofSeconds(60)).build(),
                HttpResponse.BodyHandlers.ofString());
        String body = response.body();
        return new Resp(response.statusCode(), body == null || body.isBlank() ? JSON.createObjectNode()
                : JSON.readTree(body));
    }

    private static List<Object> list(JsonNode node) {
        return JSON.convertValue(node, new com.fasterxml.jackson.core.type.TypeReference<List<Object>>() { });
    }

    private static JsonNode tree(String line) {
        try {
            return JSON.readTree(line);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** The space's chain export (JSON Lines) in a new file. */
    private Path export(String space, String key) throws Exception {
        Path export = Files.createTempDirectory("keyrot-export").resolve("chain.jsonl");
        HttpResponse<Path> response = http.send(HttpRequest.newBuilder(URI.create(restUrl() + "/v1/spaces/" + space
                + "/chain/export")).header("Authorization", "Bearer " + key).timeout(Duration.ofSeconds(60)).GET()
                .build(), HttpResponse.BodyHandlers.ofFile(export));
        assertThat(response.statusCode()).isEqualTo(200);
        return export;
    }

    /** Verifies an export offline with verifier/verify.mjs and nothing but the export's file. */
    private Run nodeVerify(Path export) throws Exception {
        Path dir = export.getParent();
        Path verifier = Path.of("..", "verifier", "verify.mjs").toAbsolutePath().normalize();
        assertThat(verifier).exists();
        List<String> command = new ArrayList<>(List.of("node", verifier.toString(), export.toString()));
        Path out = dir.resolve("out");
        Path err = dir.resolve("err");
        Process process;
        try {
            process = new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        } catch (IOException e) {
            Assumptions.abort("node is not on the PATH (" + e.getMessage() + "): the second-language verifier needs "
                    + "Node.js >= 18");
            throw e;
        }
        if (!process.waitFor(120, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new AssertionError("node did not finish: " + command);
        }
        return new Run(process.exitValue(), Files.readString(out), Files.readString(err));
    }
}
