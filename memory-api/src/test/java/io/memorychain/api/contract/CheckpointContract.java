package io.memorychain.api.contract;

import static org.assertj.core.api.Assertions.assertThat;

import io.memorychain.api.auth.Principal;
import io.memorychain.api.auth.Role;
import io.memorychain.api.backend.MemoryBackend;
import io.memorychain.api.checkpoints.Checkpoint;
import io.memorychain.api.checkpoints.KafkaCheckpointStore;
import io.memorychain.events.content.MasterKey;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.MutableHttpRequest;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.jupiter.api.Test;

/**
 * Agents' checkpoints through the real service (REST): save, load, list and delete per thread, read-your-write, the
 * space and role rules, the input rules and the size limit, and a view rebuilt from the topic alone (as after a
 * restart). Run as a nested class of an integration test, on that test's one service.
 */
public abstract class CheckpointContract {

    /** The contract whose service and helpers the checkpoint tests use. */
    protected abstract MemoryApiContract api();

    protected abstract MemoryBackend backend();

    /** The content master key the service seals checkpoints with; null with encryption off. */
    protected abstract MasterKey contentKey();

    private static String path(String space) {
        return "/v1/spaces/" + space + "/checkpoints";
    }

    private MemoryApiContract.Resp save(String space, Map<String, Object> body) {
        return api().post(space, "/checkpoints", body);
    }

    private MemoryApiContract.Resp load(String space, String query) {
        return api().get(path(space) + "/" + query);
    }

    @Test
    void savesLoadsListsNewestFirstReplacesInPlaceAndDeletesAThread() {
        String space = MemoryApiContract.space();
        String thread = "t-" + UUID.randomUUID();
        MemoryApiContract.Resp first = save(
                space,
                Map.of(
                        "user_id",
                        "u1",
                        "thread_id",
                        thread,
                        "checkpoint_id",
                        "c1",
                        "state",
                        Map.of("step", 1, "messages", List.of("hi")),
                        "metadata",
                        Map.of("node_id", "start")));
        assertThat(first.status()).as(first.raw()).isEqualTo(201);
        assertThat(first.json())
                .containsEntry("space", space)
                .containsEntry("user_id", "u1")
                .containsEntry("thread_id", thread)
                .containsEntry("checkpoint_id", "c1")
                .containsEntry("state", Map.of("step", 1, "messages", List.of("hi")))
                .containsEntry("metadata", Map.of("node_id", "start"))
                .containsEntry("saved_by", "agent:api");
        assertThat(save(
                                space,
                                Map.of(
                                        "user_id",
                                        "u1",
                                        "thread_id",
                                        thread,
                                        "checkpoint_id",
                                        "c2",
                                        "parent_id",
                                        "c1",
                                        "state",
                                        Map.of("step", 2)))
                        .status())
                .isEqualTo(201);
        MemoryApiContract.Resp third = save(
                space,
                Map.of(
                        "user_id",
                        "u1",
                        "thread_id",
                        thread,
                        "parent_id",
                        "c2",
                        "state",
                        Map.of("step", 3, "nested", Map.of("ok", true))));
        assertThat(third.status()).as(third.raw()).isEqualTo(201);
        String generated = (String) third.json().get("checkpoint_id");
        assertThat(generated).as("an id made by the service").isNotBlank();
        // another user's thread of the same id is another thread
        assertThat(save(space, Map.of("user_id", "u2", "thread_id", thread, "state", Map.of("other", true)))
                        .status())
                .isEqualTo(201);

        MemoryApiContract.Resp latest = load(space, "latest?user_id=u1&thread_id=" + thread);
        assertThat(latest.status()).as(latest.raw()).isEqualTo(200);
        assertThat(latest.json())
                .containsEntry("checkpoint_id", generated)
                .containsEntry("parent_id", "c2")
                .containsEntry("state", Map.of("step", 3, "nested", Map.of("ok", true)));
        assertThat(load(space, "c1?user_id=u1&thread_id=" + thread).json())
                .containsEntry("state", Map.of("step", 1, "messages", List.of("hi")));
        assertThat(ids(api().get(path(space) + "?user_id=u1&thread_id=" + thread)))
                .containsExactly(generated, "c2", "c1");

        MemoryApiContract.Resp page1 = api().get(path(space) + "?user_id=u1&limit=2&thread_id=" + thread);
        assertThat(ids(page1)).containsExactly(generated, "c2");
        String cursor = (String) page1.json().get("next_cursor");
        assertThat(cursor).isNotNull();
        MemoryApiContract.Resp page2 =
                api().get(path(space) + "?user_id=u1&limit=2&cursor=" + cursor + "&thread_id=" + thread);
        assertThat(ids(page2)).containsExactly("c1");
        assertThat(page2.json().get("next_cursor")).isNull();

        // saving an existing id replaces it where it stands (a graph updating a past step's state)
        MemoryApiContract.Resp replaced = save(
                space,
                Map.of(
                        "user_id",
                        "u1",
                        "thread_id",
                        thread,
                        "checkpoint_id",
                        "c1",
                        "state",
                        Map.of("step", 1, "edited", true)));
        assertThat(replaced.status()).isEqualTo(201);
        assertThat(replaced.json().get("created_at")).isEqualTo(first.json().get("created_at"));
        assertThat(ids(api().get(path(space) + "?user_id=u1&thread_id=" + thread)))
                .containsExactly(generated, "c2", "c1");
        assertThat(load(space, "c1?user_id=u1&thread_id=" + thread).json())
                .containsEntry("state", Map.of("step", 1, "edited", true));

        MemoryApiContract.Resp deleted =
                api().send(HttpRequest.DELETE(path(space) + "?user_id=u1&thread_id=" + thread));
        assertThat(deleted.status()).as(deleted.raw()).isEqualTo(200);
        assertThat(deleted.json()).containsEntry("deleted", 3).containsEntry("thread_id", thread);
        MemoryApiContract.Resp gone = load(space, "latest?user_id=u1&thread_id=" + thread);
        assertThat(gone.status()).isEqualTo(404);
        assertThat(gone.code()).isEqualTo("NOT_FOUND");
        assertThat(ids(api().get(path(space) + "?user_id=u1&thread_id=" + thread)))
                .isEmpty();
        assertThat(load(space, "latest?user_id=u2&thread_id=" + thread).json())
                .as("the other user's thread stays")
                .containsEntry("state", Map.of("other", true));
    }

    @Test
    void aLoadRightAfterASaveSeesIt() {
        String space = MemoryApiContract.space();
        String thread = "t-" + UUID.randomUUID();
        for (int step = 0; step < 10; step++) {
            assertThat(save(
                                    space,
                                    Map.of(
                                            "thread_id",
                                            thread,
                                            "checkpoint_id",
                                            "s" + step,
                                            "state",
                                            Map.of("step", step)))
                            .status())
                    .isEqualTo(201);
            assertThat(load(space, "latest?thread_id=" + thread).json())
                    .as("step %d", step)
                    .containsEntry("checkpoint_id", "s" + step)
                    .containsEntry("state", Map.of("step", step));
        }
    }

    @Test
    void onlyTheSpacesAgentsSubAgentsAndUsersReachItsCheckpoints() {
        String mine = MemoryApiContract.space();
        String other = MemoryApiContract.space();
        String thread = "t-" + UUID.randomUUID();
        String agent = api().apiKeys()
                .issue(new Principal("cp-bot", Role.AGENT, "cp", List.of(mine)), "test")
                .key()
                .toString();
        String sub = api().apiKeys()
                .issue(new Principal("cp-sub", Role.SUBAGENT, "cp-sub", List.of(mine)), "test")
                .key()
                .toString();
        String user = api().apiKeys()
                .issue(new Principal("cp-user", Role.USER, "ana", List.of(mine)), "test")
                .key()
                .toString();
        Map<String, Object> body = Map.of("thread_id", thread, "state", Map.of("x", 1));
        assertThat(api().send(HttpRequest.POST(path(mine), body).bearerAuth(agent))
                        .status())
                .isEqualTo(201);
        MemoryApiContract.Resp bySub = api().send(
                        HttpRequest.POST(path(mine), Map.of("thread_id", thread, "state", Map.of("x", 2)))
                                .bearerAuth(sub));
        assertThat(bySub.status()).as(bySub.raw()).isEqualTo(201);
        assertThat(bySub.json()).containsEntry("saved_by", "subagent:cp-sub");
        assertThat(api().send(HttpRequest.GET(path(mine) + "/latest?thread_id=" + thread)
                                .bearerAuth(user))
                        .json())
                .containsEntry("state", Map.of("x", 2));

        List<MutableHttpRequest<?>> elsewhere = List.of(
                HttpRequest.POST(path(other), body),
                HttpRequest.GET(path(other) + "/latest?thread_id=" + thread),
                HttpRequest.GET(path(other) + "?thread_id=" + thread),
                HttpRequest.DELETE(path(other) + "?thread_id=" + thread));
        for (MutableHttpRequest<?> call : elsewhere) {
            MemoryApiContract.Resp r = api().send(call.bearerAuth(agent));
            assertThat(r.status())
                    .as(call.getMethodName() + " " + call.getPath())
                    .isEqualTo(403);
            assertThat(r.code()).isEqualTo("SPACE_NOT_ALLOWED");
        }
        MemoryApiContract.Resp admin = api().send(HttpRequest.GET(path(mine) + "/latest?thread_id=" + thread)
                .bearerAuth(api().keyOf("admin:root")));
        assertThat(admin.status()).isEqualTo(403);
        assertThat(admin.code()).isEqualTo("ROLE_NOT_ALLOWED");
        assertThat(admin.raw()).doesNotContain("\"x\"");
    }

    @Test
    void refusesBadInputWithItsCodeAndAStateOverTheLimitWith413() {
        String space = MemoryApiContract.space();
        String thread = "t-" + UUID.randomUUID();
        assertCode(save(space, Map.of("state", Map.of("a", 1))), 400, "INVALID_ARGUMENT");
        assertCode(save(space, Map.of("thread_id", thread)), 400, "INVALID_ARGUMENT");
        assertCode(save(space, Map.of("thread_id", thread, "state", "not an object")), 400, "INVALID_ARGUMENT");
        assertCode(
                save(space, Map.of("thread_id", thread, "checkpoint_id", "latest", "state", Map.of())),
                400,
                "INVALID_ARGUMENT");
        assertCode(save(space, Map.of("thread_id", "a\u0001b", "state", Map.of())), 400, "INVALID_ARGUMENT");
        assertCode(
                save(space, Map.of("thread_id", thread, "state", Map.of(), "colour", "red")), 400, "INVALID_ARGUMENT");
        // the default limit: 512 KiB of state and metadata JSON
        String big = "x".repeat(600 * 1024);
        assertCode(save(space, Map.of("thread_id", thread, "state", Map.of("blob", big))), 413, "TOO_LARGE");
        assertCode(api().get(path(space) + "?limit=0&thread_id=" + thread), 400, "INVALID_ARGUMENT");
        assertCode(api().get(path(space) + "?cursor=abc&thread_id=" + thread), 400, "INVALID_ARGUMENT");
        assertCode(api().get(path(space)), 400, "INVALID_ARGUMENT");
        assertCode(load(space, "nope?thread_id=" + thread), 404, "NOT_FOUND");
        assertThat(ids(api().get(path(space) + "?thread_id=" + thread)))
                .as("nothing saved")
                .isEmpty();
    }

    /**
     * A second store on the same topic with an empty view directory (what a restarted instance does) reads every saved
     * checkpoint back from the topic alone, deleted threads excluded; with encryption on the topic holds no state in
     * plain.
     */
    @Test
    void aViewRebuiltFromTheTopicHoldsTheSavedCheckpoints() throws Exception {
        String space = MemoryApiContract.space();
        String kept = "kept-" + UUID.randomUUID();
        String dropped = "dropped-" + UUID.randomUUID();
        String secret = "plain-text-marker-" + UUID.randomUUID();
        for (int i = 0; i < 3; i++) {
            assertThat(save(
                                    space,
                                    Map.of(
                                            "user_id",
                                            "u",
                                            "thread_id",
                                            kept,
                                            "checkpoint_id",
                                            "k" + i,
                                            "state",
                                            Map.of("step", i, "note", secret)))
                            .status())
                    .isEqualTo(201);
        }
        assertThat(save(space, Map.of("user_id", "u", "thread_id", dropped, "state", Map.of("x", 1)))
                        .status())
                .isEqualTo(201);
        assertThat(api().send(HttpRequest.DELETE(path(space) + "?user_id=u&thread_id=" + dropped))
                        .status())
                .isEqualTo(200);

        MemoryBackend backend = backend();
        Path dir = Path.of(System.getProperty("java.io.tmpdir"), "checkpoint-view-" + UUID.randomUUID());
        try (KafkaCheckpointStore rebuilt = new KafkaCheckpointStore(
                backend.bootstrapServers(),
                backend.topics().checkpoints(),
                (short) 1,
                backend.registry(),
                contentKey(),
                dir,
                Duration.ofSeconds(30),
                Clock.systemUTC())) {
            Checkpoint.ThreadRef thread = new Checkpoint.ThreadRef(space, "u", kept);
            assertThat(rebuilt.list(thread, null, 10))
                    .extracting(Checkpoint::id)
                    .containsExactly("k2", "k1", "k0");
            assertThat(rebuilt.latest(thread))
                    .get()
                    .extracting(Checkpoint::state)
                    .isEqualTo(Map.of("step", 2, "note", secret));
            assertThat(rebuilt.latest(new Checkpoint.ThreadRef(space, "u", dropped)))
                    .isEmpty();
        }
        if (contentKey() != null) {
            assertThat(rawValues(backend, space))
                    .as("the topic's records of the space")
                    .isNotEmpty()
                    .noneMatch(v -> v.contains(secret));
        }
    }

    private static List<String> rawValues(MemoryBackend backend, String space) {
        Map<String, Object> config = Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
                backend.bootstrapServers(),
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG,
                false);
        List<String> values = new ArrayList<>();
        try (KafkaConsumer<byte[], byte[]> consumer =
                new KafkaConsumer<>(config, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            TopicPartition partition = new TopicPartition(backend.topics().checkpoints(), 0);
            consumer.assign(List.of(partition));
            consumer.seekToBeginning(List.of(partition));
            long end = consumer.endOffsets(List.of(partition)).get(partition);
            while (consumer.position(partition) < end) {
                for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(500))) {
                    if (r.value() != null && new String(r.key(), StandardCharsets.UTF_8).startsWith(space + "\0")) {
                        values.add(new String(r.value(), StandardCharsets.ISO_8859_1));
                    }
                }
            }
        }
        return values;
    }

    private static void assertCode(MemoryApiContract.Resp r, int status, String code) {
        assertThat(r.status()).as(r.raw()).isEqualTo(status);
        assertThat(r.code()).as(r.raw()).isEqualTo(code);
        assertThat(r.raw()).doesNotContain("\tat ", "Exception:");
    }

    private static List<String> ids(MemoryApiContract.Resp page) {
        assertThat(page.status()).as(page.raw()).isEqualTo(200);
        return page.list("items").stream()
                .map(m -> (String) m.get("checkpoint_id"))
                .toList();
    }
}
