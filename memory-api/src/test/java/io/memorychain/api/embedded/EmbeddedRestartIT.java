package io.memorychain.api.embedded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.memorychain.api.backend.MemoryBackend;
import io.memorychain.avro.MemoryRequest;
import io.micronaut.context.ApplicationContext;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.client.HttpClient;
import io.micronaut.http.client.exceptions.HttpClientResponseException;
import io.micronaut.runtime.server.EmbeddedServer;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.apache.avro.Schema;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The embedded default (in-process KRaft broker, embedded registry, data under one folder) keeps memories, the chain,
 * schema ids and API keys across a restart of the whole service; its first start issues the keys a new user needs.
 */
@Tag("integration")
@Timeout(value = 4, unit = TimeUnit.MINUTES)
class EmbeddedRestartIT {

    @Test
    @SuppressWarnings("unchecked")
    void keepsMemoriesChainAndSchemaIdsAcrossARestart() throws Exception {
        Path dataDir = Files.createTempDirectory("embedded-restart");
        Map<String, Object> props = Map.of(
                "micronaut.server.port",
                -1,
                "memory.data-dir",
                dataDir.toString(),
                "memory.embedded.broker-port",
                freePort(),
                "memory.embedded.controller-port",
                freePort(),
                "memory.startup-timeout",
                "120s",
                "memory.refinement.trigger-threshold-tokens",
                25);
        String space = "assistant"; // the space of the first agent key
        String id;
        int schemaId;
        String keyId;
        Properties firstKeys;
        try (EmbeddedServer server = ApplicationContext.run(EmbeddedServer.class, props);
                HttpClient client = server.getApplicationContext().createBean(HttpClient.class, server.getURL())) {
            firstKeys = readKeys(dataDir.resolve("keys/api-keys.env"));
            String agent = firstKeys.getProperty("MEMORY_AGENT_KEY");
            Map<String, Object> created = client.toBlocking()
                    .retrieve(
                            HttpRequest.POST(
                                            "/v1/spaces/" + space + "/memories",
                                            Map.of("content", "The user's name is Ana"))
                                    .bearerAuth(agent),
                            Map.class);
            id = (String) ((Map<String, Object>) created.get("memory")).get("id");
            client.toBlocking()
                    .retrieve(
                            HttpRequest.PUT(
                                            "/v1/spaces/" + space + "/blocks/persona",
                                            Map.of("content", "I am a careful planner"))
                                    .bearerAuth(agent),
                            Map.class);
            MemoryBackend backend = server.getApplicationContext().getBean(MemoryBackend.class);
            schemaId =
                    backend.registry().register(backend.topics().requests() + "-value", MemoryRequest.getClassSchema());
            keyId = backend.publicKeys().asHex().keySet().iterator().next();
        }
        assertThat(Files.exists(dataDir.resolve("kafka/meta.properties"))).isTrue();

        try (EmbeddedServer server = ApplicationContext.run(EmbeddedServer.class, props);
                HttpClient client = server.getApplicationContext().createBean(HttpClient.class, server.getURL())) {
            assertThat(readKeys(dataDir.resolve("keys/api-keys.env")))
                    .as("no second bootstrap")
                    .isEqualTo(firstKeys);
            String agent = firstKeys.getProperty("MEMORY_AGENT_KEY");
            String admin = firstKeys.getProperty("MEMORY_ADMIN_KEY");
            assertThat((List<?>) client.toBlocking()
                            .retrieve(HttpRequest.GET("/v1/keys").bearerAuth(admin), Map.class)
                            .get("items"))
                    .hasSize(3);
            assertThatThrownBy(() -> client.toBlocking()
                            .retrieve(
                                    HttpRequest.GET("/v1/spaces/" + space + "/memories/" + id)
                                            .bearerAuth(admin),
                                    Map.class))
                    .isInstanceOfSatisfying(
                            HttpClientResponseException.class,
                            e -> assertThat(e.getStatus().getCode()).isEqualTo(403));
            Map<String, Object> memory = client.toBlocking()
                    .retrieve(
                            HttpRequest.GET("/v1/spaces/" + space + "/memories/" + id)
                                    .bearerAuth(agent),
                            Map.class);
            assertThat(memory).containsEntry("content", "The user's name is Ana");
            Map<String, Object> core = client.toBlocking()
                    .retrieve(HttpRequest.GET("/v1/spaces/" + space + "/core").bearerAuth(agent), Map.class);
            assertThat((String) core.get("text")).contains("I am a careful planner");

            Map<String, Object> next = client.toBlocking()
                    .retrieve(
                            HttpRequest.POST(
                                            "/v1/spaces/" + space + "/memories",
                                            Map.of("content", "Ana lives in Porto"))
                                    .bearerAuth(agent),
                            Map.class);
            // seq 3 is the alert of the agent's persona edit (a critical block, docs/architecture.md §21)
            assertThat(((Number) next.get("seq")).longValue()).isEqualTo(4);
            Map<String, Object> verify = client.toBlocking()
                    .retrieve(
                            HttpRequest.GET("/v1/spaces/" + space + "/chain/verify")
                                    .bearerAuth(admin),
                            Map.class);
            // at least the four written: the linker may already have appended the link of the two memories about Ana
            assertThat(verify)
                    .containsEntry("ok", true)
                    .as("a restarted instance reads the whole chain")
                    .doesNotContainKey("resumed_after_seq");
            assertThat(((Number) verify.get("events")).longValue()).isGreaterThanOrEqualTo(4);
            client.toBlocking()
                    .retrieve(
                            HttpRequest.POST("/v1/spaces/" + space + "/memories", Map.of("content", "Ana works nights"))
                                    .bearerAuth(agent),
                            Map.class);
            Map<String, Object> resumed = client.toBlocking()
                    .retrieve(
                            HttpRequest.GET("/v1/spaces/" + space + "/chain/verify")
                                    .bearerAuth(admin),
                            Map.class);
            assertThat(resumed).containsEntry("ok", true);
            assertThat(((Number) resumed.get("resumed_after_seq")).longValue()).isGreaterThanOrEqualTo(4);
            assertThat(((Number) resumed.get("events")).longValue()).isGreaterThanOrEqualTo(5);
            Map<String, Object> full = client.toBlocking()
                    .retrieve(
                            HttpRequest.GET("/v1/spaces/" + space + "/chain/verify?full=true")
                                    .bearerAuth(admin),
                            Map.class);
            assertThat(full).containsEntry("ok", true).doesNotContainKey("resumed_after_seq");
            assertThat(((Number) full.get("events")).longValue())
                    .isGreaterThanOrEqualTo(((Number) resumed.get("events")).longValue());

            MemoryBackend backend = server.getApplicationContext().getBean(MemoryBackend.class);
            // erasure (docs/architecture.md §12): overwritten values leave the changelogs within a day
            try (org.apache.kafka.clients.admin.Admin kafka = org.apache.kafka.clients.admin.Admin.create(
                    Map.of("bootstrap.servers", backend.bootstrapServers()))) {
                List<String> changelogs =
                        kafka.listTopics().names().get(30, java.util.concurrent.TimeUnit.SECONDS).stream()
                                .filter(t -> t.endsWith("sequencer-memories-changelog")
                                        || t.endsWith("view-history-changelog"))
                                .toList();
                assertThat(changelogs).hasSize(2);
                for (String topic : changelogs) {
                    org.apache.kafka.common.config.ConfigResource resource =
                            new org.apache.kafka.common.config.ConfigResource(
                                    org.apache.kafka.common.config.ConfigResource.Type.TOPIC, topic);
                    assertThat(kafka.describeConfigs(List.of(resource))
                                    .all()
                                    .get(30, java.util.concurrent.TimeUnit.SECONDS)
                                    .get(resource)
                                    .get("max.compaction.lag.ms")
                                    .value())
                            .as(topic)
                            .isEqualTo("86400000");
                }
                // and the plaintext requests within a day
                org.apache.kafka.common.config.ConfigResource requests =
                        new org.apache.kafka.common.config.ConfigResource(
                                org.apache.kafka.common.config.ConfigResource.Type.TOPIC,
                                backend.topics().requests());
                org.apache.kafka.clients.admin.Config config = kafka.describeConfigs(List.of(requests))
                        .all()
                        .get(30, java.util.concurrent.TimeUnit.SECONDS)
                        .get(requests);
                assertThat(config.get("retention.ms").value()).isEqualTo("86400000");
                assertThat(config.get("segment.ms").value()).isEqualTo("3600000");
            }
            Schema schema = backend.registry().byId(schemaId);
            assertThat(schema).isEqualTo(MemoryRequest.getClassSchema());
            assertThat(backend.registry()
                            .register(backend.topics().requests() + "-value", MemoryRequest.getClassSchema()))
                    .isEqualTo(schemaId);
            assertThat(backend.publicKeys().asHex().keySet()).isEqualTo(java.util.Set.of(keyId));
            // the public keys: the file written at start and GET /v1/chain/keys (no API key) agree
            // (docs/chain-format.md)
            Map<String, Object> servedKeys = client.toBlocking().retrieve(HttpRequest.GET("/v1/chain/keys"), Map.class);
            assertThat(new com.fasterxml.jackson.databind.ObjectMapper()
                            .readValue(dataDir.resolve("keys/public-keys.json").toFile(), Map.class))
                    .isEqualTo(servedKeys);
            assertThat(((List<Map<String, Object>>) servedKeys.get("keys")).get(0))
                    .containsEntry("key_id", keyId)
                    .containsEntry("active", true);
            Map<String, Object> audit = client.toBlocking()
                    .retrieve(HttpRequest.GET("/v1/spaces/" + space + "/audit").bearerAuth(agent), Map.class);
            // the agent's four writes, whatever the in-process linker has linked meanwhile ("Ana lives in Porto" and
            // "The user's name is Ana" are one subject: e5-small relates them above its link-min)
            assertThat((List<Map<String, Object>>) audit.get("items"))
                    .filteredOn(
                            item -> ((Map<?, ?>) item.get("actor")).get("type").equals("agent"))
                    .extracting(item -> item.get("event_type"))
                    .containsExactly("MemoryCreated", "BlockUpdated", "MemoryCreated", "MemoryCreated");

            // the refinement trigger runs in the embedded service: core memory over the threshold (25 tokens in this
            // test) starts a session by itself
            assertThat(backend.streamStates()).containsKey("refinement").containsKey("lifecycle");
            // the lifecycle worker runs in the embedded service by default, with its figures in /health
            Awaitility.await()
                    .atMost(Duration.ofSeconds(60))
                    .untilAsserted(() -> assertThat(backend.workerFigures()).containsKey("lifecycle"));
            assertThat((Map<String, Object>) backend.workerFigures().get("lifecycle"))
                    .containsKeys("state", "lag", "requested_total");
            // no model is configured here: the ToM job does not start and says why
            assertThat(backend.workerFigures()).containsEntry("tom", "skipped: no model");
            client.toBlocking()
                    .retrieve(
                            HttpRequest.PUT(
                                            "/v1/spaces/" + space + "/blocks/persona",
                                            Map.of(
                                                    "content",
                                                    "I am a careful planner who writes every decision down, checks the calendar twice a day, keeps the "
                                                            + "user's preferences in mind and answers in short, plain sentences"))
                                    .bearerAuth(agent),
                            Map.class);
            Map<String, Object> session = Awaitility.await()
                    .atMost(Duration.ofSeconds(60))
                    .pollInterval(Duration.ofMillis(200))
                    .until(() -> openSession(client, space, agent), java.util.Objects::nonNull);
            assertThat(session)
                    .containsEntry("trigger", "token_budget")
                    .containsEntry("state", "open")
                    .containsEntry("started_by", Map.of("type", "worker", "id", "refinement"));
            assertThat(((Number) session.get("core_tokens_at_start")).intValue())
                    .isGreaterThan(25);
        }
    }

    /** The open refinement session of the space, or null while there is none. */
    @SuppressWarnings("unchecked")
    private static Map<String, Object> openSession(HttpClient client, String space, String key) {
        try {
            return client.toBlocking()
                    .retrieve(
                            HttpRequest.GET("/v1/spaces/" + space + "/refinements/current")
                                    .bearerAuth(key),
                            Map.class);
        } catch (HttpClientResponseException e) {
            assertThat(e.getStatus().getCode())
                    .as(e.getResponse().getBody(String.class).orElse(""))
                    .isEqualTo(404);
            return null;
        }
    }

    /** The first keys' file: owner read/write only, an admin, an agent and a user key. */
    private static Properties readKeys(Path file) throws IOException {
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file)))
                .isEqualTo("rw-------");
        Properties keys = new Properties();
        try (var reader = Files.newBufferedReader(file)) {
            keys.load(reader);
        }
        assertThat(keys.stringPropertyNames())
                .containsExactlyInAnyOrder("MEMORY_ADMIN_KEY", "MEMORY_AGENT_KEY", "MEMORY_USER_KEY");
        return keys;
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }
}
