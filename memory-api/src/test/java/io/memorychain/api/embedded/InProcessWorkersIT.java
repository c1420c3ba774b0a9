package io.memorychain.api.embedded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.memorychain.api.backend.MemoryBackend;
import io.memorychain.events.chain.ChainExport;
import io.memorychain.events.chain.ChainVerifier;
import io.memorychain.events.chain.SignatureMode;
import io.memorychain.events.serde.AvroWireSerde;
import io.memorychain.llm.ScriptedChatServer;
import io.micronaut.context.ApplicationContext;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.client.HttpClient;
import io.micronaut.http.client.exceptions.HttpClientResponseException;
import io.micronaut.runtime.server.EmbeddedServer;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The workers inside the embedded service (docs/architecture.md §12): the ToM job runs in-process when a model is
 * configured and publishes its insights through the chain, and says {@code skipped: no model} otherwise while the rest
 * runs; the consolidation job runs without a model too and merges near-exact copies; their figures are in
 * {@code /health} ({@code workers}) and {@code /prometheus} ({@code memory_worker_*}, {@code memory_llm_*}, Kafka
 * Streams' client metrics).
 */
@Tag("integration")
@Timeout(value = 4, unit = TimeUnit.MINUTES)
class InProcessWorkersIT {

    private static final String SPACE = "assistant"; // the space of the first agent key
    private static final String INSIGHT = "User becomes terse when a problem repeats.";
    private static final String ANSWER = """
            {"insights":[{"summary":"%s","tags":["frustration"],"importance":2}]}""".formatted(INSIGHT);

    @Test
    @SuppressWarnings("unchecked")
    void withoutAModelTomIsSkippedConsolidationMergesNearExactCopiesAndHealthStaysUp() throws Exception {
        Path dataDir = Files.createTempDirectory("workers-no-model");
        Map<String, Object> props = new HashMap<>(props(dataDir));
        props.put("memory.consolidate.interval", "PT1S");
        props.put("memory.metrics.space-refresh", "1s");
        try (EmbeddedServer server = ApplicationContext.run(EmbeddedServer.class, props);
                HttpClient client = server.getApplicationContext().createBean(HttpClient.class, server.getURL())) {
            MemoryBackend backend = server.getApplicationContext().getBean(MemoryBackend.class);
            // the job starts live at the end of the events topic: wait until it owns its partitions
            Awaitility.await()
                    .atMost(Duration.ofSeconds(90))
                    .until(() -> "RUNNING"
                            .equals(((Map<String, Object>)
                                            backend.workerFigures().get("consolidate"))
                                    .get("state")));
            String agent = readKeys(dataDir.resolve("keys/api-keys.env")).getProperty("MEMORY_AGENT_KEY");
            semantic(client, agent, "Alice is allergic to peanuts.");
            semantic(client, agent, "alice is allergic to peanuts");
            // one interval of chain time later, the next event makes the space's run due
            Instant due = Instant.now().plusSeconds(1);
            Awaitility.await()
                    .atMost(Duration.ofSeconds(10))
                    .until(() -> Instant.now().isAfter(due));
            semantic(client, agent, "Project Hermes uses MySQL.");
            Awaitility.await()
                    .atMost(Duration.ofSeconds(90))
                    .untilAsserted(() -> assertThat(client.toBlocking()
                                    .retrieve(
                                            HttpRequest.GET("/v1/spaces/" + SPACE + "/memories?kind=semantic")
                                                    .bearerAuth(agent),
                                            String.class)
                                    .toLowerCase(Locale.ROOT)
                                    .split("allergic to peanuts", -1))
                            .hasSize(2));

            client.toBlocking()
                    .retrieve(
                            HttpRequest.POST("/v1/spaces/" + SPACE + "/query", Map.of("query", "peanut allergy"))
                                    .bearerAuth(agent),
                            Map.class);
            client.toBlocking()
                    .retrieve(
                            HttpRequest.GET("/v1/spaces/" + SPACE + "/chain/verify")
                                    .bearerAuth(agent),
                            Map.class);
            exportedChainVerifiesFromItsBytesAlone(client, agent, backend);
            String admin = readKeys(dataDir.resolve("keys/api-keys.env")).getProperty("MEMORY_ADMIN_KEY");
            assertThatThrownBy(() -> client.toBlocking()
                            .retrieve(
                                    HttpRequest.GET("/v1/spaces/" + SPACE + "/chain/export")
                                            .bearerAuth(admin),
                                    String.class))
                    .as("the export holds content: admins see metadata only")
                    .isInstanceOfSatisfying(
                            HttpClientResponseException.class,
                            e -> assertThat(e.getStatus().getCode()).isEqualTo(403));

            // operational events (docs/architecture.md §2 memory.ops.v1): the ops app counts the chain's creates and
            // the
            // consolidation worker's merge, and the query the API recorded; admins may read the counts
            Awaitility.await()
                    .atMost(Duration.ofSeconds(60))
                    .untilAsserted(() -> assertThat((List<Map<String, Object>>) client.toBlocking()
                                    .retrieve(
                                            HttpRequest.GET("/v1/spaces/" + SPACE + "/ops?bucket=day")
                                                    .bearerAuth(admin),
                                            Map.class)
                                    .get("buckets"))
                            .extracting(b ->
                                    b.get("node") + "/" + b.get("op") + "/" + b.get("status") + "=" + b.get("count"))
                            .contains("api/create/ok=3", "worker/merge/ok=1", "hotpath/search/ok=1"));

            Map<String, Object> health = health(client);
            assertThat(health.get("status")).isEqualTo("UP");
            Map<String, Object> workers = details(health, "workers");
            assertThat(workers).containsEntry("tom", "skipped: no model").containsEntry("reflect", "skipped: no model");
            assertThat((Map<String, Object>) workers.get("lifecycle")).containsKeys("state", "lag", "requested_total");
            assertThat((Map<String, Object>) workers.get("consolidate"))
                    .containsEntry("state", "RUNNING")
                    .containsEntry("near_exact", 1)
                    .containsEntry("requested_total", 1)
                    .containsEntry("llm_calls", 0)
                    .containsKeys(
                            "runs",
                            "lag",
                            "last_check_at",
                            "last_run_at",
                            "partitions",
                            "memories_held",
                            "vectors_held")
                    .as("its runs were planned: no event waits behind one")
                    .containsEntry("events_waiting", 0);
            // Streams' own figures are bound off the start-up path: wait for the last application's
            Awaitility.await()
                    .atMost(Duration.ofSeconds(30))
                    .until(() -> client.toBlocking()
                            .retrieve(HttpRequest.GET("/prometheus").bearerAuth(admin), String.class)
                            .contains("rocksdb_state_id=\"view-memories\""));
            String prometheus =
                    client.toBlocking().retrieve(HttpRequest.GET("/prometheus").bearerAuth(admin), String.class);
            assertThat(prometheus)
                    .contains("memory_worker_lag{worker=\"lifecycle\"}")
                    .contains("memory_worker_requests_total{worker=\"lifecycle\"}")
                    .contains("memory_worker_last_run_seconds{worker=\"lifecycle\"}")
                    .contains("memory_worker_requests_total{worker=\"consolidate\"} 1.0")
                    // the job holds the memories it read (the three written and the merge's) and their vectors
                    .containsPattern("memory_worker_memories_held\\{worker=\"consolidate\"} [1-9]")
                    .containsPattern("memory_worker_vectors_held\\{worker=\"consolidate\"} [1-9]")
                    .contains("memory_worker_events_waiting{worker=\"consolidate\"} 0.0")
                    .doesNotContain("worker=\"tom\"")
                    .contains("memory_llm_calls_total{outcome=\"ok\",purpose=\"tom\"} 0.0")
                    .contains("memory_llm_calls_total{outcome=\"ok\",purpose=\"consolidate\"} 0.0")
                    .contains("app=\"sequencer\"")
                    .contains("kafka_stream_")
                    .contains("memory_chain_verifications_total{result=\"ok\"} 1.0")
                    .contains("memory_ops_total{node=\"hotpath\",op=\"search\",status=\"ok\"} 1.0")
                    .contains("memory_streams_lag{app=\"projection\"}")
                    .containsPattern("(?m)^memory_search_index_rebuilds_total [1-9]")
                    .contains("memory_search_index_reuses_total 0.0")
                    .containsPattern("(?m)^memory_search_index_building_graphs [0-9]")
                    // a window store's RocksDB figures too (StreamsMeterFilters: one tag key for every store type)
                    .containsPattern(
                            "kafka_stream_state_size_all_mem_tables\\{[^}]*rocksdb_state_id=\"sequencer-requests\"")
                    .containsPattern("kafka_stream_state_estimate_num_keys\\{[^}]*rocksdb_state_id=\"view-memories\"")
                    // and only the figures kept per store
                    .doesNotContain("kafka_stream_state_num_entries_imm_mem_tables");
            // the per-space series is refreshed every second here (15 s by default); then every metric the Grafana
            // dashboard plots is scraped
            Awaitility.await()
                    .atMost(Duration.ofSeconds(60))
                    .until(() -> client.toBlocking()
                            .retrieve(HttpRequest.GET("/prometheus").bearerAuth(admin), String.class)
                            .contains("memory_chain_last_seq{space=\"" + SPACE + "\"}"));
            String scrape =
                    client.toBlocking().retrieve(HttpRequest.GET("/prometheus").bearerAuth(admin), String.class);
            assertThat(dashboardMetrics())
                    .isNotEmpty()
                    .allSatisfy(metric -> assertThat(scrape)
                            .as("dashboard metric %s on /prometheus", metric)
                            .containsPattern("(?m)^" + metric + "[{ ]"));
        }
    }

    /**
     * {@code GET chain/export}: a header, then one line per event whose {@code value} bytes alone (decoded with the
     * writer schema they name, then hash-linked and signature-checked) verify as the space's whole chain.
     */
    private static void exportedChainVerifiesFromItsBytesAlone(HttpClient client, String agent, MemoryBackend backend)
            throws IOException {
        String export = client.toBlocking()
                .retrieve(
                        HttpRequest.GET("/v1/spaces/" + SPACE + "/chain/export").bearerAuth(agent), String.class);
        ObjectMapper json = new ObjectMapper();
        String[] lines = export.split("\n");
        JsonNode header = json.readTree(lines[0]);
        assertThat(header.get("format").asText()).isEqualTo(ChainExport.FORMAT);
        assertThat(header.get("space").asText()).isEqualTo(SPACE);
        ChainVerifier verifier = new ChainVerifier(SPACE, backend.publicKeys(), SignatureMode.ALL);
        for (int i = 1; i < lines.length; i++) {
            byte[] value = Base64.getDecoder()
                    .decode(json.readTree(lines[i]).get("value").asText());
            verifier.accept(AvroWireSerde.decodeAsWritten(backend.registry(), value));
        }
        assertThat(verifier.result().ok()).as(verifier.result().toString()).isTrue();
        assertThat(verifier.lastSeq()).isEqualTo(lines.length - 1L).isGreaterThanOrEqualTo(3);
    }

    /** The metric names the Grafana dashboard's queries use (deploy/grafana/memory-chain-dashboard.json). */
    private static Set<String> dashboardMetrics() throws IOException {
        JsonNode dashboard = new ObjectMapper()
                .readTree(Path.of("..", "deploy", "grafana", "memory-chain-dashboard.json")
                        .toFile());
        Set<String> metrics = new TreeSet<>();
        Pattern name = Pattern.compile("\\b(?:memory|http|jvm|kafka|process)_[a-z_]+");
        for (JsonNode panel : dashboard.get("panels")) {
            for (JsonNode target : panel.get("targets")) {
                Matcher m = name.matcher(target.get("expr").asText());
                while (m.find()) {
                    metrics.add(m.group());
                }
            }
        }
        return metrics;
    }

    private static void semantic(HttpClient client, String agent, String content) {
        client.toBlocking()
                .retrieve(
                        HttpRequest.POST(
                                        "/v1/spaces/" + SPACE + "/memories",
                                        Map.of("content", content, "kind", "semantic"))
                                .bearerAuth(agent),
                        Map.class);
    }

    @Test
    @SuppressWarnings("unchecked")
    void withAModelTomAndTheReflectionJobRunInTheServiceAndTheirRequestsAreOnTheChain() throws Exception {
        Path dataDir = Files.createTempDirectory("workers-tom");
        try (ScriptedChatServer llm = new ScriptedChatServer()) {
            llm.replyContent(ANSWER, 300, 60);
            Map<String, Object> props = new HashMap<>(props(dataDir));
            props.put("memory.llm.base-url", llm.baseUrl());
            props.put("memory.llm.model", "tom-model");
            props.put("memory.tom.min-items", 2);
            try (EmbeddedServer server = ApplicationContext.run(EmbeddedServer.class, props);
                    HttpClient client = server.getApplicationContext().createBean(HttpClient.class, server.getURL())) {
                MemoryBackend backend = server.getApplicationContext().getBean(MemoryBackend.class);
                // the job starts live at the end of the events topic: wait until it owns its partitions
                Awaitility.await()
                        .atMost(Duration.ofSeconds(90))
                        .until(() -> "RUNNING"
                                        .equals(((Map<String, Object>)
                                                        backend.workerFigures().get("tom"))
                                                .get("state"))
                                && "RUNNING"
                                        .equals(((Map<String, Object>)
                                                        backend.workerFigures().get("reflect"))
                                                .get("state")));
                String agent = readKeys(dataDir.resolve("keys/api-keys.env")).getProperty("MEMORY_AGENT_KEY");
                String admin = readKeys(dataDir.resolve("keys/api-keys.env")).getProperty("MEMORY_ADMIN_KEY");
                for (String content : new String[] {
                    "The user reported the export bug again, in one line.", "The user asked for a date for the fix."
                }) {
                    client.toBlocking()
                            .retrieve(
                                    HttpRequest.POST(
                                                    "/v1/spaces/" + SPACE + "/memories",
                                                    Map.of("content", content, "kind", "episodic", "thread_id", "t1"))
                                            .bearerAuth(agent),
                                    Map.class);
                }
                Awaitility.await()
                        .atMost(Duration.ofSeconds(90))
                        .untilAsserted(() -> assertThat(client.toBlocking()
                                        .retrieve(
                                                HttpRequest.GET("/v1/spaces/" + SPACE + "/memories?kind=insight")
                                                        .bearerAuth(agent),
                                                String.class))
                                .contains(INSIGHT));
                assertThat(llm.received()).hasSize(1);

                Map<String, Object> health = health(client);
                assertThat(health.get("status")).isEqualTo("UP");
                Map<String, Object> tom =
                        (Map<String, Object>) details(health, "workers").get("tom");
                assertThat(tom)
                        .containsEntry("state", "RUNNING")
                        .containsEntry("runs", 1)
                        .containsEntry("requested_total", 1)
                        .containsEntry("llm_calls", 1)
                        .containsEntry("llm_tokens", 360)
                        .containsKeys("lag", "last_check_at", "last_run_at", "partitions");
                // Streams' own figures are bound off the start-up path: wait for the last application's
                Awaitility.await()
                        .atMost(Duration.ofSeconds(30))
                        .until(() -> client.toBlocking()
                                .retrieve(HttpRequest.GET("/prometheus").bearerAuth(admin), String.class)
                                .contains("rocksdb_state_id=\"view-memories\""));
                String prometheus = client.toBlocking()
                        .retrieve(HttpRequest.GET("/prometheus").bearerAuth(admin), String.class);
                assertThat(prometheus)
                        .contains("memory_worker_requests_total{worker=\"tom\"} 1.0")
                        .contains("memory_worker_lag{worker=\"tom\"}")
                        .contains("memory_worker_last_run_seconds{worker=\"tom\"}")
                        .contains("memory_llm_calls_total{outcome=\"ok\",purpose=\"tom\"} 1.0")
                        .contains("memory_llm_tokens_total{purpose=\"tom\"} 360.0");

                reflect(client, llm, readKeys(dataDir.resolve("keys/api-keys.env")), agent);
            }
        }
    }

    /**
     * The reflection job in the service (docs/architecture.md §18): a manual request, five phases against the scripted
     * model, the pending reflection on the chain, a partial approval applied with the decision, and the chain verifies.
     */
    @SuppressWarnings("unchecked")
    private static void reflect(HttpClient client, ScriptedChatServer llm, Properties keys, String agent) {
        String user = keys.getProperty("MEMORY_USER_KEY");
        String path = "/v1/spaces/" + SPACE + "/reflections";
        llm.replyContent("{\"priorities\":[\"the export bug\"]}", 500, 20);
        llm.replyContent(
                "{\"guidance\":\"first reflection\",\"evolution_insights\":[\"The user wants dates\"]}", 400, 30);
        llm.replyContent(
                "{\"changes\":[{\"type\":\"create_memory\",\"content\":\"The export bug is the user's "
                        + "top issue\",\"reason\":\"reported twice\"},{\"type\":\"create_memory\",\"content\":\"The "
                        + "user expects fix dates\",\"reason\":\"asked for one\"}],\"contradictions\":[]}",
                600,
                80);
        llm.replyContent(
                "{\"block_edits\":[{\"label\":\"goals\",\"content\":\"Fix the export bug\","
                        + "\"reason\":\"active context\"}]}",
                500,
                30);
        llm.replyContent("{\"summary\":\"# Reflection\\n- the export bug\",\"questions\":[]}", 500, 40);
        client.toBlocking()
                .exchange(
                        HttpRequest.POST(path, Map.of("reason", "reflect on your memories"))
                                .bearerAuth(user),
                        Map.class);
        Map<String, Object> pending = Awaitility.await()
                .atMost(Duration.ofSeconds(90))
                .until(
                        () -> {
                            Map<String, Object> log = client.toBlocking()
                                    .retrieve(
                                            HttpRequest.GET(path + "?status=pending")
                                                    .bearerAuth(agent),
                                            Map.class);
                            java.util.List<Map<String, Object>> items =
                                    (java.util.List<Map<String, Object>>) log.get("items");
                            return items.isEmpty() ? null : items.get(0);
                        },
                        java.util.Objects::nonNull);
        assertThat(llm.received()).as("ToM's call, then the five phases").hasSize(6);
        assertThat(pending)
                .containsEntry("trigger", "manual")
                .containsEntry("output_tokens", 200)
                .containsEntry("proposed_by", Map.of("type", "worker", "id", "reflect"));
        assertThat((java.util.List<Map<String, Object>>) pending.get("changes"))
                .extracting(c -> c.get("type"))
                .containsExactly("create_memory", "create_memory", "update_block");
        assertThat(client.toBlocking()
                        .retrieve(
                                HttpRequest.GET("/v1/spaces/" + SPACE + "/memories")
                                        .bearerAuth(agent),
                                String.class))
                .as("never auto-applied")
                .doesNotContain("top issue");

        Map<String, Object> decided = client.toBlocking()
                .retrieve(
                        HttpRequest.POST(
                                        path + "/" + pending.get("id") + ":decide",
                                        Map.of(
                                                "decision",
                                                "partial",
                                                "change_ids",
                                                java.util.List.of("c1", "c3"),
                                                "reason",
                                                "not the dates"))
                                .bearerAuth(user),
                        Map.class);
        assertThat(decided)
                .containsEntry("status", "partially_approved")
                .containsEntry("applied_change_ids", java.util.List.of("c1", "c3"));
        assertThat(client.toBlocking()
                        .retrieve(
                                HttpRequest.GET("/v1/spaces/" + SPACE + "/memories")
                                        .bearerAuth(agent),
                                String.class))
                .contains("top issue")
                .doesNotContain("fix dates");
        assertThat(client.toBlocking()
                        .retrieve(
                                HttpRequest.GET("/v1/spaces/" + SPACE + "/blocks/goals")
                                        .bearerAuth(agent),
                                Map.class))
                .containsEntry("content", "Fix the export bug");
        Map<String, Object> verified = client.toBlocking()
                .retrieve(
                        HttpRequest.GET("/v1/spaces/" + SPACE + "/chain/verify").bearerAuth(agent), Map.class);
        assertThat(verified).containsEntry("ok", true);
        Map<String, Object> figures =
                (Map<String, Object>) details(health(client), "workers").get("reflect");
        assertThat(figures)
                .containsEntry("state", "RUNNING")
                .containsEntry("proposed", 1)
                .containsEntry("requested_total", 1)
                .containsEntry("llm_calls", 5);
        assertThat(llm.received()).as("the decision starts no new reflection").hasSize(6);
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> health(HttpClient client) {
        try {
            return client.toBlocking().retrieve(HttpRequest.GET("/health"), Map.class);
        } catch (HttpClientResponseException e) {
            return e.getResponse().getBody(Map.class).orElseThrow();
        }
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> details(Map<String, Object> health, String indicator) {
        Map<String, Object> all = (Map<String, Object>) health.get("details");
        return (Map<String, Object>) ((Map<String, Object>) all.get(indicator)).get("details");
    }

    private static Map<String, Object> props(Path dataDir) throws IOException {
        return Map.of(
                "micronaut.server.port",
                -1,
                "micronaut.http.client.read-timeout",
                "60s",
                "memory.data-dir",
                dataDir.toString(),
                "memory.embedded.broker-port",
                freePort(),
                "memory.embedded.controller-port",
                freePort(),
                "memory.startup-timeout",
                "120s",
                "grpc.server.port",
                freePort());
    }

    private static Properties readKeys(Path file) throws IOException {
        Properties keys = new Properties();
        try (var reader = Files.newBufferedReader(file)) {
            keys.load(reader);
        }
        return keys;
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }
}
