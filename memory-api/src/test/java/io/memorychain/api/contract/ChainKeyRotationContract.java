package io.memorychain.api.contract;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.grpc.ManagedChannel;
import io.grpc.ManagedChannelBuilder;
import io.grpc.Metadata;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.MetadataUtils;
import io.memorychain.api.auth.ApiKeys;
import io.memorychain.api.auth.Principal;
import io.memorychain.api.auth.Role;
import io.memorychain.api.grpc.GrpcErrors;
import io.memorychain.api.grpc.v1.ChainKeyChange;
import io.memorychain.api.grpc.v1.MarkChainKeyCompromisedRequest;
import io.memorychain.api.grpc.v1.MemoryServiceGrpc;
import io.memorychain.api.grpc.v1.RotateChainKeyRequest;
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
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * Signing-key rotation and compromise marks through the real service (docs/architecture.md §4): rotate, write, verify
 * with the Java verifier ({@code /chain/verify}) and offline with the Node verifier on the chain export, mark the old
 * key compromised, and both verifiers report its later events as suspect; {@code GET /v1/chain/keys} shows the status.
 * Bad requests answer a 4xx with a code over REST and the mapped status over gRPC; both answer what the sequencer
 * appended (the event's seq and the key it names).
 */
public abstract class ChainKeyRotationContract {

    private static final ObjectMapper JSON = new ObjectMapper();
    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

    /** The application's REST base URL. */
    protected abstract String restUrl();

    protected abstract ApiKeys keys();

    /** The application's gRPC port. */
    protected abstract int grpcPort();

    private static final Metadata.Key<String> AUTHORIZATION =
            Metadata.Key.of("authorization", Metadata.ASCII_STRING_MARSHALLER);

    @Test
    void aRotatedChainVerifiesInJavaAndNodeAndTheMarkedKeysLaterEventsAreSuspect() throws Exception {
        String space = "keyrot-" + UUID.randomUUID().toString().substring(0, 8);
        String agent = keys().issue(new Principal("keyrot-agent", Role.AGENT, "keyrot", List.of(space)), "test")
                .key()
                .toString();
        String admin = keys().issue(new Principal("keyrot-admin", Role.ADMIN, "root", List.of("*")), "test")
                .key()
                .toString();
        write(space, agent, "written under the first key");
        write(space, agent, "also under the first key");

        Resp refused = post(space, agent, "/chain/keys:rotate", Map.of("reason", "not mine to rotate"));
        assertError(refused, 403, "FORBIDDEN");
        assertError(
                post(
                        "keyrot-none-" + UUID.randomUUID().toString().substring(0, 8),
                        admin,
                        "/chain/keys:rotate",
                        Map.of("reason", "no chain here")),
                404,
                "NOT_FOUND");
        assertError(post(space, admin, "/chain/keys:rotate", Map.of("key_id", "not-a-key")), 400, "INVALID_ARGUMENT");
        assertError(post(space, admin, "/chain/keys:rotate", Map.of("key_id", "0123456789abcdef")), 404, "NOT_FOUND");
        Resp rotated = send(
                HttpRequest.newBuilder(URI.create(restUrl() + "/v1/spaces/" + space + "/chain/keys:rotate"))
                        .header("Content-Type", "application/json")
                        .header("Idempotency-Key", "rotate-" + space)
                        .POST(HttpRequest.BodyPublishers.ofString("{\"reason\":\"yearly rotation\"}")),
                admin);
        assertThat(rotated.status()).as(rotated.body().toString()).isEqualTo(200);
        assertThat(rotated.body().path("seq").asLong()).isEqualTo(3);
        assertThat(rotated.body().path("event").asText()).isEqualTo("SigningKeyRotated");
        assertThat(rotated.body().path("space").asText()).isEqualTo(space);
        String newKey = rotated.body().path("key_id").asText();
        Set<String> listed = keyIds();
        Resp retried = send(
                HttpRequest.newBuilder(URI.create(restUrl() + "/v1/spaces/" + space + "/chain/keys:rotate"))
                        .header("Content-Type", "application/json")
                        .header("Idempotency-Key", "rotate-" + space)
                        .POST(HttpRequest.BodyPublishers.ofString("{\"reason\":\"yearly rotation\"}")),
                admin);
        assertThat(retried.body()).as("a retry answers the original rotation").isEqualTo(rotated.body());
        assertThat(keyIds())
                .as("the key the retry made is deleted again, not listed")
                .isEqualTo(listed);
        write(space, agent, "written under the new key");
        write(space, agent, "also under the new key");

        Path export = export(space, agent);
        List<JsonNode> events = Files.readAllLines(export).stream()
                .skip(1)
                .map(ChainKeyRotationContract::tree)
                .map(line -> line.path("event"))
                .toList();
        assertThat(events).hasSize(5);
        String oldKey = events.get(0).path("key_id").asText();
        assertThat(events.get(3).path("key_id").asText()).isEqualTo(newKey);
        assertThat(events.get(2).path("key_id").asText())
                .as("the rotation is signed by the key it replaces")
                .isEqualTo(oldKey);
        assertThat(events.get(2)
                        .path("payload")
                        .path("SigningKeyRotated")
                        .path("new_key_id")
                        .asText())
                .isEqualTo(newKey);
        assertThat(newKey).isNotEqualTo(oldKey);
        assertThat(events.get(4).path("key_id").asText()).isEqualTo(newKey);

        JsonNode verified = get(space, admin, "/chain/verify?full=true").body();
        assertThat(verified.path("ok").asBoolean()).as(verified.toString()).isTrue();
        assertThat(verified.path("events").asLong()).isEqualTo(5);
        assertThat(verified.path("suspects").isArray()
                        && verified.path("suspects").isEmpty())
                .as(verified.toString())
                .isTrue();
        Run node = nodeVerify(export);
        assertThat(node.status()).as(node.out() + node.err()).isZero();
        assertThat(node.out()).startsWith("OK " + space + " 5 events head 5 ").doesNotContain("SUSPECT");

        assertError(
                post(space, admin, "/chain/keys/" + newKey + ":compromised", Map.of("from_seq", 1, "reason", "leaked")),
                409,
                "INVALID_STATE");
        assertError(
                post(
                        space,
                        admin,
                        "/chain/keys/" + oldKey + ":compromised",
                        Map.of("from_seq", 99, "reason", "leaked")),
                400,
                "INVALID_ARGUMENT");
        assertError(
                post(
                        space,
                        admin,
                        "/chain/keys/0123456789abcdef:compromised",
                        Map.of("from_seq", 1, "reason", "never signed here")),
                404,
                "NOT_FOUND");
        assertError(
                post(space, admin, "/chain/keys/" + oldKey + ":compromised", Map.of("from_seq", 1)),
                400,
                "INVALID_ARGUMENT");

        String thirdKey;
        ManagedChannel channel = ManagedChannelBuilder.forAddress("127.0.0.1", grpcPort())
                .usePlaintext()
                .build();
        try {
            MemoryServiceGrpc.MemoryServiceBlockingStub grpc = MemoryServiceGrpc.newBlockingStub(channel)
                    .withInterceptors(bearer(admin))
                    .withDeadlineAfter(60, TimeUnit.SECONDS);
            assertGrpcError(
                    () -> grpc.rotateChainKey(RotateChainKeyRequest.newBuilder()
                            .setSpace("keyrot-none-"
                                    + UUID.randomUUID().toString().substring(0, 8))
                            .build()),
                    Status.Code.NOT_FOUND,
                    "NOT_FOUND");
            assertGrpcError(
                    () -> grpc.markChainKeyCompromised(MarkChainKeyCompromisedRequest.newBuilder()
                            .setSpace(space)
                            .setKeyId(oldKey)
                            .setFromSeq(99)
                            .setReason("leaked")
                            .build()),
                    Status.Code.INVALID_ARGUMENT,
                    "INVALID_ARGUMENT");
            assertGrpcError(
                    () -> grpc.markChainKeyCompromised(MarkChainKeyCompromisedRequest.newBuilder()
                            .setSpace(space)
                            .setKeyId(newKey)
                            .setFromSeq(1)
                            .setReason("leaked")
                            .build()),
                    Status.Code.FAILED_PRECONDITION,
                    "INVALID_STATE");
            assertGrpcError(
                    () -> MemoryServiceGrpc.newBlockingStub(channel)
                            .withInterceptors(bearer(agent))
                            .rotateChainKey(RotateChainKeyRequest.newBuilder()
                                    .setSpace(space)
                                    .setKeyId(oldKey)
                                    .build()),
                    Status.Code.PERMISSION_DENIED,
                    "FORBIDDEN");

            ChainKeyChange marked = grpc.markChainKeyCompromised(MarkChainKeyCompromisedRequest.newBuilder()
                    .setSpace(space)
                    .setKeyId(oldKey)
                    .setFromSeq(1)
                    .setReason("the old key leaked")
                    .build());
            assertThat(marked.getSeq()).isEqualTo(6);
            assertThat(marked.getEvent()).isEqualTo("SigningKeyCompromised");
            assertThat(marked.getKeyId()).isEqualTo(oldKey);
            assertThat(marked.getTrustedUpTo()).isEqualTo(1);
            assertThat(marked.getRequestId()).isNotBlank();
            ChainKeyChange third = grpc.rotateChainKey(RotateChainKeyRequest.newBuilder()
                    .setSpace(space)
                    .setReason("after the leak")
                    .build());
            assertThat(third.getSeq()).isEqualTo(7);
            assertThat(third.getEvent()).isEqualTo("SigningKeyRotated");
            assertThat(third.getKeyId()).isNotIn(oldKey, newKey).matches("[0-9a-f]{16}");
            assertThat(third.hasTrustedUpTo()).isFalse();
            thirdKey = third.getKeyId();
        } finally {
            channel.shutdownNow();
        }

        JsonNode suspect = get(space, admin, "/chain/verify?full=true").body();
        assertThat(suspect.path("ok").asBoolean())
                .as("suspects are not a break: " + suspect)
                .isTrue();
        assertThat(list(suspect.path("suspects")))
                .containsExactly(
                        Map.of("key_id", oldKey, "from_seq", 2, "to_seq", 3, "trusted_up_to", 1, "marked_at_seq", 6));
        Run offline = nodeVerify(export(space, agent));
        assertThat(offline.status()).as(offline.out() + offline.err()).isZero();
        assertThat(offline.out())
                .startsWith("OK " + space + " 7 events head 7 ")
                .contains("SUSPECT " + space + " key=" + oldKey + " seqs=2..3 trusted_up_to=1 marked_at=6");

        Awaitility.await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
            JsonNode keys = send(
                            HttpRequest.newBuilder(URI.create(restUrl() + "/v1/chain/keys"))
                                    .GET(),
                            null)
                    .body()
                    .path("keys");
            Map<String, JsonNode> byId = new java.util.HashMap<>();
            keys.forEach(k -> byId.put(k.path("key_id").asText(), k));
            assertThat(byId).containsKeys(oldKey, newKey, thirdKey);
            assertThat(byId.get(oldKey).path("status").asText()).isEqualTo("compromised");
            assertThat(list(byId.get(oldKey).path("compromised")))
                    .contains(Map.of("space", space, "trusted_up_to", 1, "marked_at_seq", 6));
            assertThat(byId.get(newKey).path("status").asText())
                    .as("no space signs with it now")
                    .isEqualTo("retired");
            assertThat(byId.get(thirdKey).path("status").asText()).isEqualTo("active");
            assertThat(list(byId.get(thirdKey).path("spaces"))).containsExactly(space);
        });
    }

    private Set<String> keyIds() throws Exception {
        Set<String> ids = new java.util.TreeSet<>();
        send(HttpRequest.newBuilder(URI.create(restUrl() + "/v1/chain/keys")).GET(), null)
                .body()
                .path("keys")
                .forEach(k -> ids.add(k.path("key_id").asText()));
        return ids;
    }

    private static void assertError(Resp resp, int status, String code) {
        assertThat(resp.status()).as(resp.body().toString()).isEqualTo(status);
        assertThat(resp.body().path("code").asText()).as(resp.body().toString()).isEqualTo(code);
        assertThat(resp.body().path("message").asText()).isNotBlank();
    }

    private static void assertGrpcError(Runnable call, Status.Code status, String code) {
        try {
            call.run();
        } catch (StatusRuntimeException e) {
            assertThat(e.getStatus().getCode()).as(e.getStatus().toString()).isEqualTo(status);
            assertThat(e.getTrailers() == null ? null : e.getTrailers().get(GrpcErrors.ERROR_CODE))
                    .isEqualTo(code);
            return;
        }
        throw new AssertionError("expected " + status + " (" + code + ")");
    }

    private static io.grpc.ClientInterceptor bearer(String key) {
        Metadata headers = new Metadata();
        headers.put(AUTHORIZATION, "Bearer " + key);
        return MetadataUtils.newAttachHeadersInterceptor(headers);
    }

    private void write(String space, String key, String content) throws Exception {
        Resp created = post(space, key, "/memories", Map.of("content", content));
        assertThat(created.status()).as(created.body().toString()).isIn(200, 201);
    }

    private record Resp(int status, JsonNode body) {}

    private record Run(int status, String out, String err) {}

    private Resp post(String space, String key, String path, Object body) throws Exception {
        return send(
                HttpRequest.newBuilder(URI.create(restUrl() + "/v1/spaces/" + space + path))
                        .header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(body))),
                key);
    }

    private Resp get(String space, String key, String path) throws Exception {
        return send(
                HttpRequest.newBuilder(URI.create(restUrl() + "/v1/spaces/" + space + path))
                        .GET(),
                key);
    }

    private Resp send(HttpRequest.Builder request, String key) throws IOException, InterruptedException {
        if (key != null) {
            request.header("Authorization", "Bearer " + key);
        }
        HttpResponse<String> response =
                http.send(request.timeout(Duration.ofSeconds(60)).build(), HttpResponse.BodyHandlers.ofString());
        String body = response.body();
        return new Resp(
                response.statusCode(), body == null || body.isBlank() ? JSON.createObjectNode() : JSON.readTree(body));
    }

    private static List<Object> list(JsonNode node) {
        return JSON.convertValue(node, new com.fasterxml.jackson.core.type.TypeReference<List<Object>>() {});
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
        HttpResponse<Path> response = http.send(
                HttpRequest.newBuilder(URI.create(restUrl() + "/v1/spaces/" + space + "/chain/export"))
                        .header("Authorization", "Bearer " + key)
                        .timeout(Duration.ofSeconds(60))
                        .GET()
                        .build(),
                HttpResponse.BodyHandlers.ofFile(export));
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
            process = new ProcessBuilder(command)
                    .redirectOutput(out.toFile())
                    .redirectError(err.toFile())
                    .start();
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
