package io.memorychain.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.memorychain.api.auth.ApiKeys;
import io.memorychain.api.backend.MemoryBackend;
import io.memorychain.api.contract.CheckpointContract;
import io.memorychain.api.contract.ContradictionContract;
import io.memorychain.api.contract.MemoryApiContract;
import io.memorychain.api.contract.RefinementAgentContract;
import io.memorychain.api.contract.SharedKafkaApplication;
import io.memorychain.avro.MemoryOutcome;
import io.memorychain.avro.MemoryRequest;
import io.memorychain.events.Topics;
import io.memorychain.events.content.MasterKey;
import io.memorychain.events.testing.SharedKafka;
import io.micronaut.http.client.HttpClient;
import io.micronaut.json.JsonMapper;
import io.micronaut.runtime.server.EmbeddedServer;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The REST contract end to end: the Micronaut application (real {@code MemoryChainBackend}: registry, signing key,
 * {@code MemoryChainRuntime} with the sequencer and the projection, {@code MemoryPublisher}) against the shared in-JVM
 * Kafka broker, with topics and Streams application ids of its own.
 */
@Tag("integration")
@ExtendWith(SharedKafka.class)
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class MemoryApiIT extends MemoryApiContract {

    private static final String PREFIX = SharedKafka.uniquePrefix();
    private static EmbeddedServer server;
    private static HttpClient client;
    private static JsonMapper json;
    private static Admin admin;

    @BeforeAll
    static void startApplication() {
        server = SharedKafkaApplication.start(PREFIX, "memory-api-it");
        client = server.getApplicationContext().createBean(HttpClient.class, server.getURL());
        json = server.getApplicationContext().getBean(JsonMapper.class);
        admin = SharedKafka.admin();
    }

    @AfterAll
    static void stopApplication() {
        if (client != null) {
            client.close();
        }
        if (admin != null) {
            admin.close();
        }
        if (server != null) {
            server.getApplicationContext().close();
        }
    }

    /** Agents' checkpoints on this class's service. */
    @Nested
    class Checkpoints extends CheckpointContract {

        @Override
        protected MemoryApiContract api() {
            return MemoryApiIT.this;
        }

        @Override
        protected MemoryBackend backend() {
            return server.getApplicationContext().getBean(MemoryBackend.class);
        }

        @Override
        protected MasterKey contentKey() {
            io.memorychain.api.config.MemoryConfig config =
                    server.getApplicationContext().getBean(io.memorychain.api.config.MemoryConfig.class);
            return config.isContentEncryption()
                    ? MasterKey.loadOrCreate(config.getContentKeyFile()
                            .orElseGet(() -> config.getDataDir()
                                    .toAbsolutePath()
                                    .normalize()
                                    .resolve("keys")
                                    .resolve(MasterKey.FILE_NAME)))
                    : null;
        }
    }

    /** Contradictions, flagged by the service itself in the spaces its configuration detects them in. */
    @Nested
    class ContradictionsContract extends ContradictionContract {

        @Override
        protected MemoryApiContract api() {
            return MemoryApiIT.this;
        }
    }

    /** The refinement agent job on this class's service, with the space that has a scripted model. */
    @Nested
    class RefinementAgent extends RefinementAgentContract {

        @Override
        protected MemoryApiContract api() {
            return MemoryApiIT.this;
        }

        @Override
        protected io.memorychain.api.refinement.RefinementAgentJob job() {
            return server.getApplicationContext().getBean(io.memorychain.api.refinement.RefinementAgentJob.class);
        }
    }

    @Override
    protected ApiKeys apiKeys() {
        return server.getApplicationContext().getBean(ApiKeys.class);
    }

    @Override
    protected HttpClient client() {
        return client;
    }

    @Override
    protected JsonMapper json() {
        return json;
    }

    /** Through the application's own publisher to the real requests topic, past the REST layer. */
    @Override
    protected MemoryOutcome publishDirectly(MemoryRequest request) {
        try {
            return server.getApplicationContext()
                    .getBean(MemoryBackend.class)
                    .publish(request)
                    .get(30, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException("No outcome for request " + request.getRequestId(), e);
        }
    }

    /** Sum of the requests topic's end offsets (uncommitted included): any publish moves it. */
    @Override
    protected long publishedRequests() {
        String topic = Topics.withPrefix(PREFIX).requests();
        try {
            TopicDescription description = admin.describeTopics(java.util.List.of(topic))
                    .allTopicNames()
                    .get(30, TimeUnit.SECONDS)
                    .get(topic);
            Map<TopicPartition, OffsetSpec> latest = new java.util.HashMap<>();
            description
                    .partitions()
                    .forEach(p -> latest.put(new TopicPartition(topic, p.partition()), OffsetSpec.latest()));
            return admin.listOffsets(latest).all().get(30, TimeUnit.SECONDS).values().stream()
                    .mapToLong(info -> info.offset())
                    .sum();
        } catch (Exception e) {
            throw new IllegalStateException("Cannot read the end offsets of " + topic, e);
        }
    }

    /** Signing-key rotation and compromise marks on this same application (docs/architecture.md §4). */
    @org.junit.jupiter.api.Nested
    class KeyRotation extends io.memorychain.api.contract.ChainKeyRotationContract {

        @Override
        protected String restUrl() {
            return server.getURL().toString().replaceAll("/$", "");
        }

        @Override
        protected ApiKeys keys() {
            return apiKeys();
        }

        @Override
        protected int grpcPort() {
            return server.getApplicationContext()
                    .getBean(io.micronaut.grpc.server.GrpcEmbeddedServer.class)
                    .getPort();
        }
    }

    @Test
    void theEmbedderRunsTheConfiguredStreamThreadsEachWithItsOwnPartitions() {
        org.apache.kafka.streams.KafkaStreams embedder = server.getApplicationContext()
                .getBean(io.memorychain.api.backend.MemoryBackend.class)
                .streamsApplications()
                .get("embedder");
        assertThat(embedder.metadataForLocalThreads())
                .as("memory.embeddings.stream-threads 2")
                .hasSize(2)
                .allSatisfy(thread -> assertThat(thread.activeTasks()).isNotEmpty());
    }

    // ---------------------------------------------------------------- erasure (docs/architecture.md §12)

    /** No record of the readable topics, no search index file, export or audit line holds the text. */
    private void assertNoCopyLeft(String space, String text, Path dataDir) throws Exception {
        Topics topics = Topics.withPrefix(PREFIX);
        for (String topic : java.util.List.of(topics.events(), topics.keys(), topics.embeddings(), topics.outcomes())) {
            assertThat(recordsContaining(topic, text))
                    .as("records of " + topic + " holding the text")
                    .isZero();
        }
        assertThat(filesContaining(dataDir.resolve("streams"), text, true))
                .as("search index files")
                .isEmpty();
        assertThat(send(io.micronaut.http.HttpRequest.GET("/v1/spaces/" + space + "/export"))
                        .raw())
                .doesNotContain(text);
        assertThat(client().toBlocking()
                        .retrieve(
                                authorized(io.micronaut.http.HttpRequest.GET(
                                                "/v1/spaces/" + space + "/export?format=markdown"))
                                        .accept("text/markdown"),
                                String.class))
                .doesNotContain(text);
        assertThat(send(io.micronaut.http.HttpRequest.GET("/v1/spaces/" + space + "/audit"))
                        .raw())
                .doesNotContain(text);
    }

    /**
     * The erasure proof of the memory names one destroyed subject, whose key record is destroyed; the chain verifies.
     */
    private void assertTheProofDestroyedOneSubject(String space, String memoryId, String subject) {
        Resp proof =
                send(io.micronaut.http.HttpRequest.GET("/v1/spaces/" + space + "/memories/" + memoryId + "/erasure"));
        assertThat(proof.status()).as(proof.raw()).isEqualTo(200);
        assertThat(field(proof, "event")).containsEntry("destroyed_subjects", java.util.List.of(subject));
        @SuppressWarnings("unchecked")
        java.util.List<Map<String, Object>> subjectKeys =
                (java.util.List<Map<String, Object>>) proof.json().get("subject_keys");
        assertThat(subjectKeys)
                .singleElement()
                .satisfies(k -> assertThat(k)
                        .containsEntry("subject", subject)
                        .containsEntry("found", true)
                        .containsEntry("destroyed", true));
        assertThat(send(io.micronaut.http.HttpRequest.GET("/v1/spaces/" + space + "/chain/verify"))
                        .json())
                .containsEntry("ok", true);
    }

    /**
     * The proof of erasure: after a memory is erased, no byte of its text is found in the readable payloads of
     * the events, keys, embeddings and outcomes topics, in the search index files, or in the JSON and Markdown exports;
     * a memory that was not erased still reads in plain text (so decryption works), the proof endpoint shows the signed
     * MemoryErased event and the destroyed key, and the chain verifies. What is not claimed is measured and logged: the
     * RocksDB state directories (until a compaction), the changelog topics and the requests topic.
     */
    @Test
    void afterAnErasureNoByteOfTheTextIsLeftInTopicsIndexOrExportsAndTheChainVerifies() throws Exception {
        String space = space();
        String marker = "zebraorchid"
                + java.util.UUID.randomUUID().toString().replace("-", "").substring(0, 12);
        Resp created = post(
                space,
                "/memories",
                Map.of(
                        "content",
                        "My locker code is " + marker,
                        "summary",
                        "locker " + marker,
                        "tags",
                        java.util.List.of("tag" + marker)));
        assertThat(created.status()).as(created.raw()).isEqualTo(201);
        String erased = (String) field(created, "memory").get("id");
        String kept = createId(space, "The user's favourite composer is Satie");
        Resp found = post(space, "/query", Map.of("query", marker)); // a search reopens the index: segments on disk
        assertThat(found.raw()).as(found.raw()).contains(erased);
        Path dataDir = server.getApplicationContext()
                .getBean(io.memorychain.api.config.MemoryConfig.class)
                .getDataDir();
        assertThat(filesContaining(dataDir.resolve("streams"), marker, true))
                .as("the index held it before")
                .isNotEmpty();

        Resp erase = as(
                "user:dana",
                io.micronaut.http.HttpRequest.POST(
                        "/v1/spaces/" + space + "/memories/" + erased + ":erase",
                        Map.of("reason", "right to erasure")));
        assertThat(erase.status()).as(erase.raw()).isEqualTo(200);

        assertThat(send(io.micronaut.http.HttpRequest.GET("/v1/spaces/" + space + "/memories/" + kept))
                        .json())
                .as("decryption works: an unerased memory reads in plain text")
                .containsEntry("content", "The user's favourite composer is Satie");
        assertThat(send(io.micronaut.http.HttpRequest.GET("/v1/spaces/" + space + "/memories/" + erased))
                        .json())
                .containsEntry("content", "[erased]");
        Topics topics = Topics.withPrefix(PREFIX);
        for (String topic : java.util.List.of(topics.events(), topics.keys(), topics.embeddings(), topics.outcomes())) {
            assertThat(recordsContaining(topic, marker))
                    .as("records of " + topic + " holding the text")
                    .isZero();
        }
        assertThat(recordsContaining(topics.events(), "Satie"))
                .as("the kept memory is encrypted too")
                .isZero();
        assertThat(filesContaining(dataDir.resolve("streams"), marker, true))
                .as("search index files")
                .isEmpty();
        Resp json = send(io.micronaut.http.HttpRequest.GET("/v1/spaces/" + space + "/export"));
        assertThat(json.raw()).contains("Satie").doesNotContain(marker);
        String markdown = client().toBlocking()
                .retrieve(
                        authorized(io.micronaut.http.HttpRequest.GET("/v1/spaces/" + space + "/export?format=markdown"))
                                .accept("text/markdown"),
                        String.class);
        assertThat(markdown).contains("Satie").doesNotContain(marker);

        Resp proof =
                send(io.micronaut.http.HttpRequest.GET("/v1/spaces/" + space + "/memories/" + erased + "/erasure"));
        assertThat(proof.status()).as(proof.raw()).isEqualTo(200);
        assertThat(proof.raw()).doesNotContain(marker);
        Map<String, Object> event = field(proof, "event");
        assertThat(event.get("seq")).isEqualTo(3);
        assertThat((String) event.get("hash")).hasSize(64);
        assertThat((String) event.get("signature")).hasSize(128);
        assertThat(event).containsEntry("reason", "right to erasure").containsEntry("actor", "user:dana");
        Map<String, Object> key = field(proof, "key_record");
        assertThat(key)
                .containsEntry("found", true)
                .containsEntry("destroyed", true)
                .containsEntry("destroyed_seq", 3)
                .containsEntry("data_key_id", event.get("data_key_id"))
                .containsEntry("topic", topics.keys());
        @SuppressWarnings("unchecked")
        Map<String, Object> verification =
                (Map<String, Object>) field(proof, "chain").get("verification");
        assertThat(verification).containsEntry("ok", true).containsEntry("events", 3);
        assertThat(send(io.micronaut.http.HttpRequest.GET("/v1/spaces/" + space + "/chain/verify"))
                        .json())
                .containsEntry("ok", true);

        // the cascade: a memory committed from a proposal, with reasons quoting its text, takes the proposal's texts
        // and the reasons with it (sealed under the proposal's and the memory's keys, docs/architecture.md §12)
        String secret = "quokkalantern"
                + java.util.UUID.randomUUID().toString().replace("-", "").substring(0, 12);
        Resp proposed = as(
                "subagent:researcher",
                io.micronaut.http.HttpRequest.POST(
                        "/v1/spaces/" + space + "/proposals",
                        Map.of(
                                "content",
                                "The user's PIN hint is " + secret,
                                "summary",
                                "PIN " + secret,
                                "category",
                                "knowledge",
                                "trigger",
                                "user said " + secret)));
        assertThat(proposed.status()).as(proposed.raw()).isEqualTo(201);
        String pid = (String) field(proposed, "proposal").get("id");
        Resp committed = as(
                "agent:main",
                io.micronaut.http.HttpRequest.POST(
                        "/v1/spaces/" + space + "/proposals/" + pid + ":commit",
                        Map.of("reason", "worth keeping: " + secret)));
        assertThat(committed.status()).as(committed.raw()).isEqualTo(200);
        String fromProposal = (String) field(committed, "memory").get("id");
        Resp deleted = as(
                "agent:main",
                io.micronaut.http.HttpRequest.DELETE(
                        "/v1/spaces/" + space + "/memories/" + fromProposal, Map.of("reason", "obsolete: " + secret)));
        assertThat(deleted.status()).as(deleted.raw()).isLessThan(300);
        assertThat(send(io.micronaut.http.HttpRequest.GET("/v1/spaces/" + space + "/proposals/" + pid))
                        .raw())
                .as("readable before the erasure")
                .contains(secret);

        Resp cascade = as(
                "user:dana",
                io.micronaut.http.HttpRequest.POST(
                        "/v1/spaces/" + space + "/memories/" + fromProposal + ":erase",
                        Map.of("reason", "forget the PIN hint")));
        assertThat(cascade.status()).as(cascade.raw()).isEqualTo(200);

        Resp proposalAfter = send(io.micronaut.http.HttpRequest.GET("/v1/spaces/" + space + "/proposals/" + pid));
        assertThat(proposalAfter.json()).containsEntry("content", "[erased]").containsEntry("reason", "[erased]");
        assertThat(proposalAfter.raw()).doesNotContain(secret);
        assertNoCopyLeft(space, secret, dataDir);
        assertTheProofDestroyedOneSubject(space, fromProposal, pid);

        // a refinement session that changed a memory: its texts (sealed under session/<id>) go with the memory
        String sessionSecret = "pangolinkite"
                + java.util.UUID.randomUUID().toString().replace("-", "").substring(0, 12);
        String law = createId(space, "Never book flights before noon", null, "core");
        Resp started = as(
                "admin:ops",
                io.micronaut.http.HttpRequest.POST(
                        "/v1/spaces/" + space + "/refinements", Map.of("reason", "tidy up " + sessionSecret)));
        assertThat(started.status()).as(started.raw()).isEqualTo(201);
        String session = (String) started.json().get("session_id");
        Resp protect = as(
                "agent:claude",
                io.micronaut.http.HttpRequest.POST(
                        "/v1/spaces/" + space + "/refinements/current/memories/" + law + ":protect", Map.of()));
        assertThat(protect.status()).as(protect.raw()).isEqualTo(200);
        Resp done = as(
                "agent:claude",
                io.micronaut.http.HttpRequest.POST(
                        "/v1/spaces/" + space + "/refinements/current:complete",
                        Map.of("summary", "protected one rule")));
        assertThat(done.status()).as(done.raw()).isEqualTo(200);
        assertThat(send(io.micronaut.http.HttpRequest.GET("/v1/spaces/" + space + "/refinements/" + session))
                        .raw())
                .as("readable before the erasure")
                .contains(sessionSecret);

        Resp sessionErasure = as(
                "user:dana",
                io.micronaut.http.HttpRequest.POST(
                        "/v1/spaces/" + space + "/memories/" + law + ":erase", Map.of("reason", "forget the rule")));
        assertThat(sessionErasure.status()).as(sessionErasure.raw()).isEqualTo(200);

        Resp sessionAfter = send(io.micronaut.http.HttpRequest.GET("/v1/spaces/" + space + "/refinements/" + session));
        assertThat(sessionAfter.json()).containsEntry("reason", "[erased]");
        assertThat(sessionAfter.raw()).doesNotContain(sessionSecret);
        assertThat(recordsContaining(topics.events(), sessionSecret))
                .as("events holding the session's reason")
                .isZero();
        assertThat(send(io.micronaut.http.HttpRequest.GET("/v1/spaces/" + space + "/audit"))
                        .raw())
                .doesNotContain(sessionSecret);
        assertThat(field(
                        send(io.micronaut.http.HttpRequest.GET(
                                "/v1/spaces/" + space + "/memories/" + law + "/erasure")),
                        "event"))
                .containsEntry("destroyed_subjects", java.util.List.of("session/" + session));
        assertThat(send(io.micronaut.http.HttpRequest.GET("/v1/spaces/" + space + "/chain/verify"))
                        .json())
                .containsEntry("ok", true);

        // a memory consolidated from the erased one goes with it (its text was written from the erased one's); the
        // other input, which it superseded, is active again
        String safeWord = "geckoharbor"
                + java.util.UUID.randomUUID().toString().replace("-", "").substring(0, 12);
        String source = createId(space, "The user's safe word is " + safeWord);
        String sibling = createId(space, "The user keeps a safe at home");
        Resp merged = post(
                space,
                "/consolidations",
                Map.of(
                        "ids",
                        java.util.List.of(source, sibling),
                        "content",
                        "The user keeps a safe at home; its word is " + safeWord,
                        "reason",
                        "one safe"));
        assertThat(merged.status()).as(merged.raw()).isEqualTo(201);
        String consolidated = (String) field(merged, "memory").get("id");
        assertThat(send(io.micronaut.http.HttpRequest.GET("/v1/spaces/" + space + "/memories/" + sibling))
                        .json())
                .containsEntry("state", "superseded");

        Resp sourceErasure = as(
                "user:dana",
                io.micronaut.http.HttpRequest.POST(
                        "/v1/spaces/" + space + "/memories/" + source + ":erase",
                        Map.of("reason", "forget the safe word")));
        assertThat(sourceErasure.status()).as(sourceErasure.raw()).isEqualTo(200);

        assertThat(send(io.micronaut.http.HttpRequest.GET("/v1/spaces/" + space + "/memories/" + consolidated))
                        .json())
                .containsEntry("content", "[erased]");
        assertThat(send(io.micronaut.http.HttpRequest.GET("/v1/spaces/" + space + "/memories/" + sibling))
                        .json())
                .containsEntry("state", "active")
                .containsEntry("content", "The user keeps a safe at home");
        assertNoCopyLeft(space, safeWord, dataDir);
        assertTheProofDestroyedOneSubject(space, source, consolidated);

        // not claimed (docs/architecture.md §12): measured and logged for the record
        java.util.List<String> changelogTopics = admin.listTopics().names().get(30, TimeUnit.SECONDS).stream()
                .filter(topic -> topic.startsWith(PREFIX) && topic.endsWith("-changelog"))
                .toList();
        Map<String, Long> changelogs = new java.util.TreeMap<>();
        recordsContaining(changelogTopics, marker).forEach((topic, count) -> {
            if (count > 0) {
                changelogs.put(topic.substring(PREFIX.length()), count);
            }
        });
        org.slf4j.LoggerFactory.getLogger(MemoryApiIT.class)
                .info(
                        "Erasure leftovers: RocksDB/state files {}, requests topic records {}, changelog records {}; of the "
                                + "proposal's text: state files {}, requests topic records {}",
                        filesContaining(dataDir.resolve("streams"), marker, false),
                        recordsContaining(topics.requests(), marker),
                        changelogs,
                        filesContaining(dataDir.resolve("streams"), secret, false)
                                .size(),
                        recordsContaining(topics.requests(), secret));
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> field(Resp resp, String name) {
        return (Map<String, Object>) resp.json().get(name);
    }

    /** Files under the directory whose bytes contain the text: the search index folders only, or everything else. */
    private static java.util.List<Path> filesContaining(Path dir, String text, boolean searchIndex) throws Exception {
        byte[] needle = text.getBytes(java.nio.charset.StandardCharsets.UTF_8);
        try (java.util.stream.Stream<Path> files = java.nio.file.Files.walk(dir)) {
            return files.filter(java.nio.file.Files::isRegularFile)
                    .filter(f -> f.toString().contains("search-index") == searchIndex)
                    .filter(f -> contains(read(f), needle))
                    .toList();
        }
    }

    private static byte[] read(Path file) {
        try {
            return java.nio.file.Files.readAllBytes(file);
        } catch (java.io.IOException e) {
            return new byte[0]; // deleted while walking (a merged segment, a rolled file): nothing left in it
        }
    }

    private static boolean contains(byte[] haystack, byte[] needle) {
        outer:
        for (int i = 0; i <= haystack.length - needle.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (haystack[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return true;
        }
        return false;
    }

    /** Records of the whole topic (aborted transactions included) whose key or value contains the text. */
    private static long recordsContaining(String topic, String text) {
        return recordsContaining(java.util.List.of(topic), text).get(topic);
    }

    /** Per topic, the records whose key or value holds the text: one consumer reads every topic to its end. */
    private static Map<String, Long> recordsContaining(java.util.List<String> topics, String text) {
        byte[] needle = text.getBytes(java.nio.charset.StandardCharsets.UTF_8);
        Map<String, Object> props = new java.util.HashMap<>(SharedKafka.clientProps());
        props.put("isolation.level", "read_uncommitted");
        try (org.apache.kafka.clients.consumer.KafkaConsumer<byte[], byte[]> consumer =
                new org.apache.kafka.clients.consumer.KafkaConsumer<>(
                        props,
                        new org.apache.kafka.common.serialization.ByteArrayDeserializer(),
                        new org.apache.kafka.common.serialization.ByteArrayDeserializer())) {
            java.util.List<TopicPartition> partitions = topics.stream()
                    .flatMap(topic ->
                            consumer.partitionsFor(topic).stream().map(p -> new TopicPartition(topic, p.partition())))
                    .toList();
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> end = consumer.endOffsets(partitions);
            Map<String, Long> found = new java.util.HashMap<>();
            topics.forEach(topic -> found.put(topic, 0L));
            long deadline = System.currentTimeMillis() + 30_000;
            while (partitions.stream().anyMatch(p -> consumer.position(p) < end.get(p))) {
                if (System.currentTimeMillis() > deadline) {
                    throw new IllegalStateException("Timed out reading " + topics);
                }
                for (var record : consumer.poll(java.time.Duration.ofMillis(200))) {
                    if ((record.value() != null && contains(record.value(), needle))
                            || (record.key() != null && contains(record.key(), needle))) {
                        found.merge(record.topic(), 1L, Long::sum);
                    }
                }
            }
            return found;
        }
    }
}
