package io.memorychain.api.contract;

import static org.assertj.core.api.Assertions.assertThat;

import io.memorychain.api.auth.ApiKeys;
import io.memorychain.api.auth.Principal;
import io.memorychain.api.auth.Role;
import io.memorychain.avro.ActorType;
import io.memorychain.avro.CreateMemory;
import io.memorychain.avro.MemoryOutcome;
import io.memorychain.avro.MemoryRequest;
import io.memorychain.events.Requests;
import io.memorychain.events.chain.ChainKeys;
import io.memorychain.events.chain.Checkpoint;
import io.memorychain.events.chain.KeyRing;
import io.micronaut.core.type.Argument;
import io.micronaut.http.HttpHeaders;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.MediaType;
import io.micronaut.http.MutableHttpRequest;
import io.micronaut.http.client.HttpClient;
import io.micronaut.http.client.exceptions.HttpClientResponseException;
import io.micronaut.json.JsonMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

/**
 * The REST contract, run against the real topologies on TopologyTestDriver ({@code MemoryApiHttpTest}) and against a
 * real Kafka with the real sequencer and projection ({@code MemoryApiIT}). Every bad-input case asserts its code AND
 * that nothing reached the chain: bad input is not even published; state-dependent rejections leave the audit log and
 * the chain unchanged.
 */
public abstract class MemoryApiContract {

    protected abstract HttpClient client();

    protected abstract JsonMapper json();

    /** Requests published so far, all spaces (requests topic end offsets, or the topology backend's count). */
    protected abstract long publishedRequests();

    /** Publishes a request past the REST layer, as an agent embedding MemoryPublisher would; its outcome. */
    protected abstract MemoryOutcome publishDirectly(MemoryRequest request);

    /** The application's key service, to issue the test callers' keys. */
    protected abstract ApiKeys apiKeys();

    /** Who calls when a test names no one: an agent key on every space. */
    protected static final String DEFAULT_CALLER = "agent:api";
    /** A person editing files by hand. */
    protected static final String HAND = "user:manual";

    private final Map<String, String> keys = new ConcurrentHashMap<>();

    // ---------------------------------------------------------------- happy paths

    @Test
    void createsReadsListsUpdatesDeletesAndRestoresAMemory() {
        String space = space();
        Resp created = post(
                space,
                "/memories",
                Map.of(
                        "content",
                        "Prefers green tea",
                        "kind",
                        "episodic",
                        "tags",
                        List.of("drinks"),
                        "importance",
                        4,
                        "user_id",
                        "u-1",
                        "created_at",
                        "2024-05-01T10:00:00Z"));
        assertThat(created.status).as(created.raw).isEqualTo(201);
        Map<String, Object> memory = created.map("memory");
        String id = (String) memory.get("id");
        assertThat(memory)
                .containsEntry("content", "Prefers green tea")
                .containsEntry("kind", "episodic")
                .containsEntry("state", "active")
                .containsEntry("version", 1)
                .containsEntry("importance", 4)
                .containsEntry("user_id", "u-1")
                .containsEntry("space", space)
                .containsEntry("created_at", "2024-05-01T10:00:00Z");
        assertThat(((Number) created.json.get("seq")).longValue()).isPositive();
        assertThat(created.headers.get(HttpHeaders.LOCATION)).isEqualTo("/v1/spaces/" + space + "/memories/" + id);
        assertThat(created.headers.get("Server-Timing"))
                .as("where the write's time went")
                .matches(
                        "check;dur=[\\d.]+, sequence;dur=[\\d.]+, commit;dur=[\\d.]+, apply;dur=[\\d.]+, read;dur=[\\d.]+, total;dur=[\\d.]+");

        Resp got = get("/v1/spaces/" + space + "/memories/" + id);
        assertThat(got.status).isEqualTo(200);
        assertThat(got.json).containsEntry("id", id).containsEntry("content", "Prefers green tea");
        assertThat(got.headers.get(HttpHeaders.ETAG)).isEqualTo("\"1\"");
        assertThat(got.headers.get("Server-Timing")).matches("total;dur=[\\d.]+");

        assertThat(ids(get("/v1/spaces/" + space + "/memories"))).containsExactly(id);
        assertThat(ids(get("/v1/spaces/" + space + "/memories?kind=episodic&limit=10")))
                .containsExactly(id);
        assertThat(ids(get("/v1/spaces/" + space + "/memories?kind=semantic"))).isEmpty();

        Resp patched = send(
                HttpRequest.PATCH("/v1/spaces/" + space + "/memories/" + id, Map.of("content", "Prefers oolong tea"))
                        .header("If-Match", "\"1\""));
        assertThat(patched.status).as(patched.raw).isEqualTo(200);
        assertThat(patched.map("memory"))
                .containsEntry("content", "Prefers oolong tea")
                .containsEntry("version", 2);

        Resp deleted =
                send(HttpRequest.DELETE("/v1/spaces/" + space + "/memories/" + id, Map.of("reason", "user asked")));
        assertThat(deleted.status).as(deleted.raw).isEqualTo(200);
        assertThat(deleted.map("memory")).containsEntry("state", "soft_deleted");
        assertThat(ids(get("/v1/spaces/" + space + "/memories"))).isEmpty();
        assertThat(ids(get("/v1/spaces/" + space + "/memories?state=soft_deleted")))
                .containsExactly(id);

        Resp restored = post(space, "/memories/" + id + ":restore", null);
        assertThat(restored.status).as(restored.raw).isEqualTo(200);
        assertThat(restored.map("memory")).containsEntry("state", "active");

        Resp history = get("/v1/spaces/" + space + "/memories/" + id + "/history");
        assertThat(history.status).isEqualTo(200);
        assertThat(history.list("items")).hasSize(4);
        assertThat(history.list("items").get(0)).containsEntry("event_type", "MemoryCreated");
        assertThat(history.list("items").get(1).get("before")).isNotNull();

        List<Map<String, Object>> audit = get("/v1/spaces/" + space + "/audit").list("items");
        assertThat(audit).extracting(e -> ((Number) e.get("seq")).longValue()).containsExactly(1L, 2L, 3L, 4L);
        assertThat(audit.get(0).get("actor")).isEqualTo(Map.of("type", "agent", "id", "api"));
        assertThat(get("/v1/spaces/" + space + "/audit?after_seq=2&limit=1").list("items"))
                .extracting(e -> ((Number) e.get("seq")).longValue())
                .containsExactly(3L);
    }

    @Test
    void answersAuditQuestionsAndSummarisesAMonth() {
        String space = space();
        String forgotten = (String) post(space, "/memories", Map.of("content", "Prefers green tea"))
                .map("memory")
                .get("id");
        send(HttpRequest.POST("/v1/spaces/" + space + "/memories", Map.of("content", "Lives in Lisbon"))
                .header("X-Actor", "agent:claude"));
        // by the user: an agent's edit of the critical persona block would add its alert (docs/architecture.md §21)
        as(HAND, HttpRequest.PUT("/v1/spaces/" + space + "/blocks/persona", Map.of("content", "I am careful.")));
        as(
                HAND,
                HttpRequest.PUT(
                        "/v1/spaces/" + space + "/blocks/persona", Map.of("content", "I am careful and brief.")));
        send(HttpRequest.DELETE("/v1/spaces/" + space + "/memories/" + forgotten, Map.of("reason", "user asked")));
        String audit = "/v1/spaces/" + space + "/audit";

        assertThat(types(get(audit + "?memory_id=" + forgotten)))
                .as("why was it forgotten")
                .containsExactly("MemoryCreated", "MemoryDeleted");
        assertThat(seqs(get(audit + "?actor=agent:claude")))
                .as("what did claude do")
                .containsExactly(2L);
        assertThat(seqs(get(audit + "?actor=claude"))).containsExactly(2L);
        assertThat(seqs(get(audit + "?label=persona")))
                .as("who changed the persona block")
                .containsExactly(3L, 4L);
        assertThat(seqs(get(audit + "?type=MemoryDeleted,MemoryCreated"))).containsExactly(1L, 2L, 5L);
        assertThat(seqs(get(audit + "?order=desc&limit=2")))
                .as("what changed recently")
                .containsExactly(5L, 4L);
        Resp paged = get(audit + "?type=BlockUpdated&limit=1");
        assertThat(seqs(paged)).containsExactly(3L);
        assertThat(seqs(get(audit + "?type=BlockUpdated&limit=1&after_seq=" + paged.json.get("next_after_seq"))))
                .containsExactly(4L);
        String at = (String) get(audit).list("items").get(0).get("occurred_at");
        assertThat(seqs(get(audit + "?since=2999-01-01T00:00:00Z"))).isEmpty();
        assertThat(seqs(get(audit + "?until=" + at))).isEmpty();
        assertThat(get(audit + "?since=yesterday").code()).isEqualTo("INVALID_ARGUMENT");
        assertThat(get(audit + "?order=sideways").code()).isEqualTo("INVALID_ARGUMENT");

        Resp digest = get(audit + "/digest?month=" + at.substring(0, 7));
        assertThat(digest.status).as(digest.raw).isEqualTo(200);
        assertThat(digest.json).containsEntry("events", 5).containsEntry("month", at.substring(0, 7));
        assertThat(digest.map("by_type"))
                .containsEntry("BlockUpdated", 2)
                .containsEntry("MemoryCreated", 2)
                .containsEntry("MemoryDeleted", 1);
        assertThat(digest.map("by_actor")).containsEntry("agent:claude", 1);
        assertThat(digest.list("block_changes")).hasSize(2);
        assertThat((String) digest.json.get("markdown"))
                .startsWith("# Audit Digest — ")
                .contains("- 5 chain events by 3 actor(s)")
                .contains("- 2 core block change(s)");
        assertThat(get(audit + "/digest?month=1999-01").json).containsEntry("events", 0);
        assertThat(get(audit + "/digest?month=2026-13").code()).isEqualTo("INVALID_ARGUMENT");

        as(HAND, HttpRequest.PUT("/v1/spaces/" + space + "/blocks/persona", Map.of("content", "I am brief.")));
        String sixthAt =
                (String) get(audit + "?order=desc&limit=1").list("items").get(0).get("occurred_at");
        Resp again = get(audit + "/digest?month=" + at.substring(0, 7));
        boolean sameMonth = sixthAt.startsWith(at.substring(0, 7));
        assertThat(again.json)
                .as("a digest asked again counts what was appended since")
                .containsEntry("events", sameMonth ? 6 : 5);
        assertThat(again.list("block_changes")).hasSize(sameMonth ? 3 : 2);
    }

    private static List<Long> seqs(Resp page) {
        assertThat(page.status).as(page.raw).isEqualTo(200);
        return page.list("items").stream()
                .map(e -> ((Number) e.get("seq")).longValue())
                .toList();
    }

    private static List<String> types(Resp page) {
        return page.list("items").stream()
                .map(e -> (String) e.get("event_type"))
                .toList();
    }

    @Test
    void exportsASpaceAsJsonAndMarkdownAndImportsItIntoAnotherOnce() {
        String space = space();
        String tea = (String) post(
                        space,
                        "/memories",
                        Map.of(
                                "content",
                                "Prefers green tea",
                                "user_id",
                                "u-1",
                                "created_at",
                                "2024-05-01T10:00:00Z",
                                "tags",
                                List.of("drinks")))
                .map("memory")
                .get("id");
        String lisbon = (String) post(space, "/memories", Map.of("content", "Lives in Lisbon", "kind", "episodic"))
                .map("memory")
                .get("id");
        assertThat(post(space, "/memories/" + tea + "/links", Map.of("to", lisbon, "type", "related_to")).status)
                .isEqualTo(201);
        as(HAND, HttpRequest.PUT("/v1/spaces/" + space + "/blocks/persona", Map.of("content", "I am careful.")));

        Resp export = get("/v1/spaces/" + space + "/export");
        assertThat(export.status).as(export.raw).isEqualTo(200);
        assertThat(export.json)
                .containsEntry("format", "memory-chain-export/1")
                .containsEntry("space", space)
                .containsEntry("head_seq", 4);
        assertThat(export.list("memories")).extracting(m -> m.get("id")).containsExactly(tea, lisbon);
        assertThat(export.list("blocks"))
                .singleElement()
                .satisfies(b -> assertThat(b).containsEntry("block_label", "persona"));
        assertThat(export.list("relations")).hasSize(1);
        Resp mine = get("/v1/spaces/" + space + "/export?user_id=u-1");
        assertThat(mine.list("memories")).extracting(m -> m.get("id")).containsExactly(tea);
        assertThat(mine.list("blocks")).isEmpty();
        assertThat(mine.list("relations")).isEmpty();
        String markdown = client().toBlocking()
                .retrieve(
                        authorized(HttpRequest.GET("/v1/spaces/" + space + "/export?format=markdown"))
                                .accept("text/markdown"),
                        String.class);
        assertThat(markdown)
                .startsWith("# Memories of space " + space)
                .contains("## Block: persona (v1)")
                .contains("- Prefers green tea")
                .contains("created 2024-05-01T10:00:00Z")
                .contains("tags drinks");
        assertThat(get("/v1/spaces/" + space + "/export?format=pdf").code()).isEqualTo("INVALID_ARGUMENT");

        // a user's history: every event touching their memories (the create, the link), as JSON or as Markdown;
        // user_id=me is the calling user's own id
        String history = "/v1/spaces/" + space + "/audit?user_id=";
        assertThat(seqs(get(history + "u-1"))).containsExactly(1L, 3L);
        assertThat(seqs(as("user:u-1", HttpRequest.GET(history + "me")))).containsExactly(1L, 3L);
        assertThat(get(history + "me").code()).as("an agent has no user id").isEqualTo("INVALID_ARGUMENT");
        assertThat(client().toBlocking()
                        .retrieve(
                                authorized(HttpRequest.GET(history + "u-1&format=markdown"))
                                        .accept("text/markdown"),
                                String.class))
                .startsWith("# History of user u-1 in space " + space)
                .contains("2 chain event(s), seq 1 to 3");
        assertThat(get(history + "u-1&format=pdf").code()).isEqualTo("INVALID_ARGUMENT");

        String target = space();
        Resp imported = post(target, "/import", export.json);
        assertThat(imported.status).as(imported.raw).isEqualTo(200);
        assertThat(imported.json)
                .containsEntry("memories", 2)
                .containsEntry("blocks", 1)
                .containsEntry("relations", 1);
        Map<String, Object> ids = imported.map("ids");
        String newTea = (String) ids.get(tea);
        assertThat(get("/v1/spaces/" + target + "/memories/" + newTea).json)
                .containsEntry("content", "Prefers green tea")
                .containsEntry("created_at", "2024-05-01T10:00:00Z")
                .containsEntry("user_id", "u-1");
        assertThat(get("/v1/spaces/" + target + "/memories/" + newTea + "/relations").raw)
                .contains((String) ids.get(lisbon));
        assertThat(get("/v1/spaces/" + target + "/blocks/persona").json).containsEntry("content", "I am careful.");
        Resp again = post(target, "/import", export.json);
        assertThat(again.map("ids")).as("a retried import writes nothing twice").isEqualTo(ids);
        assertThat(ids(get("/v1/spaces/" + target + "/memories?kind=semantic"))).containsExactly(newTea);
        assertThat(post(target, "/import", Map.of("format", "other")).code()).isEqualTo("INVALID_ARGUMENT");
    }

    @Test
    void recordsTheActorHeaderOnTheChain() {
        String space = space();
        Resp created = send(HttpRequest.POST("/v1/spaces/" + space + "/memories", Map.of("content", "x"))
                .header("X-Actor", "agent:claude"));
        assertThat(created.status).as(created.raw).isEqualTo(201);
        assertThat(get("/v1/spaces/" + space + "/audit").list("items").get(0).get("actor"))
                .isEqualTo(Map.of("type", "agent", "id", "claude"));
    }

    @Test
    void retryWithTheSameIdempotencyKeyReturnsTheOriginalOutcome() {
        String space = space();
        String key = UUID.randomUUID().toString();
        Resp first = send(HttpRequest.POST("/v1/spaces/" + space + "/memories", Map.of("content", "once"))
                .header("Idempotency-Key", key));
        Resp again = send(HttpRequest.POST("/v1/spaces/" + space + "/memories", Map.of("content", "once"))
                .header("Idempotency-Key", key));
        assertThat(first.status).isEqualTo(201);
        assertThat(again.status).isEqualTo(201);
        assertThat(again.map("memory").get("id")).isEqualTo(first.map("memory").get("id"));
        assertThat(again.json.get("seq")).isEqualTo(first.json.get("seq"));
        assertThat(first.headers.get("X-Request-Id")).isEqualTo(key);
        assertThat(get("/v1/spaces/" + space + "/audit").list("items")).hasSize(1);
    }

    @Test
    void protectsPinsAndRefusesToDeleteOrConsolidateConstitutionalMemories() {
        String space = space();
        String a = createId(space, "Never share the user's address");
        String b = createId(space, "Address is somewhere");
        assertRejectedByChain(space, "NOT_IN_REFINEMENT", 403, () -> post(space, "/memories/" + a + ":protect", null));
        Resp protectedResp = send(HttpRequest.POST("/v1/spaces/" + space + "/memories/" + a + ":protect", Map.of())
                .header("X-Actor", "admin:ops"));
        assertThat(protectedResp.status).as(protectedResp.raw).isEqualTo(200);
        assertThat(protectedResp.map("memory")).containsEntry("constitutional", true);
        assertThat(post(space, "/memories/" + a + ":pin", null).map("memory")).containsEntry("pinned", true);
        assertThat(post(space, "/memories/" + a + ":unpin", null).map("memory")).containsEntry("pinned", false);

        assertRejectedByChain(
                space, "CONSTITUTIONAL", 403, () -> send(HttpRequest.DELETE("/v1/spaces/" + space + "/memories/" + a)));
        assertRejectedByChain(
                space,
                "CONSTITUTIONAL",
                403,
                () -> post(space, "/consolidations", Map.of("ids", List.of(a, b), "content", "merged")));

        assertRejectedByChain(space, "FORBIDDEN", 403, () -> post(space, "/memories/" + a + ":unprotect", null));
        assertThat(send(HttpRequest.POST("/v1/spaces/" + space + "/memories/" + a + ":unprotect", Map.of())
                                .header("X-Actor", "admin:ops"))
                        .map("memory"))
                .containsEntry("constitutional", false);
        assertThat(send(HttpRequest.DELETE("/v1/spaces/" + space + "/memories/" + a)).status)
                .isEqualTo(200);
    }

    @Test
    void erasesAMemoryForGoodOnlyForUsersAndAdminsAndPurgesOnlyForAdmins() {
        String space = space();
        String secret = createId(space, "My passport number is X-4417-QZ");
        String other = createId(space, "Likes jazz on Sundays");
        String path = "/v1/spaces/" + space + "/memories/" + secret + ":erase";
        assertRejectedByChain(
                space,
                "FORBIDDEN",
                403,
                () -> post(space, "/memories/" + secret + ":erase", Map.of("reason", "the agent wants to")));
        Resp noReason = as("user:dana", HttpRequest.POST(path, Map.of()));
        assertThat(noReason.status).as(noReason.raw).isEqualTo(400);
        assertThat(noReason.code()).isEqualTo("INVALID_ARGUMENT");

        Resp erased = as("user:dana", HttpRequest.POST(path, Map.of("reason", "forget my passport")));

        assertThat(erased.status).as(erased.raw).isEqualTo(200);
        assertThat(erased.map("memory")).containsEntry("content", "[erased]");
        Resp read = send(HttpRequest.GET("/v1/spaces/" + space + "/memories/" + secret));
        assertThat(read.json).containsEntry("content", "[erased]");
        assertThat(read.raw).doesNotContain("X-4417");
        assertThat(send(HttpRequest.GET("/v1/spaces/" + space + "/memories/" + secret + "/history")).raw)
                .doesNotContain("X-4417");
        assertThat(send(HttpRequest.GET("/v1/spaces/" + space + "/memories/" + other)).json)
                .containsEntry("content", "Likes jazz on Sundays");
        Resp again = as(ADMIN, HttpRequest.POST(path, Map.of("reason", "twice")));
        assertThat(again.status).as(again.raw).isEqualTo(409);
        assertThat(again.code()).isEqualTo("INVALID_STATE");

        String purge = "/v1/spaces/" + space + "/memories/" + other + ":purge";
        Resp active = as(ADMIN, HttpRequest.POST(purge, Map.of("reason", "cleanup")));
        assertThat(active.status).as(active.raw).isEqualTo(409);
        assertThat(send(HttpRequest.DELETE("/v1/spaces/" + space + "/memories/" + other)).status)
                .isEqualTo(200);
        assertRejectedByChain(
                space,
                "FORBIDDEN",
                403,
                () -> post(space, "/memories/" + other + ":purge", Map.of("reason", "the agent wants to")));
        Resp purged = as(ADMIN, HttpRequest.POST(purge, Map.of("reason", "cleanup")));
        assertThat(purged.status).as(purged.raw).isEqualTo(200);
        assertThat(purged.map("memory")).containsEntry("content", "[purged]");
    }

    @Test
    void consolidatesMemoriesIntoANewOneThatSupersedesThem() {
        String space = space();
        String a = createId(space, "Likes tea");
        String b = createId(space, "Drinks tea every morning");
        Resp merged = post(
                space,
                "/consolidations",
                Map.of(
                        "ids",
                        List.of(a, b),
                        "content",
                        "Drinks tea every morning and likes it",
                        "reason",
                        "duplicates"));
        assertThat(merged.status).as(merged.raw).isEqualTo(201);
        Map<String, Object> memory = merged.map("memory");
        assertThat(memory.get("supersedes")).isEqualTo(List.of(a, b));
        assertThat(memory).containsEntry("state", "active");
        String id = (String) memory.get("id");
        assertThat(get("/v1/spaces/" + space + "/memories/" + a).json)
                .containsEntry("state", "superseded")
                .containsEntry("superseded_by", id);
        assertThat(ids(get("/v1/spaces/" + space + "/memories"))).containsExactly(id);
        assertThat(ids(get("/v1/spaces/" + space + "/memories?state=superseded")))
                .containsExactlyInAnyOrder(a, b);
    }

    @Test
    void writesBlocksAndShowsThemInTheCoreView() {
        String space = space();
        Resp put = send(HttpRequest.PUT(
                "/v1/spaces/" + space + "/blocks/persona", Map.of("content", "I am a careful assistant.")));
        assertThat(put.status).as(put.raw).isEqualTo(200);
        assertThat(put.map("memory"))
                .containsEntry("kind", "block")
                .containsEntry("block_label", "persona")
                .containsEntry("tier", "core")
                .containsEntry("version", 1);
        Resp second = send(HttpRequest.PUT(
                "/v1/spaces/" + space + "/blocks/persona",
                Map.of("content", "I am a careful, concise assistant.", "expected_version", 1)));
        assertThat(second.status).as(second.raw).isEqualTo(200);
        assertThat(second.map("memory")).containsEntry("version", 2);

        Resp block = get("/v1/spaces/" + space + "/blocks/persona");
        assertThat(block.status).isEqualTo(200);
        assertThat(block.json).containsEntry("content", "I am a careful, concise assistant.");

        Resp core = get("/v1/spaces/" + space + "/core");
        assertThat(core.status).isEqualTo(200);
        assertThat((String) core.json.get("text")).contains("I am a careful, concise assistant.");
        assertThat(((Number) core.json.get("tokens")).intValue()).isPositive();
        assertThat(core.list("memories")).extracting(m -> m.get("block_label")).contains("persona");

        assertRejectedByChain(
                space,
                "VERSION_CONFLICT",
                409,
                () -> send(HttpRequest.PUT(
                        "/v1/spaces/" + space + "/blocks/persona", Map.of("content", "stale", "expected_version", 1))));
        assertRejectedByChain(
                space,
                "UNKNOWN_BLOCK_LABEL",
                400,
                () -> send(HttpRequest.PUT("/v1/spaces/" + space + "/blocks/no_such_label", Map.of("content", "x"))));
        assertThat(get("/v1/spaces/" + space + "/blocks/no_such_label").code()).isEqualTo("NOT_FOUND");
        assertThat(get("/v1/spaces/" + space + "/blocks/goals").status).isEqualTo(404);
    }

    @Test
    void verifiesTheChainOfASpace() {
        String space = space();
        createId(space, "one");
        createId(space, "two");
        Resp verify = get("/v1/spaces/" + space + "/chain/verify");
        assertThat(verify.status).as(verify.raw).isEqualTo(200);
        assertThat(verify.json).containsEntry("ok", true);
        assertThat(((Number) verify.json.get("events")).longValue()).isEqualTo(2);
    }

    @Test
    void servesThePublicKeysWithoutAnApiKey() {
        Map<String, Object> served = client().toBlocking()
                .retrieve(HttpRequest.GET("/v1/chain/keys"), Argument.mapOf(String.class, Object.class));
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> keys = (List<Map<String, Object>>) served.get("keys");
        assertThat(keys).hasSize(1);
        byte[] raw = HexFormat.of().parseHex((String) keys.get(0).get("public_key_hex"));
        assertThat(raw).hasSize(32);
        assertThat(Base64.getDecoder().decode((String) keys.get(0).get("public_key_base64")))
                .isEqualTo(raw);
        assertThat(keys.get(0))
                .containsEntry("key_id", ChainKeys.keyIdOf(raw))
                .containsEntry("algorithm", "Ed25519")
                .containsEntry("active", true);
    }

    @Test
    void twoReadersGetTheSameSignedCheckpointOfTheVerifiedHeadAndAForgedHeadDoesNotVerify() {
        String space = space();
        createId(space, "one");
        createId(space, "two");
        Resp agent = get("/v1/spaces/" + space + "/chain/checkpoint");
        Resp admin = send(
                HttpRequest.GET("/v1/spaces/" + space + "/chain/checkpoint").header("X-Actor", "admin:root"));
        assertThat(agent.status).as(agent.raw).isEqualTo(200);
        assertThat(admin.status).as(admin.raw).isEqualTo(200);

        List<Map<String, Object>> audit = get("/v1/spaces/" + space + "/audit").list("items");
        assertThat(agent.json)
                .containsEntry("space", space)
                .containsEntry("seq", 2)
                .containsEntry("hash", audit.get(audit.size() - 1).get("hash"));
        Map<String, Object> unsigned = new java.util.HashMap<>(agent.json);
        unsigned.remove("signed_at");
        assertThat(admin.json).containsAllEntriesOf(unsigned);
        Map<String, Object> keys = client().toBlocking()
                .retrieve(HttpRequest.GET("/v1/chain/keys"), Argument.mapOf(String.class, Object.class));
        @SuppressWarnings("unchecked")
        String publicKey =
                (String) ((List<Map<String, Object>>) keys.get("keys")).get(0).get("public_key_hex");
        KeyRing ring = KeyRing.of(HexFormat.of().parseHex(publicKey));
        Checkpoint checkpoint = new Checkpoint(
                space,
                2,
                (String) agent.json.get("hash"),
                (String) agent.json.get("key_id"),
                (String) agent.json.get("signature"),
                Instant.parse((String) agent.json.get("signed_at")));
        assertThat(checkpoint.verifies(ring)).isTrue();
        String earlier = (String) audit.get(0).get("hash");
        assertThat(new Checkpoint(space, 2, earlier, checkpoint.keyId(), checkpoint.signature(), checkpoint.signedAt())
                        .verifies(ring))
                .as("the signature of the head, over another hash")
                .isFalse();
        assertThat(new Checkpoint(
                                space + "x",
                                2,
                                checkpoint.hash(),
                                checkpoint.keyId(),
                                checkpoint.signature(),
                                checkpoint.signedAt())
                        .verifies(ring))
                .as("another space")
                .isFalse();
    }

    // ---------------------------------------------------------------- rejections by the sequencer

    @Test
    void staleExpectedVersionIsAVersionConflict() {
        String space = space();
        String id = createId(space, "v1");
        assertThat(send(HttpRequest.PATCH("/v1/spaces/" + space + "/memories/" + id, Map.of("content", "v2"))).status)
                .isEqualTo(200);
        assertRejectedByChain(
                space,
                "VERSION_CONFLICT",
                409,
                () -> send(HttpRequest.PATCH(
                        "/v1/spaces/" + space + "/memories/" + id, Map.of("content", "v3", "expected_version", 1))));
        assertRejectedByChain(
                space,
                "VERSION_CONFLICT",
                409,
                () -> send(HttpRequest.PATCH("/v1/spaces/" + space + "/memories/" + id, Map.of("content", "v3"))
                        .header("If-Match", "\"1\"")));
        assertRejectedByChain(
                space,
                "VERSION_CONFLICT",
                409,
                () -> send(HttpRequest.DELETE("/v1/spaces/" + space + "/memories/" + id)
                        .header("If-Match", "W/\"1\"")));
    }

    @Test
    void unknownIdsAndIdsOfAnotherSpaceAreNotFound() {
        String space = space();
        String other = space();
        String foreign = createId(other, "belongs to the other space");
        createId(space, "mine");
        assertThat(get("/v1/spaces/" + space + "/memories/" + foreign).code()).isEqualTo("NOT_FOUND");
        assertThat(get("/v1/spaces/" + space + "/memories/no-such-id").code()).isEqualTo("NOT_FOUND");
        assertThat(get("/v1/spaces/" + space + "/memories/no-such-id/history").code())
                .isEqualTo("NOT_FOUND");
        assertRejectedByChain(
                space,
                "NOT_FOUND",
                404,
                () -> send(HttpRequest.PATCH(
                        "/v1/spaces/" + space + "/memories/" + foreign, Map.of("content", "hijack"))));
        assertRejectedByChain(
                space,
                "NOT_FOUND",
                404,
                () -> send(HttpRequest.DELETE("/v1/spaces/" + space + "/memories/" + foreign)));
        assertRejectedByChain(space, "NOT_FOUND", 404, () -> post(space, "/memories/no-such-id:restore", null));
        assertRejectedByChain(
                space,
                "NOT_FOUND",
                404,
                () -> post(space, "/consolidations", Map.of("ids", List.of(foreign), "content", "merged")));
        assertThat(get("/v1/spaces/" + other + "/memories/" + foreign).json)
                .containsEntry("content", "belongs to the other space");
    }

    @Test
    @SuppressWarnings("unchecked")
    void healthReportsBothStreamsApplicationsUp() {
        Resp health = get("/health");
        assertThat(health.json).containsEntry("status", "UP");
        Map<String, Object> streams =
                (Map<String, Object>) ((Map<String, Object>) health.json.get("details")).get("kafkaStreams");
        assertThat(streams).containsEntry("status", "UP");
        assertThat((Map<String, Object>) streams.get("details"))
                .containsEntry("sequencer", "RUNNING")
                .containsEntry("projection", "RUNNING");
    }

    // ---------------------------------------------------------------- bad input: never published

    @Test
    void malformedJsonIsRejectedBeforePublishing() {
        String space = space();
        assertNotPublished(
                space,
                "INVALID_ARGUMENT",
                400,
                () -> send(HttpRequest.POST("/v1/spaces/" + space + "/memories", "{\"content\": ")
                        .contentType(MediaType.APPLICATION_JSON_TYPE)));
        assertNotPublished(
                space,
                "INVALID_ARGUMENT",
                400,
                () -> send(HttpRequest.POST("/v1/spaces/" + space + "/memories", "[1,2]")
                        .contentType(MediaType.APPLICATION_JSON_TYPE)));
    }

    @Test
    void missingWrongTypedOrUnknownFieldsAreRejectedBeforePublishing() {
        String space = space();
        String path = "/v1/spaces/" + space + "/memories";
        assertNotPublished(
                space, "INVALID_ARGUMENT", 400, () -> send(HttpRequest.POST(path, Map.of("kind", "semantic"))));
        assertNotPublished(
                space,
                "INVALID_ARGUMENT",
                400,
                () -> send(HttpRequest.POST(path, "").contentType(MediaType.APPLICATION_JSON_TYPE)));
        assertNotPublished(
                space,
                "INVALID_ARGUMENT",
                400,
                () -> send(HttpRequest.POST(path, Map.of("content", "x", "importance", "high"))));
        assertNotPublished(
                space,
                "INVALID_ARGUMENT",
                400,
                () -> send(HttpRequest.POST(path, Map.of("content", Map.of("nested", true)))));
        assertNotPublished(
                space,
                "INVALID_ARGUMENT",
                400,
                () -> send(HttpRequest.POST(path, Map.of("content", "x", "tags", "not-a-list"))));
        assertNotPublished(space, "INVALID_ARGUMENT", 400, () -> send(HttpRequest.POST(path, Map.of("content", 42))));
        assertNotPublished(space, "INVALID_ARGUMENT", 400, () -> send(HttpRequest.POST(path, Map.of("content", true))));
        assertNotPublished(
                space,
                "INVALID_ARGUMENT",
                400,
                () -> send(HttpRequest.POST(path, Map.of("content", "x", "summary", 7))));
        assertNotPublished(
                space,
                "INVALID_ARGUMENT",
                400,
                () -> send(HttpRequest.POST(path, Map.of("content", "x", "tags", List.of("a", 3)))));
        assertNotPublished(
                space,
                "INVALID_ARGUMENT",
                400,
                () -> send(HttpRequest.POST(
                        "/v1/spaces/" + space + "/consolidations", Map.of("ids", List.of(1, 2), "content", "x"))));
        assertNotPublished(
                space,
                "INVALID_ARGUMENT",
                400,
                () -> send(HttpRequest.POST(path, Map.of("content", "x", "contnet", "typo"))));
        assertNotPublished(
                space,
                "INVALID_ARGUMENT",
                400,
                () -> send(HttpRequest.POST(path, Map.of("content", "x", "kind", "dream"))));
        assertNotPublished(
                space,
                "INVALID_ARGUMENT",
                400,
                () -> send(HttpRequest.POST(path, Map.of("content", "x", "kind", "block"))));
        assertNotPublished(
                space,
                "INVALID_ARGUMENT",
                400,
                () -> send(HttpRequest.POST(path, Map.of("content", "x", "importance", 9))));
        assertNotPublished(
                space,
                "INVALID_ARGUMENT",
                400,
                () -> send(HttpRequest.POST(path, Map.of("content", "x", "importance", 0))));
        assertNotPublished(
                space, "INVALID_ARGUMENT", 400, () -> send(HttpRequest.POST(path, Map.of("content", "   "))));
        assertNotPublished(
                space,
                "INVALID_ARGUMENT",
                400,
                () -> send(HttpRequest.POST(path, Map.of("content", "x", "created_at", "yesterday"))));
        assertNotPublished(
                space,
                "INVALID_ARGUMENT",
                400,
                () -> send(HttpRequest.POST(path, Map.of("content", "x", "confidence", "certain"))));
        assertNotPublished(
                space,
                "INVALID_ARGUMENT",
                400,
                () -> send(HttpRequest.POST(path, Map.of("content", "x", "pinned", "maybe"))));
    }

    @Test
    void oversizedContentIsTooLargeBeforePublishing() {
        String space = space();
        String big = "x".repeat(32 * 1024 + 1);
        assertNotPublished(
                space,
                "TOO_LARGE",
                413,
                () -> send(HttpRequest.POST("/v1/spaces/" + space + "/memories", Map.of("content", big))));
        assertNotPublished(
                space,
                "TOO_LARGE",
                413,
                () -> send(HttpRequest.PUT("/v1/spaces/" + space + "/blocks/persona", Map.of("content", big))));
        String id = createId(space, "small");
        assertNotPublished(
                space,
                "TOO_LARGE",
                413,
                () -> send(HttpRequest.PATCH("/v1/spaces/" + space + "/memories/" + id, Map.of("content", big))));
        // multi-byte characters count as UTF-8 bytes: 11,000 x 3 bytes > 32 KiB
        assertNotPublished(
                space,
                "TOO_LARGE",
                413,
                () -> send(HttpRequest.POST(
                        "/v1/spaces/" + space + "/memories", Map.of("content", "\u20ac".repeat(11_000)))));
    }

    @Test
    void badHeadersSpacesAndParametersAreRejectedBeforePublishing() {
        String space = space();
        String path = "/v1/spaces/" + space + "/memories";
        assertNotPublished(
                space,
                "INVALID_ARGUMENT",
                400,
                () -> send(
                        HttpRequest.POST(path, Map.of("content", "x")).header("Idempotency-Key", "has spaces in it")));
        assertNotPublished(
                space,
                "INVALID_ARGUMENT",
                400,
                () -> send(HttpRequest.POST("/v1/spaces/bad*space/memories", Map.of("content", "x"))));
        assertNotPublished(
                space,
                "INVALID_ARGUMENT",
                400,
                () -> send(HttpRequest.POST("/v1/spaces/" + "s".repeat(129) + "/memories", Map.of("content", "x"))));
        String id = createId(space, "x");
        assertNotPublished(space, "INVALID_ARGUMENT", 400, () -> send(HttpRequest.PATCH(path + "/" + id, Map.of())));
        assertNotPublished(
                space,
                "INVALID_ARGUMENT",
                400,
                () -> send(HttpRequest.PATCH(path + "/" + id, Map.of("content", "y"))
                        .header("If-Match", "not-a-version")));
        assertNotPublished(
                space,
                "INVALID_ARGUMENT",
                400,
                () -> send(HttpRequest.PATCH(path + "/" + id, Map.of("content", "y", "expected_version", 2))
                        .header("If-Match", "\"1\"")));
        assertNotPublished(
                space, "INVALID_ARGUMENT", 400, () -> post(space, "/consolidations", Map.of("content", "no ids")));
        assertNotPublished(
                space,
                "INVALID_ARGUMENT",
                400,
                () -> post(space, "/consolidations", Map.of("ids", List.of(id, id), "content", "dup")));
        assertNotPublished(
                space,
                "INVALID_ARGUMENT",
                400,
                () -> send(HttpRequest.PUT("/v1/spaces/" + space + "/blocks/persona", Map.of("core", true))));
        assertThat(get(path + "?limit=0").code()).isEqualTo("INVALID_ARGUMENT");
        assertThat(get(path + "?limit=501").code()).isEqualTo("INVALID_ARGUMENT");
        assertThat(get(path + "?limit=abc").code()).isEqualTo("INVALID_ARGUMENT");
        assertThat(get(path + "?state=gone").code()).isEqualTo("INVALID_ARGUMENT");
        assertThat(get("/v1/spaces/" + space + "/audit?after_seq=-1").code()).isEqualTo("INVALID_ARGUMENT");
        assertThat(get("/v1/spaces/" + space + "/audit?limit=100000").code()).isEqualTo("INVALID_ARGUMENT");
    }

    @Test
    void unknownRoutesAndMethodsAnswerJsonErrors() {
        Resp unknown = get("/v1/nothing/here");
        assertThat(unknown.status).isEqualTo(404);
        assertThat(unknown.code()).isEqualTo("NOT_FOUND");
        Resp method = send(HttpRequest.PUT("/v1/spaces/" + space() + "/memories", Map.of("content", "x")));
        assertThat(method.status).isEqualTo(405);
        assertThat(method.code()).isEqualTo("METHOD_NOT_ALLOWED");
        Resp unknownAction = post(space(), "/memories/m1:explode", null);
        assertThat(unknownAction.status).isIn(404, 405);
        assertThat(unknownAction.json).containsKeys("code", "message");
    }

    // ---------------------------------------------------------------- retrieval

    @Test
    void queryFindsMemoriesByKeywordAndByMeaningWithinTheBudget() {
        String space = space();
        String invoice = createId(space, "Invoice INV-2024-117 was paid late by Globex");
        String kitten = createId(space, "The user adopted a kitten named Miso");
        createId(space, "Quarterly revenue grew eleven percent");
        Resp exact = post(space, "/query", Map.of("query", "INV-2024-117", "top_k", 1));
        assertThat(exact.status).as(exact.raw).isEqualTo(200);
        assertThat(exact.list("items")).extracting(i -> i.get("id")).containsExactly(invoice);
        assertThat(exact.list("items").get(0)).containsKeys("category", "text", "score", "decay", "related");
        assertThat(exact.headers.get("Server-Timing"))
                .as("where the query's time went")
                .matches(
                        "embed;dur=[\\d.]+, search;dur=[\\d.]+, fuse;dur=[\\d.]+, rank;dur=[\\d.]+, pack;dur=[\\d.]+, total;dur=[\\d.]+");
        Awaitility.await()
                .atMost(Duration.ofSeconds(30))
                .untilAsserted(() -> assertThat(
                                post(space, "/query", Map.of("query", "does the user have a pet?", "top_k", 1))
                                        .list("items"))
                        .extracting(i -> i.get("id"))
                        .containsExactly(kitten));
        Resp budgeted =
                post(space, "/query", Map.of("query", "invoice kitten revenue", "top_k", 3, "budget_tokens", 12));
        assertThat(((Number) budgeted.json.get("tokens")).intValue()).isLessThanOrEqualTo(12);
        assertThat(((Number) budgeted.json.get("omitted")).intValue()).isPositive();
    }

    @Test
    void queryAppliesFiltersAndHidesSupersededMemoriesUnlessAsked() {
        String space = space();
        String ana = post(space, "/memories", Map.of("content", "Ana prefers window seats", "user_id", "ana"))
                .map("memory")
                .get("id")
                .toString();
        String bob = post(space, "/memories", Map.of("content", "Bob prefers window seats", "user_id", "bob"))
                .map("memory")
                .get("id")
                .toString();
        Resp filtered = post(space, "/query", Map.of("query", "window seats", "filters", Map.of("user_id", "bob")));
        assertThat(filtered.list("items")).extracting(i -> i.get("id")).containsExactly(bob);
        String merged = post(
                        space,
                        "/consolidations",
                        Map.of("ids", List.of(ana, bob), "content", "Ana and Bob both prefer window seats"))
                .map("memory")
                .get("id")
                .toString();
        assertThat(post(space, "/query", Map.of("query", "window seats")).list("items"))
                .extracting(i -> i.get("id"))
                .containsExactly(merged);
        assertThat(post(space, "/query", Map.of("query", "window seats", "include_superseded", true))
                        .list("items"))
                .extracting(i -> i.get("id"))
                .containsExactlyInAnyOrder(merged, ana, bob);
    }

    @Test
    void queryAppliesFiltersWithOperatorsAndAndOrNotGroups() {
        String space = space();
        String trip = post(
                        space,
                        "/memories",
                        Map.of("content", "Lisbon trip planned for May", "importance", 5, "tags", List.of("travel")))
                .map("memory")
                .get("id")
                .toString();
        String work = post(
                        space,
                        "/memories",
                        Map.of(
                                "content",
                                "Quarterly planning for the trip budget",
                                "importance",
                                4,
                                "category",
                                "tasks"))
                .map("memory")
                .get("id")
                .toString();
        post(
                space,
                "/memories",
                Map.of(
                        "content",
                        "Remembered the trip to Porto last year",
                        "importance",
                        4,
                        "category",
                        "relationships",
                        "kind",
                        "episodic"));
        post(
                space,
                "/memories",
                Map.of("content", "Minor note on the trip", "importance", 2, "tags", List.of("travel")));
        post(space, "/memories", Map.of("content", "Another trip idea", "importance", 5, "category", "preferences"));
        Map<String, Object> filters = Map.of(
                "AND",
                List.of(
                        Map.of("importance", Map.of("gte", 4)),
                        Map.of(
                                "OR",
                                List.of(
                                        Map.of("tags", Map.of("contains", "travel")),
                                        Map.of("category", Map.of("in", List.of("tasks", "relationships"))))),
                        Map.of("NOT", Map.of("kind", "episodic"))));

        Resp filtered = post(space, "/query", Map.of("query", "trip", "top_k", 10, "filters", filters));

        assertThat(filtered.status()).as(filtered.raw()).isEqualTo(200);
        assertThat(filtered.list("items")).extracting(i -> i.get("id")).containsExactlyInAnyOrder(trip, work);
        assertThat(post(
                                space,
                                "/query",
                                Map.of(
                                        "query",
                                        "trip",
                                        "top_k",
                                        10,
                                        "filters",
                                        Map.of("tags", "travel", "importance_max", 3)))
                        .list("items"))
                .hasSize(1);
    }

    @Test
    void aQuerysOnlyDateFiltersWhenDateFilterIsAskedFor() {
        String space = space();
        String dated = post(space, "/memories", Map.of("content", "The Porto trip started on 7 May 2023"))
                .map("memory")
                .get("id")
                .toString();
        String other = post(space, "/memories", Map.of("content", "The Porto trip was lovely"))
                .map("memory")
                .get("id")
                .toString();

        Resp filtered =
                post(space, "/query", Map.of("query", "Porto trip in May 2023", "top_k", 10, "date_filter", true));

        assertThat(filtered.status()).as(filtered.raw()).isEqualTo(200);
        assertThat(filtered.list("items")).extracting(i -> i.get("id")).containsExactly(dated);
        assertThat(post(space, "/query", Map.of("query", "Porto trip in May 2023", "top_k", 10))
                        .list("items"))
                .extracting(i -> i.get("id"))
                .containsExactlyInAnyOrder(dated, other);
    }

    @Test
    void badFiltersAreInvalidFilterNamingTheOffendingPath() {
        String space = space();
        createId(space, "anything");
        Map<String, Object> unknownField = Map.of("AND", List.of(Map.of("importance", 3), Map.of("colour", "red")));
        Map<String, Object> unknownOperator = Map.of("importance", Map.of("between", List.of(1, 3)));
        Map<String, Object> wrongType = Map.of("OR", List.of(Map.of("created_at", Map.of("gte", 20250101))));
        Object deep = Map.of("importance", 3);
        for (int i = 0; i < 6; i++) {
            deep = Map.of("NOT", deep);
        }
        Map<Object, String> expected = new java.util.LinkedHashMap<>();
        expected.put(unknownField, "UNKNOWN_FIELD filters.AND[1].colour: ");
        expected.put(unknownOperator, "UNKNOWN_OPERATOR filters.importance.between: ");
        expected.put(wrongType, "INVALID_VALUE filters.OR[0].created_at.gte: ");
        expected.put(deep, "TOO_DEEP filters.NOT.NOT.NOT.NOT.NOT.NOT: ");
        expected.forEach((filters, message) -> {
            Resp refused = post(space, "/query", Map.of("query", "x", "filters", filters));
            assertThat(refused.status()).as(refused.raw()).isEqualTo(400);
            assertThat(refused.code()).isEqualTo("INVALID_FILTER");
            assertThat((String) refused.json().get("message")).startsWith(message);
        });
    }

    @Test
    void badQueriesAreRejectedWithACode() {
        String space = space();
        createId(space, "anything");
        assertThat(post(space, "/query", Map.of()).code()).isEqualTo("INVALID_ARGUMENT");
        assertThat(post(space, "/query", Map.of("query", "x", "top_k", 0)).code())
                .isEqualTo("INVALID_ARGUMENT");
        assertThat(post(space, "/query", Map.of("query", "x", "return", "everything"))
                        .code())
                .isEqualTo("INVALID_ARGUMENT");
        assertThat(post(space, "/query", Map.of("query", "x", "filters", Map.of("updated_after", "yesterday")))
                        .code())
                .isEqualTo("INVALID_FILTER");
        assertThat(post(
                                space,
                                "/query",
                                Map.of("query", "x", "filters", Map.of("importance_min", 4, "importance_max", 2)))
                        .code())
                .isEqualTo("INVALID_FILTER");
        assertThat(post(space, "/query", Map.of("query", "x", "filters", "importance"))
                        .status())
                .isEqualTo(400);
        assertThat(post(space, "/query", Map.of("query", "x", "surprise", 1)).code())
                .isEqualTo("INVALID_ARGUMENT");
        Resp impostor = send(HttpRequest.POST("/v1/spaces/" + space + "/query", Map.of("query", "x", "agent", "root"))
                .header("X-Actor", "agent:planner"));
        assertThat(impostor.status).isEqualTo(403);
        assertThat(impostor.code()).isEqualTo("FORBIDDEN");
    }

    @Test
    void linksAreChainEventsAndEntityQueriesFollowThem() {
        String space = space();
        String alex = post(space, "/memories", Map.of("content", "Alex Romero (person)", "kind", "entity"))
                .map("memory")
                .get("id")
                .toString();
        String atlas = post(space, "/memories", Map.of("content", "Atlas (project)", "kind", "entity"))
                .map("memory")
                .get("id")
                .toString();
        String db = createId(space, "Runs on PostgreSQL 15 with nightly backups");
        Resp linked = post(space, "/memories/" + alex + "/links", Map.of("to", atlas, "type", "develops"));
        assertThat(linked.status).as(linked.raw).isEqualTo(201);
        assertThat(post(space, "/memories/" + atlas + "/links", Map.of("to", db, "type", "depends-on")).status)
                .isEqualTo(201);
        assertRejectedByChain(
                space,
                "ALREADY_LINKED",
                409,
                () -> post(space, "/memories/" + alex + "/links", Map.of("to", atlas, "type", "uses")));
        assertNotPublished(space, "INVALID_ARGUMENT", 400, () -> post(space, "/memories/" + alex + "/links", Map.of()));
        Resp answer = post(space, "/query", Map.of("query", "Atlas", "top_k", 1));
        assertThat(answer.list("items")).extracting(i -> i.get("id")).containsExactly(atlas);
        assertThat(answer.json.get("text").toString()).contains("depends-on: Runs on PostgreSQL 15");
        Resp unlinked = send(HttpRequest.DELETE("/v1/spaces/" + space + "/memories/" + atlas + "/links/" + db));
        assertThat(unlinked.status).as(unlinked.raw).isEqualTo(200);
        Resp relations = get("/v1/spaces/" + space + "/memories/" + atlas + "/relations");
        assertThat(relations.raw).contains(alex).doesNotContain(db);
    }

    @Test
    void contextAssemblesCoreHeaderAndWorkingMemoriesWithinMaxTokens() {
        String space = space();
        assertThat(as(
                                HAND,
                                HttpRequest.PUT(
                                        "/v1/spaces/" + space + "/blocks/persona",
                                        Map.of("content", "I am a careful planning assistant.")))
                        .status)
                .isEqualTo(200);
        post(space, "/memories", Map.of("content", "The release deploy is on Thursday at 14:00", "thread_id", "t1"));
        Resp c = post(
                space,
                "/context",
                Map.of("message", "when is the release deploy?", "thread_id", "t1", "since_rev", 0, "max_tokens", 200));
        assertThat(c.status).as(c.raw).isEqualTo(200);
        assertThat(c.headers.get("Server-Timing"))
                .startsWith("core;dur=")
                .contains(", embed;dur=", ", pack;dur=")
                .contains(", assemble;dur=")
                .contains(", total;dur=");
        assertThat(c.json.get("text").toString())
                .startsWith("## Who I Am")
                .contains("Memory updates since rev 0")
                .contains("Thursday at 14:00");
        assertThat(((Number) c.json.get("tokens")).intValue()).isLessThanOrEqualTo(200);
        assertThat(((Number) c.json.get("revision")).intValue()).isEqualTo(1);
        Resp tiny = post(space, "/context", Map.of("message", "deploy", "max_tokens", 5));
        assertThat(((Number) tiny.json.get("tokens")).intValue()).isLessThanOrEqualTo(5);
        assertThat(tiny.json).containsEntry("core_truncated", true);
        assertThat(post(space, "/context", Map.of("message", " ")).code()).isEqualTo("INVALID_ARGUMENT");
    }

    // ---------------------------------------------------------------- core memory cap (docs/architecture.md §5)

    /**
     * The space the test configuration caps at 200 tokens with {@code over-cap: refine}
     * ({@code memory.core.space-caps}).
     */
    public static final String CORE_REFINE_SPACE = "core-cap-refine";

    private static String coreWords(int n) {
        return "fact ".repeat(n).strip();
    }

    @Test
    void aCoreEditOverTheDefaultCapIsRefusedNamingTheCapAndTheCurrentSize() {
        String space = space();
        Resp persona =
                send(HttpRequest.PUT("/v1/spaces/" + space + "/blocks/persona", Map.of("content", coreWords(2000))));
        assertThat(persona.status).as(persona.raw).isEqualTo(200);
        int now = ((Number) get("/v1/spaces/" + space + "/core").json.get("tokens")).intValue();

        Resp refused =
                send(HttpRequest.PUT("/v1/spaces/" + space + "/blocks/goals", Map.of("content", coreWords(1500))));
        Resp refusedMemory = post(space, "/memories", Map.of("content", coreWords(1500), "tier", "core"));

        for (Resp r : List.of(refused, refusedMemory)) {
            assertThat(r.status).as(r.raw).isEqualTo(409);
            assertThat(r.code()).isEqualTo("BUDGET_EXCEEDED");
            assertThat((String) r.json.get("message"))
                    .contains("cap of 3000 tokens")
                    .contains("is " + now + " tokens now");
        }
        assertThat(((Number) get("/v1/spaces/" + space + "/core").json.get("tokens")).intValue())
                .isEqualTo(now);
        assertThat(post(space, "/memories", Map.of("content", coreWords(1500))).status)
                .as("the working tier is not capped")
                .isEqualTo(201);

        // /context with a budget smaller than the core says so instead of cutting the core silently
        Resp context = post(space, "/context", Map.of("message", "facts", "max_tokens", 100));
        assertThat(context.json).containsEntry("core_truncated", true).containsEntry("core_tokens", now);
        assertThat((List<?>) context.json.get("core_omitted")).hasSize(1);
        assertThat((List<?>) context.json.get("warnings"))
                .singleElement()
                .asString()
                .contains("max_tokens 100 is too small for core memory (" + now + " tokens)");
    }

    @Test
    void aSpaceConfiguredToRefineAcceptsTheEditAndOpensARefinementSessionAtOnce() {
        String space = CORE_REFINE_SPACE;
        assertThat(post(space, "/memories", Map.of("content", coreWords(150), "tier", "core")).status)
                .isEqualTo(201);

        Resp accepted = post(space, "/memories", Map.of("content", coreWords(150) + " more", "tier", "core"));

        assertThat(accepted.status).as(accepted.raw).isEqualTo(201);
        assertThat(get("/v1/spaces/" + space + "/refinements").list("items"))
                .singleElement()
                .satisfies(s -> {
                    assertThat(s)
                            .containsEntry("state", "open")
                            .containsEntry("trigger", "token_budget")
                            .containsEntry("target_tokens", 200);
                    assertThat(((Number) s.get("core_tokens_at_start")).intValue())
                            .isGreaterThan(200);
                });
        assertThat(get("/v1/spaces/" + space + "/chain/verify").json).containsEntry("ok", true);
    }

    // ---------------------------------------------------------------- category allowlists (default categories.yaml)

    private static final String PLANNER = "agent:planner"; // allowlist [goals, tasks, projects]

    @Test
    void anAgentWritingOutsideItsAllowlistIsRefusedBeforePublishing() {
        String space = space();
        String path = "/v1/spaces/" + space + "/memories";
        assertNotPublished(
                space,
                "CATEGORY_NOT_ALLOWED",
                403,
                () -> send(HttpRequest.POST(path, Map.of("content", "Answer in rhymes", "category", "tone"))
                        .header("X-Actor", PLANNER)));
        Resp denied = send(HttpRequest.POST(path, Map.of("content", "Answer in rhymes", "category", "tone"))
                .header("X-Actor", PLANNER));
        assertThat((String) denied.json.get("message")).contains("'tone'", "agent planner", "goals, projects, tasks");

        String tone = createId(space, "Answer in rhymes", "tone", null);
        Resp task = send(HttpRequest.POST(path, Map.of("content", "Write release notes", "category", "tasks"))
                .header("X-Actor", PLANNER));
        assertThat(task.status).as(task.raw).isEqualTo(201);
        String taskId = (String) task.map("memory").get("id");
        Resp plain =
                send(HttpRequest.POST(path, Map.of("content", "No category")).header("X-Actor", PLANNER));
        assertThat(plain.status).as(plain.raw).isEqualTo(201);

        assertNotPublished(
                space,
                "CATEGORY_NOT_ALLOWED",
                403,
                () -> send(HttpRequest.PATCH(path + "/" + tone, Map.of("content", "Answer in prose"))
                        .header("X-Actor", PLANNER)));
        assertNotPublished(
                space,
                "CATEGORY_NOT_ALLOWED",
                403,
                () -> send(HttpRequest.PATCH(path + "/" + taskId, Map.of("category", "tone"))
                        .header("X-Actor", PLANNER)));
        assertNotPublished(
                space,
                "CATEGORY_NOT_ALLOWED",
                403,
                () -> send(HttpRequest.DELETE(path + "/" + tone).header("X-Actor", PLANNER)));
        assertNotPublished(
                space,
                "CATEGORY_NOT_ALLOWED",
                403,
                () -> send(
                        HttpRequest.POST(path + "/" + tone + ":pin", Map.of()).header("X-Actor", PLANNER)));
        assertNotPublished(
                space,
                "CATEGORY_NOT_ALLOWED",
                403,
                () -> send(HttpRequest.POST(
                                "/v1/spaces/" + space + "/consolidations",
                                Map.of("ids", List.of(taskId, tone), "content", "merged"))
                        .header("X-Actor", PLANNER)));
        assertNotPublished(
                space,
                "CATEGORY_NOT_ALLOWED",
                403,
                () -> send(HttpRequest.POST(
                                "/v1/spaces/" + space + "/consolidations",
                                Map.of("ids", List.of(taskId), "content", "merged", "category", "tone"))
                        .header("X-Actor", PLANNER)));

        Resp byUser = send(HttpRequest.PATCH(path + "/" + tone, Map.of("content", "Answer in haiku")));
        assertThat(byUser.status).as(byUser.raw).isEqualTo(200);
        Resp byUnlistedAgent = send(HttpRequest.PATCH(path + "/" + tone, Map.of("content", "Answer in limericks"))
                .header("X-Actor", "agent:claude"));
        assertThat(byUnlistedAgent.status).as(byUnlistedAgent.raw).isEqualTo(200);
    }

    @Test
    void theSequencerRefusesADisallowedWritePublishedStraightToKafka() {
        String space = space();
        MemoryOutcome outcome = publishDirectly(Requests.create(
                        space,
                        Requests.actor(ActorType.AGENT, "planner"),
                        CreateMemory.newBuilder()
                                .setContent("Answer in rhymes")
                                .setCategory("tone")
                                .build())
                .build());
        assertThat(outcome.getAccepted()).isFalse();
        assertThat(outcome.getCode()).isEqualTo("CATEGORY_NOT_ALLOWED");
        assertThat(outcome.getMessage()).contains("'tone'", "agent planner");
        assertThat(get("/v1/spaces/" + space + "/audit").list("items")).isEmpty();
    }

    @Test
    void anAgentReadsOnlyMemoriesOfItsCategories() {
        String space = space();
        String path = "/v1/spaces/" + space + "/memories";
        String goal = createId(space, "Ship the beta in May", "goals", null);
        String tone = createId(space, "Answer in rhymes", "tone", null);
        createId(space, "Be formal", "tone", null);
        String plain = createId(space, "Uncategorized", null, null);

        Resp denied = send(HttpRequest.GET(path + "/" + tone).header("X-Actor", PLANNER));
        assertThat(denied.status).as(denied.raw).isEqualTo(403);
        assertThat(denied.code()).isEqualTo("CATEGORY_NOT_ALLOWED");
        assertThat((String) denied.json.get("message")).contains(tone, "'tone'");
        assertThat(send(HttpRequest.GET(path + "/" + tone).header("X-Actor", "subagent:planner"))
                        .code())
                .isEqualTo("CATEGORY_NOT_ALLOWED");
        assertThat(send(HttpRequest.GET(path + "/" + tone + "/history").header("X-Actor", PLANNER))
                        .code())
                .isEqualTo("CATEGORY_NOT_ALLOWED");
        assertThat(send(HttpRequest.GET(path + "?category=tone").header("X-Actor", PLANNER))
                        .code())
                .isEqualTo("CATEGORY_NOT_ALLOWED");
        assertThat(send(HttpRequest.GET(path + "/no-such-id").header("X-Actor", PLANNER))
                        .code())
                .isEqualTo("NOT_FOUND");

        assertThat(send(HttpRequest.GET(path + "/" + goal).header("X-Actor", PLANNER)).json)
                .containsEntry("id", goal);
        assertThat(send(HttpRequest.GET(path + "/" + goal + "/history").header("X-Actor", PLANNER))
                        .list("items"))
                .hasSize(1);
        assertThat(ids(send(HttpRequest.GET(path + "?category=goals").header("X-Actor", PLANNER))))
                .containsExactly(goal);
        assertThat(ids(send(HttpRequest.GET(path).header("X-Actor", PLANNER)))).containsExactly(goal, plain);
        Resp first = send(HttpRequest.GET(path + "?limit=1").header("X-Actor", PLANNER));
        assertThat(ids(first)).containsExactly(goal);
        Resp second = send(HttpRequest.GET(path + "?limit=1&after=" + first.json.get("next"))
                .header("X-Actor", PLANNER));
        assertThat(ids(second)).containsExactly(plain);
        assertThat(second.json.get("next")).isNull();

        assertThat(get(path + "/" + tone).json).containsEntry("id", tone);
        assertThat(ids(get(path))).hasSize(4);
        assertThat(ids(send(HttpRequest.GET(path).header("X-Actor", "agent:claude"))))
                .hasSize(4);

        // the audit log keeps every entry (the chain has no gaps) but not the content excerpts of other categories
        List<Map<String, Object>> audit = send(HttpRequest.GET("/v1/spaces/" + space + "/audit")
                        .header("X-Actor", PLANNER))
                .list("items");
        assertThat(audit)
                .extracting(e -> e.get("memory_ids"))
                .containsExactly(
                        List.of(goal), List.of(tone), List.of(ids(get(path)).get(2)), List.of(plain));
        assertThat(audit)
                .extracting(e -> (String) e.get("description"))
                .satisfiesExactly(
                        d -> assertThat(d).contains("Ship the beta in May"),
                        d -> assertThat(d).doesNotContain("rhymes").contains("details hidden"),
                        d -> assertThat(d).doesNotContain("formal").contains("details hidden"),
                        d -> assertThat(d).contains("Uncategorized"));
        assertThat(get("/v1/spaces/" + space + "/audit")
                        .list("items")
                        .get(1)
                        .get("description")
                        .toString())
                .contains("rhymes");
    }

    @Test
    void theCoreViewOfAnAgentOmitsCoreMemoriesOfOtherCategories() {
        String space = space();
        assertThat(send(HttpRequest.PUT(
                                "/v1/spaces/" + space + "/blocks/persona",
                                Map.of("content", "I am a careful planner.")))
                        .status)
                .isEqualTo(200);
        String goal = createId(space, "Ship the beta in May", "goals", "core");
        String tone = createId(space, "Answer in rhymes", "tone", "core");
        String plain = createId(space, "Never book flights before 9am", null, "core");

        Resp core = send(HttpRequest.GET("/v1/spaces/" + space + "/core").header("X-Actor", PLANNER));
        assertThat(core.status).as(core.raw).isEqualTo(200);
        assertThat((String) core.json.get("text"))
                .contains("I am a careful planner.", "Ship the beta in May", "Never book flights")
                .doesNotContain("rhymes");
        assertThat(core.list("memories"))
                .extracting(m -> m.get("id"))
                .contains(goal, plain)
                .doesNotContain(tone);
        assertThat(core.list("memories")).extracting(m -> m.get("block_label")).contains("persona");

        Resp full = get("/v1/spaces/" + space + "/core");
        assertThat((String) full.json.get("text")).contains("rhymes");
        assertThat(((Number) full.json.get("tokens")).intValue())
                .isGreaterThan(((Number) core.json.get("tokens")).intValue());
    }

    // ---------------------------------------------------------------- Markdown view (docs/architecture.md §11)

    @Test
    void aFileWrittenByHandBecomesEventsOfUserManualAndReadsBack() {
        String space = space();
        Resp created = putFile(
                space,
                "facts/preferences.md",
                "# Facts: preferences\n\n- Ana prefers dark mode\n- Ana drinks green tea\n",
                null);
        assertThat(created.status).as(created.raw).isEqualTo(200);
        assertThat(created.json).containsEntry("path", "facts/preferences.md").containsEntry("applied", 2);
        assertThat(created.list("changes")).extracting(c -> c.get("action")).containsExactly("created", "created");
        String dark = (String) created.list("changes").get(0).get("target");
        String tea = (String) created.list("changes").get(1).get("target");
        assertThat(get("/v1/spaces/" + space + "/memories/" + dark).json)
                .containsEntry("content", "Ana prefers dark mode")
                .containsEntry("kind", "semantic")
                .containsEntry("category", "preferences");

        Resp listed = get("/v1/spaces/" + space + "/files");
        assertThat(listed.list("files"))
                .extracting(f -> f.get("path"))
                .containsExactly("MEMORY.md", "facts/preferences.md");
        Map<String, Object> facts = listed.list("files").get(1);
        assertThat(facts)
                .containsEntry("summary", "Ana prefers dark mode, Ana drinks green tea")
                .containsEntry("entries", 2);
        String text = readFile(space, "facts/preferences.md", null).raw;
        assertThat(((Number) facts.get("size")).intValue())
                .isEqualTo(text.getBytes(java.nio.charset.StandardCharsets.UTF_8).length);
        assertThat(text)
                .startsWith("# Facts: preferences\n\n> Summary: Ana prefers dark mode, Ana drinks green tea\n")
                .contains(
                        "- Ana prefers dark mode <!-- id:" + dark + " -->",
                        "- Ana drinks green tea <!-- id:" + tea + " -->");

        String edited = text.replace("dark mode", "dark mode in every editor")
                .replace("- Ana drinks green tea <!-- id:" + tea + " -->", "- Ana works from Lisbon");
        Resp rewritten = putFile(space, "facts/preferences.md", edited, null);
        assertThat(rewritten.status).as(rewritten.raw).isEqualTo(200);
        assertThat(rewritten.list("changes"))
                .extracting(c -> c.get("action"))
                .containsExactly("updated", "created", "deleted");
        assertThat(rewritten.list("changes").get(0)).containsEntry("target", dark);
        assertThat(rewritten.list("changes").get(2)).containsEntry("target", tea);
        assertThat(get("/v1/spaces/" + space + "/memories/" + dark).json)
                .containsEntry("content", "Ana prefers dark mode in every editor");
        assertThat(get("/v1/spaces/" + space + "/memories/" + tea).json).containsEntry("state", "soft_deleted");
        assertThat(putFile(space, "facts/preferences.md", readFile(space, "facts/preferences.md", null).raw, null)
                        .list("changes"))
                .isEmpty();

        Resp core = putFile(space, "MEMORY.md", "# Core memory\n\n## persona\n\nI am a careful assistant.\n", null);
        assertThat(core.status).as(core.raw).isEqualTo(200);
        assertThat(core.list("changes")).extracting(c -> c.get("action")).containsExactly("block_updated");
        assertThat(get("/v1/spaces/" + space + "/blocks/persona").json)
                .containsEntry("content", "I am a careful assistant.");
        assertThat(readFile(space, "MEMORY.md", null).raw)
                .contains("> Summary: persona\n", "## persona\n\nI am a careful assistant.");

        List<Map<String, Object>> audit = get("/v1/spaces/" + space + "/audit").list("items");
        assertThat(audit).hasSize(6);
        assertThat(audit).extracting(e -> e.get("actor")).containsOnly(Map.of("type", "user", "id", "manual"));
        Resp asAgent = send(HttpRequest.PUT(
                        "/v1/spaces/" + space + "/files/facts/preferences.md",
                        readFile(space, "facts/preferences.md", null).raw + "- Likes jazz\n")
                .contentType("text/markdown")
                .header("X-Actor", "agent:claude"));
        assertThat(asAgent.status).as(asAgent.raw).isEqualTo(200);
        assertThat(get("/v1/spaces/" + space + "/audit?after_seq=6")
                        .list("items")
                        .get(0)
                        .get("actor"))
                .isEqualTo(Map.of("type", "agent", "id", "claude"));
    }

    @Test
    void patchReportsTheAppliedCountAndAMissingOldTextChangesNothing() {
        String space = space();
        String tea = createId(space, "Drinks green tea every morning");
        String desk = createId(space, "Works at a standing desk");
        Resp patched = post(
                space,
                "/files/facts/general.md:patch",
                Map.of(
                        "edits",
                        List.of(
                                Map.of("old_text", "green tea", "new_text", "oolong tea"),
                                Map.of("old_text", "standing desk", "new_text", "standing desk by the window"))));
        assertThat(patched.status).as(patched.raw).isEqualTo(200);
        assertThat(patched.json).containsEntry("applied", 2);
        assertThat(patched.list("changes")).extracting(c -> c.get("target")).containsExactly(tea, desk);
        assertThat(get("/v1/spaces/" + space + "/memories/" + tea).json)
                .containsEntry("content", "Drinks oolong tea every morning");
        assertThat(get("/v1/spaces/" + space + "/memories/" + desk).json)
                .containsEntry("content", "Works at a standing desk by the window");

        assertNotPublished(
                space,
                "PATCH_CONFLICT",
                409,
                () -> post(
                        space,
                        "/files/facts/general.md:patch",
                        Map.of(
                                "edits",
                                List.of(
                                        Map.of("old_text", "oolong", "new_text", "black"),
                                        Map.of("old_text", "no such text", "new_text", "x")))));
        assertNotPublished(
                space,
                "PATCH_CONFLICT",
                409,
                () -> post(
                        space,
                        "/files/facts/general.md:patch",
                        Map.of("edits", List.of(Map.of("old_text", "- ", "new_text", "* ")))));
        assertNotPublished(
                space,
                "INVALID_ARGUMENT",
                400,
                () -> post(
                        space,
                        "/files/facts/general.md:patch",
                        Map.of(
                                "edits",
                                List.of(Map.of(
                                        "old_text",
                                        "<!-- id:" + tea + " -->",
                                        "new_text",
                                        "<!-- id:m0000zzz0000 -->")))));
        assertNotPublished(
                space,
                "NOT_FOUND",
                404,
                () -> post(
                        space,
                        "/files/facts/nothing.md:patch",
                        Map.of("edits", List.of(Map.of("old_text", "a", "new_text", "b")))));
        assertThat(get("/v1/spaces/" + space + "/memories/" + tea).json)
                .containsEntry("content", "Drinks oolong tea every morning");
    }

    @Test
    void appendAddsEntriesAndCreatesTheFile() {
        String space = space();
        String probe = createId(space, "probe of the chain's clock");
        String month = get("/v1/spaces/" + space + "/memories/" + probe)
                .json
                .get("created_at")
                .toString()
                .substring(0, 7);
        Resp first = post(
                space,
                "/files/episodes/" + month + ".md:append",
                Map.of("text", "Fixed the logger stdout leak\nwith a custom transport"));
        assertThat(first.status).as(first.raw).isEqualTo(200);
        assertThat(first.json).containsEntry("applied", 1);
        String id = (String) first.list("changes").get(0).get("target");
        assertThat(get("/v1/spaces/" + space + "/memories/" + id).json)
                .containsEntry("kind", "episodic")
                .containsEntry("content", "Fixed the logger stdout leak\nwith a custom transport");
        Resp second = post(
                space,
                "/files/episodes/" + month + ".md:append",
                Map.of("text", "- Moved ids to short hex\n- Split the config"));
        assertThat(second.list("changes")).extracting(c -> c.get("action")).containsExactly("created", "created");
        String text = readFile(space, "episodes/" + month + ".md", null).raw;
        assertThat(text)
                .startsWith("# Episodes " + month + "\n\n> Summary: Fixed the logger stdout, Moved ids to short\n")
                .contains("- Fixed the logger stdout leak\n  with a custom transport <!-- id:" + id + " -->");
        Resp older = post(space, "/files/episodes/2024-02.md:append", Map.of("text", "Migrated to Java 17"));
        String old = (String) older.list("changes").get(0).get("target");
        assertThat(get("/v1/spaces/" + space + "/memories/" + old).json)
                .containsEntry("created_at", "2024-02-01T00:00:00Z");
        Resp procedure = post(
                space, "/files/procedures/deploy-the-api.md:append", Map.of("text", "1. build\n2. push\n3. roll out"));
        assertThat(procedure.status).as(procedure.raw).isEqualTo(200);
        assertThat(readFile(space, "procedures/deploy-the-api.md", null).raw)
                .startsWith("# Procedure: deploy the api\n");
        assertThat(get("/v1/spaces/" + space + "/files").list("files"))
                .extracting(f -> f.get("path"))
                .containsExactly(
                        "MEMORY.md",
                        "facts/general.md",
                        "episodes/2024-02.md",
                        "episodes/" + month + ".md",
                        "procedures/deploy-the-api.md");
        assertNotPublished(
                space,
                "INVALID_ARGUMENT",
                400,
                () -> post(space, "/files/procedures/deploy-the-api.md:append", Map.of("text", "another procedure")));
        assertNotPublished(
                space,
                "INVALID_ARGUMENT",
                400,
                () -> post(
                        space,
                        "/files/episodes/" + month + ".md:append",
                        Map.of("text", "- copied <!-- id:" + id + " -->")));
        assertNotPublished(
                space,
                "INVALID_ARGUMENT",
                400,
                () -> post(space, "/files/episodes/" + month + ".md:append", Map.of("text", " ")));
    }

    @Test
    void pathsOutsideTheSandboxAreRejectedBeforePublishing() {
        String space = space();
        createId(space, "Something to protect");
        for (String path : List.of(
                "../x.md",
                "facts/../../x.md",
                "%2e%2e/x.md",
                "facts/%2e%2e/x.md",
                "notes/x.md",
                "facts/x.txt",
                "facts/a/b.md",
                "episodes/2024-13.md",
                "memory.md",
                "facts/" + "a".repeat(120) + ".md")) {
            assertNotPublished(space, "INVALID_PATH", 400, () -> putFile(space, path, "- pwned\n", null));
            assertThat(readFile(space, path, null).code()).as(path).isEqualTo("INVALID_PATH");
        }
        assertNotPublished(
                space, "INVALID_PATH", 400, () -> post(space, "/files/..%2Fx.md:append", Map.of("text", "pwned")));
        assertThat(readFile(space, "facts/nothing.md", null).status).isEqualTo(404);
        assertThat(readFile(space, "facts/nothing.md", null).code()).isEqualTo("NOT_FOUND");
        assertNotPublished(
                space,
                "INVALID_ARGUMENT",
                400,
                () -> putFile(
                        space, "facts/general.md", "- fine\nstray paragraph\n- <!-- id:nope --> misplaced\n", null));
        assertNotPublished(space, "INVALID_ARGUMENT", 400, () -> putFile(space, "facts/general.md", "", null));
        Resp bad = putFile(space, "facts/general.md", "- fine\nstray paragraph\n", null);
        assertThat((String) bad.json.get("message")).contains("line 2");
    }

    @Test
    void anAgentSeesAndWritesOnlyTheFilesOfItsCategories() {
        String space = space();
        String goal = createId(space, "Ship the beta in May", "goals", null);
        createId(space, "Answer in rhymes", "tone", null);
        Resp listed = send(HttpRequest.GET("/v1/spaces/" + space + "/files").header("X-Actor", PLANNER));
        assertThat(listed.list("files")).extracting(f -> f.get("path")).containsExactly("MEMORY.md", "facts/goals.md");
        assertThat(get("/v1/spaces/" + space + "/files").list("files"))
                .extracting(f -> f.get("path"))
                .containsExactly("MEMORY.md", "facts/goals.md", "facts/tone.md");
        assertThat(readFile(space, "facts/tone.md", PLANNER).code()).isEqualTo("CATEGORY_NOT_ALLOWED");
        assertThat(readFile(space, "facts/goals.md", PLANNER).raw).contains(goal);
        assertNotPublished(
                space,
                "CATEGORY_NOT_ALLOWED",
                403,
                () -> putFile(space, "facts/tone.md", "- Answer in prose\n", PLANNER));
        assertNotPublished(
                space,
                "CATEGORY_NOT_ALLOWED",
                403,
                () -> send(HttpRequest.POST(
                                "/v1/spaces/" + space + "/files/facts/tone.md:append", Map.of("text", "Be terse"))
                        .header("X-Actor", PLANNER)));
        Resp allowed = putFile(
                space,
                "facts/goals.md",
                readFile(space, "facts/goals.md", PLANNER).raw + "- Hire a designer\n",
                PLANNER);
        assertThat(allowed.status).as(allowed.raw).isEqualTo(200);
        assertThat(allowed.list("changes")).extracting(c -> c.get("action")).containsExactly("created");
    }

    @Test
    void aFileWriteWithAStaleETagIsAVersionConflictBeforePublishing() {
        String space = space();
        String id = createId(space, "Prefers tea");
        Resp read = readFile(space, "facts/general.md", null);
        String etag = read.headers.get(HttpHeaders.ETAG);
        assertThat(etag).startsWith("\"").hasSize(34);
        assertThat(send(HttpRequest.PATCH(
                                "/v1/spaces/" + space + "/memories/" + id, Map.of("content", "Prefers coffee")))
                        .status)
                .isEqualTo(200);
        assertNotPublished(
                space,
                "VERSION_CONFLICT",
                409,
                () -> send(HttpRequest.PUT(
                                "/v1/spaces/" + space + "/files/facts/general.md", read.raw.replace("tea", "green tea"))
                        .contentType("text/markdown")
                        .header("If-Match", etag)));
        assertNotPublished(
                space,
                "VERSION_CONFLICT",
                409,
                () -> send(
                        HttpRequest.POST("/v1/spaces/" + space + "/files/facts/general.md:append", Map.of("text", "x"))
                                .header("If-Match", etag)));
        Resp fresh = readFile(space, "facts/general.md", null);
        Resp ok = send(HttpRequest.PUT(
                        "/v1/spaces/" + space + "/files/facts/general.md", fresh.raw.replace("coffee", "black coffee"))
                .contentType("text/markdown")
                .header("If-Match", fresh.headers.get(HttpHeaders.ETAG)));
        assertThat(ok.status).as(ok.raw).isEqualTo(200);
        assertThat(get("/v1/spaces/" + space + "/memories/" + id).json)
                .containsEntry("content", "Prefers black coffee");
    }

    // ---------------------------------------------------------------- sub-agent proposals (docs/architecture.md §10)

    private static final String RESEARCHER = "subagent:researcher"; // allowlist [knowledge, interests, history]
    private static final String CODER = "subagent:coder"; // no allowlist
    private static final String MAIN = "agent:main";

    @Test
    void subAgentsCannotWriteMemoriesDirectly() {
        String space = space();
        String id = createId(space, "User prefers academic sources");
        String memories = "/v1/spaces/" + space + "/memories";
        assertRejectedByChain(
                space,
                "FORBIDDEN",
                403,
                () -> send(
                        HttpRequest.POST(memories, Map.of("content", "sneaky")).header("X-Actor", CODER)));
        assertRejectedByChain(
                space,
                "FORBIDDEN",
                403,
                () -> send(HttpRequest.PATCH(memories + "/" + id, Map.of("content", "changed"))
                        .header("X-Actor", CODER)));
        assertRejectedByChain(
                space,
                "FORBIDDEN",
                403,
                () -> send(HttpRequest.DELETE(memories + "/" + id).header("X-Actor", CODER)));
        assertRejectedByChain(
                space,
                "FORBIDDEN",
                403,
                () -> send(
                        HttpRequest.POST(memories + "/" + id + ":pin", Map.of()).header("X-Actor", CODER)));
        assertRejectedByChain(
                space,
                "FORBIDDEN",
                403,
                () -> send(
                        HttpRequest.PUT("/v1/spaces/" + space + "/blocks/persona", Map.of("content", "I am the coder"))
                                .header("X-Actor", CODER)));
        assertRejectedByChain(
                space,
                "FORBIDDEN",
                403,
                () -> send(HttpRequest.POST(
                                "/v1/spaces/" + space + "/consolidations",
                                Map.of("ids", List.of(id), "content", "merged"))
                        .header("X-Actor", CODER)));
        assertRejectedByChain(
                space, "FORBIDDEN", 403, () -> putFile(space, "facts/general.md", "# General\n\n- sneaky\n", CODER));
        assertRejectedByChain(
                space,
                "FORBIDDEN",
                403,
                () -> send(HttpRequest.POST("/v1/spaces/" + space + "/proposals", Map.of("content", "x"))
                        .header("X-Actor", "user:api"))); // users write directly
        assertThat(get(memories).list("items")).hasSize(1);
    }

    @Test
    void theSequencerRefusesASubAgentWritePublishedStraightToKafka() {
        String space = space();
        MemoryOutcome outcome =
                publishDirectly(Requests.create(space, Requests.actor(ActorType.SUBAGENT, "coder"), "sneaky")
                        .build());
        assertThat(outcome.getAccepted()).isFalse();
        assertThat(outcome.getCode()).isEqualTo("FORBIDDEN");
        assertThat(outcome.getMessage()).contains("submit a proposal");
        assertThat(get("/v1/spaces/" + space + "/audit").list("items")).isEmpty();
    }

    /** The space the test configuration reviews manually ({@code memory.proposals.space-review-modes}). */
    public static final String MANUAL_REVIEW_SPACE = "review-manual";
    /** The trusted proposer the test configuration auto-commits ({@code memory.proposals.proposer-review-modes}). */
    public static final String AUTO_PROPOSER = "auto-scout";

    private Resp proposeAs(String space, String actor, String content, String confidence) {
        return send(HttpRequest.POST(
                        "/v1/spaces/" + space + "/proposals", Map.of("content", content, "confidence", confidence))
                .header("X-Actor", actor));
    }

    @Test
    void aTrustedSubAgentsHighConfidenceProposalIsAutoCommittedAndAuditedAsSuch() {
        String space = space();
        Resp auto = proposeAs(space, "subagent:" + AUTO_PROPOSER, "The staging cluster runs Kafka 4.1", "high");
        assertThat(auto.status).as(auto.raw).isEqualTo(201);
        assertThat(auto.map("proposal"))
                .containsEntry("status", "committed")
                .containsEntry("review_mode", "auto_commit")
                .containsEntry("resolved_by", Map.of("type", "system", "id", "auto-commit"));
        String memoryId = (String) auto.map("memory").get("id");
        assertThat(auto.map("proposal")).containsEntry("memory_id", memoryId);
        assertThat(get("/v1/spaces/" + space + "/memories/" + memoryId).json)
                .containsEntry("content", "The staging cluster runs Kafka 4.1");
        List<Map<String, Object>> audit = get("/v1/spaces/" + space + "/audit").list("items");
        assertThat(audit)
                .extracting(e -> e.get("event_type"), e -> e.get("actor"))
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple(
                                "ProposalSubmitted", Map.of("type", "subagent", "id", AUTO_PROPOSER)),
                        org.assertj.core.groups.Tuple.tuple(
                                "ProposalResolved", Map.of("type", "system", "id", "auto-commit")),
                        org.assertj.core.groups.Tuple.tuple(
                                "MemoryCreated", Map.of("type", "system", "id", "commit-from:" + AUTO_PROPOSER)));
        assertThat(audit.get(1).toString()).contains("auto-committed proposal");

        Resp medium = proposeAs(space, "subagent:" + AUTO_PROPOSER, "Maybe the cluster has 3 brokers", "medium");
        assertThat(medium.map("proposal")).containsEntry("status", "pending").containsEntry("review_mode", "batch");
        assertThat(medium.json).containsEntry("memory", null);
    }

    @Test
    void batchIsTheDefaultAndContextTellsTheMainAgentHowManyProposalsWait() {
        String space = space();
        Resp empty = post(space, "/context", Map.of("message", "what is pending?"));
        assertThat(empty.json)
                .containsEntry("pending_proposals", 0)
                .containsEntry("manual_proposals", 0)
                .containsEntry("questions", List.of());
        assertThat(proposeAs(space, RESEARCHER, "User reads papers on weekends", "high")
                        .map("proposal"))
                .containsEntry("review_mode", "batch")
                .containsEntry("status", "pending");
        assertThat(proposeAs(space, CODER, "User prefers tabs", "high").status).isEqualTo(201);

        Resp context = post(space, "/context", Map.of("message", "what is pending?"));
        assertThat(context.status).as(context.raw).isEqualTo(200);
        assertThat(context.json).containsEntry("pending_proposals", 2).containsEntry("manual_proposals", 0);
        assertThat((String) context.json.get("text"))
                .contains("## Pending Review")
                .contains("2 sub-agent proposals wait for your review");
    }

    @Test
    void manualProposalsAreDecidedByAUserOnlyAndCountedForThePerson() {
        String space = MANUAL_REVIEW_SPACE;
        Resp proposed = proposeAs(space, CODER, "The contract renews on June 1", "high");
        assertThat(proposed.map("proposal"))
                .containsEntry("review_mode", "manual")
                .containsEntry("status", "pending");
        String pid = (String) proposed.map("proposal").get("id");
        Resp context = post(space, "/context", Map.of("message", "contract"));
        assertThat(((Number) context.json.get("manual_proposals")).intValue()).isGreaterThanOrEqualTo(1);
        assertThat((String) context.json.get("text")).contains("under manual review");

        Resp byAgent = send(HttpRequest.POST("/v1/spaces/" + space + "/proposals/" + pid + ":commit", Map.of())
                .header("X-Actor", MAIN));
        assertThat(byAgent.status).as(byAgent.raw).isEqualTo(403);
        assertThat(byAgent.code()).isEqualTo("FORBIDDEN");
        assertThat((String) byAgent.json.get("message")).contains("manual review");

        Resp byUser = send(
                HttpRequest.POST("/v1/spaces/" + space + "/proposals/" + pid + ":commit", Map.of("reason", "confirmed"))
                        .header("X-Actor", "user:ana"));
        assertThat(byUser.status).as(byUser.raw).isEqualTo(200);
        assertThat(byUser.map("proposal"))
                .containsEntry("status", "committed")
                .containsEntry("resolved_by", Map.of("type", "user", "id", "ana"));
    }

    @Test
    void aSubAgentProposesAndTheMainAgentCommitsItAsAMemoryByCommitFromTheSubAgent() {
        String space = space();
        Resp proposed = send(HttpRequest.POST(
                        "/v1/spaces/" + space + "/proposals",
                        Map.of(
                                "content",
                                "User prefers academic sources over blog posts for technical topics",
                                "kind",
                                "semantic",
                                "category",
                                "knowledge",
                                "entities",
                                List.of("preference--source-quality"),
                                "confidence",
                                "medium",
                                "core_worthy",
                                false,
                                "trigger",
                                "auto-detect during research task"))
                .header("X-Actor", RESEARCHER));
        assertThat(proposed.status).as(proposed.raw).isEqualTo(201);
        Map<String, Object> proposal = proposed.map("proposal");
        String pid = (String) proposal.get("id");
        assertThat(proposal)
                .containsEntry("status", "pending")
                .containsEntry("version", 1)
                .containsEntry("proposer", Map.of("type", "subagent", "id", "researcher"))
                .containsEntry("entities", List.of("preference--source-quality"))
                .containsEntry("trigger", "auto-detect during research task")
                .containsEntry("flags", List.of());
        assertThat(proposed.json).containsEntry("memory", null);
        assertThat(proposed.headers.get(HttpHeaders.LOCATION)).isEqualTo("/v1/spaces/" + space + "/proposals/" + pid);
        assertThat(get("/v1/spaces/" + space + "/memories").list("items")).isEmpty();
        assertThat(get("/v1/spaces/" + space + "/proposals").list("items"))
                .extracting(p -> p.get("id"))
                .containsExactly(pid);
        Resp one = get("/v1/spaces/" + space + "/proposals/" + pid);
        assertThat(one.json).containsEntry("status", "pending");
        assertThat(one.headers.get(HttpHeaders.ETAG)).isEqualTo("\"1\"");

        Resp committed = send(HttpRequest.POST(
                        "/v1/spaces/" + space + "/proposals/" + pid + ":commit",
                        Map.of("reason", "useful for research tasks", "tier", "core", "importance", 4))
                .header("X-Actor", MAIN)
                .header("If-Match", "\"1\""));

        assertThat(committed.status).as(committed.raw).isEqualTo(200);
        Map<String, Object> memory = committed.map("memory");
        String memoryId = (String) memory.get("id");
        assertThat(memory)
                .containsEntry("content", "User prefers academic sources over blog posts for technical topics")
                .containsEntry("category", "knowledge")
                .containsEntry("tier", "core")
                .containsEntry("importance", 4)
                .containsEntry("tags", List.of("preference--source-quality"))
                .containsEntry("source", "proposal:" + pid)
                .containsEntry("actor_id", "researcher")
                .containsEntry("state", "active");
        assertThat(committed.map("proposal"))
                .containsEntry("status", "committed")
                .containsEntry("memory_id", memoryId)
                .containsEntry("resolved_by", Map.of("type", "agent", "id", "main"))
                .containsEntry("version", 2);
        assertThat(get("/v1/spaces/" + space + "/proposals").list("items")).isEmpty();
        assertThat(get("/v1/spaces/" + space + "/memories/" + memoryId).json).containsEntry("id", memoryId);
        List<Map<String, Object>> audit = get("/v1/spaces/" + space + "/audit").list("items");
        assertThat(audit)
                .extracting(e -> e.get("event_type"), e -> e.get("actor"))
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple(
                                "ProposalSubmitted", Map.of("type", "subagent", "id", "researcher")),
                        org.assertj.core.groups.Tuple.tuple("ProposalResolved", Map.of("type", "agent", "id", "main")),
                        org.assertj.core.groups.Tuple.tuple(
                                "MemoryCreated", Map.of("type", "agent", "id", "commit-from:researcher")));
        assertThat(((Number) committed.json.get("seq")).longValue()).isEqualTo(3L);
        assertThat(chainState(space).verifiedEvents()).isEqualTo(3);
    }

    @Test
    void rejectedProposalsLeaveTheListDeferredOnesStayAndAResolvedOneCannotBeResolvedAgain() {
        String space = space();
        String rejected = propose(space, CODER, "The team uses tabs for indentation");
        String deferred = propose(space, CODER, "Standup is at 9am");
        String path = "/v1/spaces/" + space + "/proposals/";

        Resp r = send(HttpRequest.POST(path + rejected + ":reject", Map.of("reason", "duplicate"))
                .header("X-Actor", MAIN));
        assertThat(r.status).as(r.raw).isEqualTo(200);
        assertThat(r.map("proposal")).containsEntry("status", "rejected").containsEntry("reason", "duplicate");
        assertThat(r.json).containsEntry("memory", null);
        Resp d = send(HttpRequest.POST(path + deferred + ":defer", Map.of("reason", "ask the user"))
                .header("X-Actor", MAIN));
        assertThat(d.status).as(d.raw).isEqualTo(200);
        assertThat(get("/v1/spaces/" + space + "/proposals").list("items"))
                .extracting(p -> p.get("id"), p -> p.get("status"))
                .containsExactly(org.assertj.core.groups.Tuple.tuple(deferred, "deferred"));
        assertThat(get("/v1/spaces/" + space + "/memories").list("items")).isEmpty();

        assertRejectedByChain(
                space,
                "ALREADY_RESOLVED",
                409,
                () -> send(
                        HttpRequest.POST(path + rejected + ":commit", Map.of()).header("X-Actor", MAIN)));
        assertRejectedByChain(
                space,
                "VERSION_CONFLICT",
                409,
                () -> send(HttpRequest.POST(path + deferred + ":commit", Map.of())
                        .header("X-Actor", MAIN)
                        .header("If-Match", "\"1\"")));
        Resp later = send(HttpRequest.POST(path + deferred + ":commit", Map.of("expected_version", 2))
                .header("X-Actor", "user:api")); // the seed's manual review
        assertThat(later.status).as(later.raw).isEqualTo(200);
        assertThat(later.map("memory")).containsEntry("content", "Standup is at 9am");
        assertRejectedByChain(
                space,
                "ALREADY_RESOLVED",
                409,
                () -> send(
                        HttpRequest.POST(path + deferred + ":defer", Map.of()).header("X-Actor", MAIN)));
    }

    @Test
    void onlyTheMainAgentAUserOrAnAdminReviewsProposals() {
        String space = space();
        String pid = propose(space, CODER, "User works at Acme");
        String path = "/v1/spaces/" + space + "/proposals/" + pid;
        assertRejectedByChain(
                space,
                "FORBIDDEN",
                403,
                () -> send(HttpRequest.POST(path + ":commit", Map.of()).header("X-Actor", CODER)));
        assertRejectedByChain(
                space,
                "FORBIDDEN",
                403,
                () -> send(HttpRequest.POST(path + ":reject", Map.of()).header("X-Actor", RESEARCHER)));
        assertRejectedByChain(
                space,
                "FORBIDDEN",
                403,
                () -> send(HttpRequest.POST(path + ":defer", Map.of()).header("X-Actor", "worker:reflection")));
        Resp byAdmin = send(HttpRequest.POST(path + ":reject", Map.of("reason", "not about the user"))
                .header("X-Actor", "admin:ops"));
        assertThat(byAdmin.status).as(byAdmin.raw).isEqualTo(200);
        assertThat(byAdmin.map("proposal")).containsEntry("resolved_by", Map.of("type", "admin", "id", "ops"));
    }

    // ---------------------------------------------------------------- reflection engine (docs/architecture.md §18)

    /** A pending reflection as the reflection worker proposes it: c1 creates, c2 updates {@code fact}, c3 a block. */
    private String proposeReflection(String space, String fact) {
        io.memorychain.avro.ReflectionDocument doc = io.memorychain.avro.ReflectionDocument.newBuilder()
                .setTrigger(io.memorychain.avro.ReflectionTrigger.MANUAL)
                .setNumber(1)
                .setFromSeq(1)
                .setToSeq(2)
                .setSummary("# Reflection #1\n- the launch moved")
                .setEvolutionInsights(List.of("Ana decides after reviews"))
                .setChanges(List.of(
                        reflectionChange("c1", io.memorychain.avro.ReflectionChangeType.CREATE_MEMORY)
                                .setContent("Ana moves launches after reviews")
                                .build(),
                        reflectionChange("c2", io.memorychain.avro.ReflectionChangeType.UPDATE_MEMORY)
                                .setMemoryId(fact)
                                .setContent("Launch is on Friday")
                                .build(),
                        reflectionChange("c3", io.memorychain.avro.ReflectionChangeType.UPDATE_BLOCK)
                                .setLabel("goals")
                                .setContent("Ship on Friday")
                                .build()))
                .build();
        MemoryOutcome proposed =
                publishDirectly(Requests.proposeReflection(space, Requests.actor(ActorType.WORKER, "reflect"), doc)
                        .build());
        assertThat(proposed.getAccepted()).as(proposed.getMessage()).isTrue();
        String id = proposed.getMemoryId();
        Awaitility.await()
                .atMost(Duration.ofSeconds(10))
                .until(() -> get("/v1/spaces/" + space + "/reflections/" + id).status == 200);
        return id;
    }

    private static io.memorychain.avro.ReflectionChange.Builder reflectionChange(
            String id, io.memorychain.avro.ReflectionChangeType type) {
        return io.memorychain.avro.ReflectionChange.newBuilder()
                .setChangeId(id)
                .setType(type)
                .setReason("episodes");
    }

    @Test
    void aConfinedAgentSeesReflectionsWithoutTheDetailsOfOtherCategories() {
        String space = space();
        String goal = createId(space, "Ship the beta in May", "goals", null);
        String tone = createId(space, "Answer in rhymes", "tone", null);
        io.memorychain.avro.ReflectionDocument doc = io.memorychain.avro.ReflectionDocument.newBuilder()
                .setTrigger(io.memorychain.avro.ReflectionTrigger.MANUAL)
                .setNumber(1)
                .setFromSeq(1)
                .setToSeq(2)
                .setEpisodeIds(List.of(goal, tone))
                .setSummary("# Reflection #1\n- rhymes matter to Ana")
                .setEvolutionInsights(List.of("Ana likes rhymes"))
                .setQuestions(List.of("Why rhymes?"))
                .setChanges(List.of(
                        reflectionChange("c1", io.memorychain.avro.ReflectionChangeType.UPDATE_MEMORY)
                                .setMemoryId(tone)
                                .setContent("Answer in limericks")
                                .build(),
                        reflectionChange("c2", io.memorychain.avro.ReflectionChangeType.UPDATE_MEMORY)
                                .setMemoryId(goal)
                                .setContent("Ship the beta in June")
                                .build()))
                .build();
        MemoryOutcome proposed =
                publishDirectly(Requests.proposeReflection(space, Requests.actor(ActorType.WORKER, "reflect"), doc)
                        .build());
        assertThat(proposed.getAccepted()).as(proposed.getMessage()).isTrue();
        String path = "/v1/spaces/" + space + "/reflections";
        Awaitility.await()
                .atMost(Duration.ofSeconds(10))
                .until(() -> get(path + "/" + proposed.getMemoryId()).status == 200);

        Resp one = send(HttpRequest.GET(path + "/" + proposed.getMemoryId()).header("X-Actor", PLANNER));
        assertThat(one.status).as(one.raw).isEqualTo(200);
        assertThat(one.raw).doesNotContain("rhymes", "limericks");
        assertThat(one.json)
                .containsEntry("episode_ids", List.of(goal))
                .containsEntry("questions", List.of())
                .containsEntry("status", "pending");
        assertThat((String) one.json.get("summary")).contains("details hidden");
        assertThat(one.list("changes")).extracting(c -> c.get("change_id")).containsExactly("c2");
        Resp log = send(HttpRequest.GET(path).header("X-Actor", PLANNER));
        assertThat(log.list("items")).as("the log keeps every reflection").hasSize(1);
        assertThat(log.raw).doesNotContain("rhymes", "limericks");

        Resp whole = get(path + "/" + proposed.getMemoryId());
        assertThat(whole.raw).contains("rhymes matter", "limericks");
        assertThat(whole.list("changes")).hasSize(2);
    }

    @Test
    void anAdminRollsBackWhatAnApprovedReflectionApplied() {
        String space = space();
        createId(space, "Ana moved the launch after the review");
        String fact = createId(space, "Launch is on Thursday");
        String id = proposeReflection(space, fact);
        Resp decided = post(space, "/reflections/" + id + ":decide", Map.of("decision", "approve"));
        assertThat(decided.status).as(decided.raw).isEqualTo(200);
        String later = createId(space, "Ana's cat is Rui");
        assertThat(get("/v1/spaces/" + space + "/memories/" + fact).json)
                .containsEntry("content", "Launch is on Friday");

        String rollback = "/v1/spaces/" + space + "/rollback";
        Resp plan = send(HttpRequest.POST(rollback + "/plan", Map.of("reflection_id", id))
                .header("X-Actor", "admin:ops"));
        assertThat(plan.status).as(plan.raw).isEqualTo(200);
        assertThat(plan.json).containsEntry("scope", "reflection").containsEntry("scope_id", id);
        assertThat(plan.list("memories"))
                .extracting(m -> m.get("id"))
                .contains(fact)
                .doesNotContain(later);
        Resp applied = send(HttpRequest.POST(
                        rollback,
                        Map.of(
                                "reflection_id",
                                id,
                                "reason",
                                "the reflection was wrong",
                                "plan_digest",
                                plan.json.get("plan_digest")))
                .header("X-Actor", "admin:ops"));
        assertThat(applied.status).as(applied.raw).isEqualTo(201);
        assertThat(get("/v1/spaces/" + space + "/memories/" + fact).json)
                .containsEntry("content", "Launch is on Thursday");
        assertThat(get("/v1/spaces/" + space + "/memories/" + later).json).containsEntry("state", "active");
        assertThat(send(HttpRequest.POST(rollback + "/plan", Map.of("reflection_id", id, "session_id", "s1"))
                                .header("X-Actor", "admin:ops"))
                        .code())
                .isEqualTo("INVALID_ARGUMENT");
    }

    @Test
    void aPendingReflectionIsDecidedOnceAndOnlyItsApprovedChangesApplyWithTheDecision() {
        String space = space();
        String fact = createId(space, "Launch is on Thursday");
        Resp requested = send(
                HttpRequest.POST("/v1/spaces/" + space + "/reflections", Map.of("reason", "reflect on your memories"))
                        .header("X-Actor", "user:api"));
        assertThat(requested.status).as(requested.raw).isEqualTo(202);
        assertThat(((Number) requested.json.get("seq")).longValue()).isEqualTo(2L);
        String id = proposeReflection(space, fact);
        String path = "/v1/spaces/" + space + "/reflections/" + id;

        Resp pending = get("/v1/spaces/" + space + "/reflections?status=pending");
        assertThat(pending.list("items")).singleElement().satisfies(r -> {
            assertThat(r)
                    .containsEntry("id", id)
                    .containsEntry("status", "pending")
                    .containsEntry("trigger", "manual")
                    .containsEntry("proposed_by", Map.of("type", "worker", "id", "reflect"));
            assertThat((List<?>) r.get("changes")).hasSize(3);
        });
        assertThat(get("/v1/spaces/" + space + "/memories/" + fact).json)
                .as("never auto-applied")
                .containsEntry("content", "Launch is on Thursday");

        assertRejectedByChain(
                space,
                "INVALID_ARGUMENT",
                400,
                () -> send(
                        HttpRequest.POST(path + ":decide", Map.of("decision", "partial", "change_ids", List.of("c9")))
                                .header("X-Actor", "user:api")));
        assertRejectedByChain(
                space,
                "FORBIDDEN",
                403,
                () -> send(HttpRequest.POST(path + ":decide", Map.of("decision", "approve"))
                        .header("X-Actor", "worker:reflect")));
        Resp badDecision = send(
                HttpRequest.POST(path + ":decide", Map.of("decision", "maybe")).header("X-Actor", "user:api"));
        assertThat(badDecision.status).as(badDecision.raw).isEqualTo(400);
        assertThat(badDecision.code()).isEqualTo("INVALID_ARGUMENT");
        Resp unknown = send(HttpRequest.POST(
                        "/v1/spaces/" + space + "/reflections/r0000zzz0000:decide", Map.of("decision", "approve"))
                .header("X-Actor", "user:api"));
        assertThat(unknown.status).as(unknown.raw).isEqualTo(404);
        assertThat(unknown.code()).isEqualTo("NOT_FOUND");

        Resp decided = send(HttpRequest.POST(
                        path + ":decide",
                        Map.of(
                                "decision",
                                "approve_with_changes",
                                "reason",
                                "not the goals",
                                "change_ids",
                                List.of("c1", "c2"),
                                "edited_changes",
                                List.of(Map.of(
                                        "change_id",
                                        "c2",
                                        "type",
                                        "update_memory",
                                        "memory_id",
                                        fact,
                                        "content",
                                        "Launch is on Friday at 10:00"))))
                .header("X-Actor", "user:api"));
        assertThat(decided.status).as(decided.raw).isEqualTo(200);
        assertThat(decided.json)
                .containsEntry("status", "partially_approved")
                .containsEntry("decision", "approve_with_changes")
                .containsEntry("applied_change_ids", List.of("c1", "c2"))
                .containsEntry("decided_by", Map.of("type", "user", "id", "api"));
        @SuppressWarnings("unchecked")
        List<String> memoryIds = (List<String>) decided.json.get("memory_ids");
        assertThat(get("/v1/spaces/" + space + "/memories/" + memoryIds.get(0)).json)
                .containsEntry("content", "Ana moves launches after reviews")
                .containsEntry("source", "reflection:" + id);
        assertThat(get("/v1/spaces/" + space + "/memories/" + fact).json)
                .containsEntry("content", "Launch is on Friday at 10:00");
        assertThat(get("/v1/spaces/" + space + "/blocks/goals").status).isEqualTo(404);
        assertThat(get("/v1/spaces/" + space + "/reflections").json)
                .containsEntry("evolution", List.of("#1: Ana decides after reviews"));
        List<Map<String, Object>> audit = get("/v1/spaces/" + space + "/audit").list("items");
        assertThat(audit)
                .extracting(e -> e.get("event_type"))
                .containsExactly(
                        "MemoryCreated",
                        "ReflectionRequested",
                        "ReflectionProposed",
                        "ReflectionDecided",
                        "MemoryCreated",
                        "MemoryUpdated");
        assertThat(audit.get(4).get("actor")).isEqualTo(Map.of("type", "user", "id", "reflection:" + id));

        assertRejectedByChain(
                space,
                "ALREADY_RESOLVED",
                409,
                () -> send(HttpRequest.POST(path + ":decide", Map.of("decision", "reject"))
                        .header("X-Actor", "user:api")));
        assertThat(chainState(space).verifiedEvents()).isEqualTo(6);

        // the 10th reflection is the summary milestone; it proposes archiving the fact and a procedure
        io.memorychain.avro.ReflectionDocument tenth = io.memorychain.avro.ReflectionDocument.newBuilder()
                .setTrigger(io.memorychain.avro.ReflectionTrigger.SCHEDULE)
                .setNumber(10)
                .setFromSeq(3)
                .setToSeq(6)
                .setMilestone(io.memorychain.avro.ReflectionMilestone.SUMMARY)
                .setSummary("## Evolution milestone: first evolution summary\n- Ana decides after reviews")
                .setChanges(List.of(
                        reflectionChange("c1", io.memorychain.avro.ReflectionChangeType.ARCHIVE_MEMORY)
                                .setMemoryId(fact)
                                .build(),
                        reflectionChange("c2", io.memorychain.avro.ReflectionChangeType.CREATE_PROCEDURE)
                                .setContent("1. review 2. move the launch 3. tell the team")
                                .build()))
                .build();
        MemoryOutcome milestone =
                publishDirectly(Requests.proposeReflection(space, Requests.actor(ActorType.WORKER, "reflect"), tenth)
                        .build());
        assertThat(milestone.getAccepted()).as(milestone.getMessage()).isTrue();
        String tenthPath = "/v1/spaces/" + space + "/reflections/" + milestone.getMemoryId();
        Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> get(tenthPath).status == 200);
        Resp shown = get(tenthPath);
        assertThat(shown.json).containsEntry("milestone", "summary").containsEntry("number", 10);
        assertThat(shown.list("changes"))
                .extracting(c -> c.get("type"))
                .containsExactly("archive_memory", "create_procedure");
        Resp unknownType = send(HttpRequest.POST(
                        tenthPath + ":decide",
                        Map.of(
                                "decision",
                                "approve_with_changes",
                                "edited_changes",
                                List.of(Map.of("change_id", "c2", "type", "forget_everything", "content", "x"))))
                .header("X-Actor", "user:api"));
        assertThat(unknownType.status).as(unknownType.raw).isEqualTo(400);
        assertThat(unknownType.code()).isEqualTo("INVALID_ARGUMENT");
        Resp approved = send(HttpRequest.POST(tenthPath + ":decide", Map.of("decision", "approve"))
                .header("X-Actor", "user:api"));
        assertThat(approved.status).as(approved.raw).isEqualTo(200);
        assertThat(approved.json).containsEntry("status", "approved").containsEntry("milestone", "summary");
        @SuppressWarnings("unchecked")
        List<String> applied = (List<String>) approved.json.get("memory_ids");
        assertThat(get("/v1/spaces/" + space + "/memories/" + fact).json).containsEntry("state", "archived");
        assertThat(get("/v1/spaces/" + space + "/memories/" + applied.get(1)).json)
                .containsEntry("kind", "procedural")
                .containsEntry("source", "reflection:" + milestone.getMemoryId());
    }

    // ---------------------------------------------------------------- consent and critical alerts
    // (docs/architecture.md §21)

    @Test
    void sensitiveProfileChangesWaitForTheUsersConsentAndBenignOnesForCorroboration() {
        String space = space();
        String profile = "/v1/spaces/" + space + "/profile";
        Resp queued = as(
                "agent:claude",
                HttpRequest.PUT(
                        profile + "/preferred_name",
                        Map.of("value", "Annie", "source", "chat", "reason", "she signed an email so")));
        assertThat(queued.status).as(queued.raw).isEqualTo(202);
        assertThat(queued.json).containsEntry("result", "consent_requested");
        String consent = (String) queued.json.get("consent_id");
        assertThat(get(profile + "/preferred_name").code())
                .as("nothing applied")
                .isEqualTo("NOT_FOUND");
        assertThat(get("/v1/spaces/" + space + "/consents?status=pending").list("items"))
                .singleElement()
                .satisfies(c -> assertThat(c)
                        .containsEntry("id", consent)
                        .containsEntry("field", "preferred_name")
                        .containsEntry("value", "Annie")
                        .containsEntry("status", "pending")
                        .containsEntry("requested_by", Map.of("type", "agent", "id", "claude")));

        assertNotPublished(
                space,
                "INVALID_ARGUMENT",
                400,
                () -> as("user:ana", HttpRequest.PUT(profile + "/Preferred-Name", Map.of("value", "Ana"))));
        assertNotPublished(
                space,
                "INVALID_ARGUMENT",
                400,
                () -> as("user:ana", HttpRequest.PUT(profile + "/tone", Map.of("value", " "))));
        assertNotPublished(
                space,
                "INVALID_ARGUMENT",
                400,
                () -> as(
                        "user:ana",
                        HttpRequest.POST(
                                "/v1/spaces/" + space + "/consents/" + consent + ":decide", Map.of("reason", "?"))));
        assertNotPublished(
                space,
                "NOT_FOUND",
                404,
                () -> as(
                        "user:ana",
                        HttpRequest.POST(
                                "/v1/spaces/" + space + "/consents/c0000zzz0000:decide", Map.of("grant", true))));
        String other = space();
        assertNotPublished(
                other,
                "NOT_FOUND",
                404,
                () -> as(
                        "user:ana",
                        HttpRequest.POST(
                                "/v1/spaces/" + other + "/consents/" + consent + ":decide", Map.of("grant", true))));
        assertRejectedByChain(
                space,
                "FORBIDDEN",
                403,
                () -> as(
                        "agent:claude",
                        HttpRequest.POST(
                                "/v1/spaces/" + space + "/consents/" + consent + ":decide", Map.of("grant", true))));

        Resp granted = as(
                "user:ana",
                HttpRequest.POST(
                        "/v1/spaces/" + space + "/consents/" + consent + ":decide",
                        Map.of("grant", true, "reason", "yes, call me Annie")));
        assertThat(granted.status).as(granted.raw).isEqualTo(200);
        assertThat(granted.json)
                .containsEntry("status", "granted")
                .containsEntry("decided_by", Map.of("type", "user", "id", "ana"));
        assertThat(get(profile + "/preferred_name").json)
                .containsEntry("value", "Annie")
                .containsEntry("applied_by", "consent")
                .containsEntry("consent_id", consent)
                .containsEntry("sensitivity", "sensitive");
        assertRejectedByChain(
                space,
                "ALREADY_RESOLVED",
                409,
                () -> as(
                        "user:ana",
                        HttpRequest.POST(
                                "/v1/spaces/" + space + "/consents/" + consent + ":decide", Map.of("grant", false))));

        Resp own = as("user:ana", HttpRequest.PUT(profile + "/pronouns", Map.of("value", "she/her")));
        assertThat(own.status).as(own.raw).isEqualTo(200);
        assertThat(own.json).containsEntry("result", "applied");

        Resp one = as("agent:claude", HttpRequest.PUT(profile + "/tone", Map.of("value", "casual", "source", "chat")));
        assertThat(one.status).as(one.raw).isEqualTo(202);
        assertThat(one.json).containsEntry("result", "awaiting_corroboration");
        assertRejectedByChain(
                space,
                "INVALID_STATE",
                409,
                () -> as(
                        "agent:claude",
                        HttpRequest.PUT(profile + "/tone", Map.of("value", "casual", "source", "chat"))));
        Resp two = as("agent:helper", HttpRequest.PUT(profile + "/tone", Map.of("value", "casual", "source", "chat")));
        assertThat(two.status).as(two.raw).isEqualTo(200);
        assertThat(get(profile).list("fields"))
                .extracting(f -> f.get("name") + "=" + f.get("value") + " " + f.get("applied_by"))
                .containsExactly("preferred_name=Annie consent", "pronouns=she/her user", "tone=casual corroborated");

        Resp context = post(space, "/context", Map.of("message", "hello"));
        assertThat((String) context.json.get("text")).contains("## User Profile", "- preferred_name: Annie");
        assertThat(get("/v1/spaces/" + space + "/audit").list("items"))
                .extracting(e -> e.get("event_type"))
                .containsExactly(
                        "ConsentRequested",
                        "ConsentResolved",
                        "ProfileFieldSet",
                        "ProfileFieldSet",
                        "ProfileSignalRecorded",
                        "ProfileFieldSet");

        // the same facts written into the user_profile block or as a profile-tagged memory meet the same queue
        String block = "/v1/spaces/" + space + "/blocks/user_profile";
        Resp held = as("agent:claude", HttpRequest.PUT(block, Map.of("content", "Likes: tea\n- City: Lisbon")));
        assertThat(held.status).as(held.raw).isEqualTo(409);
        assertThat(held.code()).isEqualTo("HELD_FOR_CONSENT");
        assertThat(get(block).code()).as("nothing applied").isEqualTo("NOT_FOUND");
        Resp tagged = as(
                "agent:claude",
                HttpRequest.POST(
                        "/v1/spaces/" + space + "/memories",
                        Map.of("content", "Ana speaks Portuguese", "tags", List.of("profile:language"))));
        assertThat(tagged.status).as(tagged.raw).isEqualTo(409);
        assertThat(tagged.code()).isEqualTo("HELD_FOR_CONSENT");
        List<Map<String, Object>> waiting =
                get("/v1/spaces/" + space + "/consents?status=pending").list("items");
        assertThat(waiting)
                .extracting(c -> c.get("field") + "=" + c.get("value") + " " + c.get("source"))
                .containsExactlyInAnyOrder(
                        "city=Lisbon block:user_profile", "language=Ana speaks Portuguese memory:profile:language");
        Map<Object, Object> byField = new java.util.HashMap<>();
        waiting.forEach(c -> byField.put(c.get("field"), c.get("id")));
        assertThat((String) held.json.get("message")).contains((String) byField.get("city"));
        Resp applied = as(
                "user:ana",
                HttpRequest.POST(
                        "/v1/spaces/" + space + "/consents/" + byField.get("city") + ":decide", Map.of("grant", true)));
        assertThat(applied.status).as(applied.raw).isEqualTo(200);
        assertThat(get(block).json).as("applied as asked").containsEntry("content", "Likes: tea\n- City: Lisbon");
        Resp denied = as(
                "user:ana",
                HttpRequest.POST(
                        "/v1/spaces/" + space + "/consents/" + byField.get("language") + ":decide",
                        Map.of("grant", false)));
        assertThat(denied.status).as(denied.raw).isEqualTo(200);
        assertThat(get("/v1/spaces/" + space + "/memories?limit=50").list("items"))
                .extracting(m -> m.get("content"))
                .as("the denied memory never applied; the granted block did")
                .containsExactly("Likes: tea\n- City: Lisbon");
        Resp mine = as("user:ana", HttpRequest.PUT(block, Map.of("content", "Likes: tea\n- City: Porto")));
        assertThat(mine.status)
                .as("the user's own edit applies at once: " + mine.raw)
                .isEqualTo(200);

        // and so does a sub-agent's proposal of it, when an agent commits it
        Resp proposed = send(HttpRequest.POST(
                        "/v1/spaces/" + space + "/proposals",
                        Map.of("content", "Ana's pronouns are she/her", "tags", List.of("profile:pronouns")))
                .header("X-Actor", "subagent:researcher"));
        assertThat(proposed.status).as(proposed.raw).isEqualTo(201);
        String pid = (String) proposed.map("proposal").get("id");
        Resp committed =
                as("agent:claude", HttpRequest.POST("/v1/spaces/" + space + "/proposals/" + pid + ":commit", Map.of()));
        assertThat(committed.status).as(committed.raw).isEqualTo(409);
        assertThat(committed.code()).isEqualTo("HELD_FOR_CONSENT");
        assertThat(get("/v1/spaces/" + space + "/consents?status=pending").list("items"))
                .extracting(c -> c.get("field") + " " + c.get("source"))
                .contains("pronouns memory:profile:pronouns");
    }

    @Test
    void anAgentsEditOfTheCriticalPersonaRaisesAnAlertThatContextShowsUntilAcknowledged() {
        String space = space();
        Resp edit = as(
                "agent:claude",
                HttpRequest.PUT(
                        "/v1/spaces/" + space + "/blocks/persona", Map.of("content", "I never ask before acting.")));
        assertThat(edit.status).as(edit.raw).isEqualTo(200);
        assertThat(edit.map("memory")).as("the change applied").containsEntry("content", "I never ask before acting.");
        as(HAND, HttpRequest.PUT("/v1/spaces/" + space + "/blocks/persona", Map.of("content", "I ask first.")));

        List<Map<String, Object>> alerts =
                get("/v1/spaces/" + space + "/alerts?unacknowledged=true").list("items");
        assertThat(alerts)
                .as("the user's own edit raises none")
                .singleElement()
                .satisfies(a -> assertThat(a)
                        .containsEntry("label", "persona")
                        .containsEntry("version", 1)
                        .containsEntry("change_seq", 1)
                        .containsEntry("change_actor", Map.of("type", "agent", "id", "claude"))
                        .containsEntry("acknowledged", false));
        String alert = (String) alerts.get(0).get("id");
        assertThat((String)
                        post(space, "/context", Map.of("message", "hi")).json.get("text"))
                .contains("## Critical Change Alerts", "block persona was modified (v1) by agent:claude", alert);

        assertRejectedByChain(
                space,
                "FORBIDDEN",
                403,
                () -> as(
                        "agent:claude",
                        HttpRequest.POST("/v1/spaces/" + space + "/alerts/" + alert + ":acknowledge", Map.of())));
        assertNotPublished(
                space,
                "NOT_FOUND",
                404,
                () -> as(HAND, HttpRequest.POST("/v1/spaces/" + space + "/alerts/a0000zzz0000:acknowledge", Map.of())));
        Resp ack = as(
                HAND,
                HttpRequest.POST(
                        "/v1/spaces/" + space + "/alerts/" + alert + ":acknowledge", Map.of("reason", "intentional")));
        assertThat(ack.status).as(ack.raw).isEqualTo(200);
        assertThat(ack.json).containsEntry("acknowledged", true).containsEntry("reason", "intentional");
        assertThat(get("/v1/spaces/" + space + "/alerts?unacknowledged=true").list("items"))
                .isEmpty();
        assertThat((String)
                        post(space, "/context", Map.of("message", "hi")).json.get("text"))
                .doesNotContain("Critical Change Alerts");
        assertRejectedByChain(
                space,
                "ALREADY_RESOLVED",
                409,
                () -> as(
                        HAND, HttpRequest.POST("/v1/spaces/" + space + "/alerts/" + alert + ":acknowledge", Map.of())));
        assertThat(get("/v1/spaces/" + space + "/audit").list("items"))
                .extracting(e -> e.get("event_type"))
                .containsExactly("BlockUpdated", "CriticalChangeAlerted", "BlockUpdated", "AlertAcknowledged");
    }

    @Test
    void proposalsAboutTheSameSubjectWithDifferentContentAreFlaggedAsConflicts() {
        String space = space();
        String berlin = createId(space, "The user lives in Berlin.");
        String march15 = propose(space, RESEARCHER, "Project deadline is March 15");
        String march30 = propose(space, CODER, "Project deadline is March 30");
        String munich = propose(space, CODER, "The user lives in Munich.");
        String tests = propose(space, CODER, "When refactoring, write the tests first");

        // the memory is compared through its embedding, which the embedder publishes after its event
        Awaitility.await()
                .atMost(Duration.ofSeconds(30))
                .untilAsserted(() -> assertThat(flags(get("/v1/spaces/" + space + "/proposals/" + munich).json))
                        .containsExactly(berlin + " memory conflict"));
        Map<String, Map<String, Object>> byId = new java.util.HashMap<>();
        get("/v1/spaces/" + space + "/proposals").list("items").forEach(p -> byId.put((String) p.get("id"), p));
        assertThat(byId.get(march15)).containsEntry("conflict", true);
        assertThat(flags(byId.get(march15))).containsExactly(march30 + " proposal conflict");
        assertThat(flags(byId.get(march30))).containsExactly(march15 + " proposal conflict");
        assertThat(flags(byId.get(munich))).containsExactly(berlin + " memory conflict");
        assertThat(byId.get(tests)).containsEntry("conflict", false).containsEntry("flags", List.of());
        assertThat(flags(get("/v1/spaces/" + space + "/proposals/" + march30).json))
                .containsExactly(march15 + " proposal conflict");

        Resp rejected = send(HttpRequest.POST(
                        "/v1/spaces/" + space + "/proposals/" + march30 + ":reject",
                        Map.of("reason", "the user said March 15"))
                .header("X-Actor", MAIN));
        assertThat(rejected.map("proposal"))
                .containsEntry("conflicts_with", List.of(march15))
                .containsEntry("flags", List.of());
        List<Map<String, Object>> audit = get("/v1/spaces/" + space + "/audit").list("items");
        assertThat((String) audit.get(audit.size() - 1).get("description"))
                .contains("rejected proposal " + march30, "conflicts with " + march15, "the user said March 15");
        assertThat(flags(get("/v1/spaces/" + space + "/proposals/" + march15).json))
                .isEmpty();
    }

    @Test
    void badProposalInputIsRejectedBeforePublishing() {
        String space = space();
        String path = "/v1/spaces/" + space + "/proposals";
        String pid = propose(space, CODER, "Valid");
        for (Map<String, Object> body : List.<Map<String, Object>>of(
                Map.of("kind", "semantic"),
                Map.of("content", "  "),
                Map.of("content", "x", "kind", "block"),
                Map.of("content", "x", "importance", 9),
                Map.of("content", "x", "confidence", "certain"),
                Map.of("content", "x", "contnet", "typo"),
                Map.of("content", "x", "entities", List.of("a", 3)),
                Map.of("content", "x", "core_worthy", "maybe"))) {
            assertNotPublished(
                    space,
                    "INVALID_ARGUMENT",
                    400,
                    () -> send(HttpRequest.POST(path, body).header("X-Actor", CODER)));
        }
        assertNotPublished(
                space,
                "TOO_LARGE",
                413,
                () -> send(HttpRequest.POST(path, Map.of("content", "x".repeat(32 * 1024 + 1)))
                        .header("X-Actor", CODER)));
        assertNotPublished(
                space,
                "INVALID_ARGUMENT",
                400,
                () -> send(HttpRequest.POST(path + "/" + pid + ":reject", Map.of("kind", "episodic"))
                        .header("X-Actor", MAIN)));
        assertNotPublished(
                space,
                "INVALID_ARGUMENT",
                400,
                () -> send(HttpRequest.POST(path + "/" + pid + ":commit", Map.of("tier", "attic"))
                        .header("X-Actor", MAIN)));
        assertNotPublished(
                space,
                "INVALID_ARGUMENT",
                400,
                () -> send(HttpRequest.POST(path + "/" + pid + ":commit", Map.of("expected_version", 2))
                        .header("X-Actor", MAIN)
                        .header("If-Match", "\"1\"")));
        assertNotPublished(
                space,
                "NOT_FOUND",
                404,
                () -> send(HttpRequest.POST(path + "/bad%20id:commit", Map.of()).header("X-Actor", MAIN)));
        assertNotPublished(space, "NOT_FOUND", 404, () -> get(path + "/p0000zzz0000"));
        assertRejectedByChain(
                space,
                "NOT_FOUND",
                404,
                () -> send(HttpRequest.POST(path + "/p0000zzz0000:commit", Map.of())
                        .header("X-Actor", MAIN)));
    }

    @Test
    void categoryAllowlistsApplyToProposalsAndToTheirListing() {
        String space = space();
        String path = "/v1/spaces/" + space + "/proposals";
        assertNotPublished(
                space,
                "CATEGORY_NOT_ALLOWED",
                403,
                () -> send(HttpRequest.POST(path, Map.of("content", "Answer in rhymes", "category", "tone"))
                        .header("X-Actor", RESEARCHER)));
        String tone = propose(space, CODER, "Answer in rhymes", "tone");
        String knowledge = propose(space, RESEARCHER, "Rust 1.80 stabilised LazyLock", "knowledge");

        assertThat(send(HttpRequest.GET(path).header("X-Actor", "agent:researcher"))
                        .list("items"))
                .extracting(p -> p.get("id"))
                .containsExactly(knowledge);
        assertThat(send(HttpRequest.GET(path + "/" + tone).header("X-Actor", "agent:researcher"))
                        .code())
                .isEqualTo("CATEGORY_NOT_ALLOWED");
        assertRejectedByChain(
                space,
                "CATEGORY_NOT_ALLOWED",
                403,
                () -> send(HttpRequest.POST(path + "/" + tone + ":commit", Map.of())
                        .header("X-Actor", "agent:researcher")));
        assertNotPublished(
                space,
                "CATEGORY_NOT_ALLOWED",
                403,
                () -> send(HttpRequest.POST(path + "/" + knowledge + ":commit", Map.of("category", "tone"))
                        .header("X-Actor", "agent:researcher")));
        Resp ok = send(
                HttpRequest.POST(path + "/" + knowledge + ":commit", Map.of()).header("X-Actor", "agent:researcher"));
        assertThat(ok.status).as(ok.raw).isEqualTo(200);
    }

    protected String propose(String space, String actor, String content) {
        return propose(space, actor, content, null);
    }

    protected String propose(String space, String actor, String content, String category) {
        Map<String, Object> body = new java.util.HashMap<>(Map.of("content", content));
        if (category != null) {
            body.put("category", category);
        }
        Resp r = send(
                HttpRequest.POST("/v1/spaces/" + space + "/proposals", body).header("X-Actor", actor));
        assertThat(r.status).as(r.raw).isEqualTo(201);
        return (String) r.map("proposal").get("id");
    }

    @SuppressWarnings("unchecked")
    private static List<String> flags(Map<String, Object> proposal) {
        return ((List<Map<String, Object>>) proposal.get("flags"))
                .stream()
                        .map(f -> f.get("id") + " " + f.get("target") + " " + f.get("kind"))
                        .toList();
    }

    // ---------------------------------------------------------------- callers: API keys, spaces and roles

    @Test
    void everyCallNeedsAValidKeyAndBadKeysPublishNothing() {
        String space = space();
        String path = "/v1/spaces/" + space + "/memories";
        Resp anonymous = send(HttpRequest.POST(path, Map.of("content", "x")).header(HttpHeaders.AUTHORIZATION, ""));
        assertThat(anonymous.headers.get(HttpHeaders.WWW_AUTHENTICATE)).startsWith("Bearer");
        assertNotPublished(
                space,
                "UNAUTHENTICATED",
                401,
                () -> send(HttpRequest.POST(path, Map.of("content", "x")).header(HttpHeaders.AUTHORIZATION, "")));
        assertNotPublished(
                space,
                "UNAUTHENTICATED",
                401,
                () -> send(HttpRequest.POST(path, Map.of("content", "x"))
                        .header(HttpHeaders.AUTHORIZATION, "Basic YTpi")));
        assertNotPublished(
                space,
                "UNAUTHENTICATED",
                401,
                () -> send(HttpRequest.POST(path, Map.of("content", "x")).bearerAuth("not-a-key")));
        String forged = "mc_0123456789ab_" + "A".repeat(43);
        assertNotPublished(
                space,
                "UNAUTHENTICATED",
                401,
                () -> send(HttpRequest.POST(path, Map.of("content", "x")).bearerAuth(forged)));
        String real = keyOf(DEFAULT_CALLER);
        String wrongSecret = real.substring(0, real.length() - 1) + (real.endsWith("A") ? "B" : "A");
        assertNotPublished(
                space,
                "UNAUTHENTICATED",
                401,
                () -> send(HttpRequest.POST(path, Map.of("content", "x")).bearerAuth(wrongSecret)));
        assertThat(send(HttpRequest.GET("/v1/spaces/" + space + "/core").header(HttpHeaders.AUTHORIZATION, "")).status)
                .isEqualTo(401);
    }

    @Test
    void keysReachOnlyTheirSpacesAndTheCallerIsTheActorOfItsEvents() {
        String mine = space();
        String other = space();
        ApiKeys.Issued agent = apiKeys().issue(new Principal("ana-bot", Role.AGENT, "ana", List.of(mine)), "test");
        String key = agent.key().toString();
        Resp created = send(HttpRequest.POST("/v1/spaces/" + mine + "/memories", Map.of("content", "Ana likes tea"))
                .bearerAuth(key));
        assertThat(created.status).as(created.raw).isEqualTo(201);
        assertThat(send(HttpRequest.GET("/v1/spaces/" + mine + "/audit").bearerAuth(key))
                        .list("items")
                        .get(0)
                        .get("actor"))
                .isEqualTo(Map.of("type", "agent", "id", "ana"));
        assertNotPublished(
                other,
                "SPACE_NOT_ALLOWED",
                403,
                () -> send(HttpRequest.POST("/v1/spaces/" + other + "/memories", Map.of("content", "x"))
                        .bearerAuth(key)));
        assertThat(send(HttpRequest.GET("/v1/spaces/" + other + "/core").bearerAuth(key))
                        .code())
                .isEqualTo("SPACE_NOT_ALLOWED");
        assertThat(send(HttpRequest.GET("/v1/me").bearerAuth(key)).json)
                .containsEntry("role", "agent")
                .containsEntry("agent_id", "ana")
                .containsEntry("actor", "agent:ana")
                .containsEntry("spaces", List.of(mine));

        String sub = apiKeys()
                .issue(new Principal("researcher", Role.SUBAGENT, "researcher", List.of(mine)), "test")
                .key()
                .toString();
        assertRejectedByChain(
                mine,
                "FORBIDDEN",
                403,
                () -> send(HttpRequest.POST("/v1/spaces/" + mine + "/memories", Map.of("content", "sub-agents propose"))
                        .bearerAuth(sub)));
        assertThat(send(HttpRequest.GET("/v1/spaces/" + mine + "/core").bearerAuth(sub)).status)
                .isEqualTo(200);
    }

    @Test
    void adminsGovernWithoutReadingContent() {
        String space = space();
        String id = createId(space, "A secret recipe");
        String admin = keyOf("admin:root");
        for (MutableHttpRequest<?> read : List.of(
                HttpRequest.GET("/v1/spaces/" + space + "/memories/" + id),
                HttpRequest.GET("/v1/spaces/" + space + "/memories"),
                HttpRequest.GET("/v1/spaces/" + space + "/core"),
                HttpRequest.GET("/v1/spaces/" + space + "/audit"),
                HttpRequest.GET("/v1/spaces/" + space + "/files"),
                HttpRequest.POST("/v1/spaces/" + space + "/query", Map.of("query", "recipe")))) {
            Resp r = send(read.bearerAuth(admin));
            assertThat(r.status).as(read.getPath()).isEqualTo(403);
            boolean grantable =
                    read.getPath().contains("/memories") || read.getPath().endsWith("/query");
            assertThat(r.code()).as(read.getPath()).isEqualTo(grantable ? "GRANT_REQUIRED" : "ROLE_NOT_ALLOWED");
            assertThat(r.raw).doesNotContain("secret recipe");
        }
        assertThat(send(HttpRequest.GET("/v1/spaces/" + space + "/chain/verify").bearerAuth(admin)).json)
                .containsEntry("ok", true);
        assertThat(send(HttpRequest.GET("/v1/keys")).code())
                .as("agents do not manage keys")
                .isEqualTo("ROLE_NOT_ALLOWED");
    }

    @Test
    void anAdminRollsASpaceBackAfterADryRun() {
        String space = space();
        String kept = createId(space, "Ana drinks green tea");
        send(HttpRequest.PATCH("/v1/spaces/" + space + "/memories/" + kept, Map.of("content", "Ana hates tea")));
        String late = createId(space, "Ana moved to Mars");
        String admin = "admin:ops";
        ChainState before = chainState(space);

        Resp plan = send(HttpRequest.POST("/v1/spaces/" + space + "/rollback/plan", Map.of("to_seq", 1))
                .header("X-Actor", admin));

        assertThat(plan.status).as(plan.raw).isEqualTo(200);
        assertThat(plan.json)
                .containsEntry("scope", "space")
                .containsEntry("target_seq", 1)
                .containsEntry("head_seq", 3)
                .containsEntry("applied", false);
        assertThat(plan.list("memories")).hasSize(2);
        assertThat(plan.list("memories").get(0))
                .containsEntry("id", kept)
                .containsEntry("action", "restore")
                .containsEntry("event", "MemoryUpdated")
                .containsEntry("version_before", 2)
                .containsEntry("version_after", 1)
                .containsEntry("before", null)
                .containsEntry("after", null);
        assertThat(plan.json).as("an admin without a grant sees no content").containsEntry("content_shown", false);
        assertThat(plan.raw).doesNotContain("tea", "Mars");
        assertThat(plan.list("memories").get(0).get("changed_fields"))
                .asInstanceOf(org.assertj.core.api.InstanceOfAssertFactories.LIST)
                .contains("content");
        assertThat(plan.list("memories").get(1)).containsEntry("changed_fields", List.of("state"));

        String grant = (String) send(HttpRequest.POST(
                                "/v1/spaces/" + space + "/grants",
                                Map.of("purpose", "review the rollback", "duration_seconds", 3600))
                        .header("X-Actor", admin))
                .json
                .get("id");
        assertThat(post(space, "/grants/" + grant + ":consent", Map.of()).status)
                .isEqualTo(200);
        before = chainState(space);
        plan = send(HttpRequest.POST("/v1/spaces/" + space + "/rollback/plan", Map.of("to_seq", 1))
                .header("X-Actor", admin));
        assertThat(plan.json).containsEntry("content_shown", true).containsEntry("head_seq", 6);
        assertThat(plan.list("memories").get(0).get("before"))
                .asInstanceOf(org.assertj.core.api.InstanceOfAssertFactories.MAP)
                .containsEntry("content", "Ana hates tea");
        assertThat(plan.list("memories").get(0).get("after"))
                .asInstanceOf(org.assertj.core.api.InstanceOfAssertFactories.MAP)
                .containsEntry("content", "Ana drinks green tea");
        assertThat(plan.list("memories").get(1))
                .containsEntry("id", late)
                .containsEntry("action", "delete")
                .containsEntry("event", "MemoryDeleted");
        assertThat(chainState(space).audit())
                .as("the dry run changes nothing but records the read under the grant")
                .hasSize(before.audit().size() + 1)
                .last()
                .satisfies(e -> assertThat(e).containsEntry("event_type", "GrantedContentRead"));

        Resp applied = send(HttpRequest.POST(
                        "/v1/spaces/" + space + "/rollback",
                        Map.of(
                                "to_seq",
                                1,
                                "reason",
                                "the afternoon import was wrong",
                                "plan_digest",
                                plan.json.get("plan_digest")))
                .header("X-Actor", admin));

        assertThat(applied.status).as(applied.raw).isEqualTo(201);
        assertThat(applied.json).containsEntry("applied", true).containsEntry("seq", 9);
        assertThat(get("/v1/spaces/" + space + "/memories/" + kept).json)
                .containsEntry("content", "Ana drinks green tea")
                .containsEntry("version", 3);
        assertThat(ids(get("/v1/spaces/" + space + "/memories"))).containsExactly(kept);
        List<Map<String, Object>> audit = get("/v1/spaces/" + space + "/audit").list("items");
        assertThat(audit)
                .extracting(e -> e.get("event_type"))
                .containsSubsequence("RollbackApplied", "MemoryDeleted", "MemoryUpdated");
        Map<String, Object> entry = audit.stream()
                .filter(e -> "RollbackApplied".equals(e.get("event_type")))
                .findFirst()
                .orElseThrow();
        assertThat(entry.get("actor")).isEqualTo(Map.of("type", "admin", "id", "ops"));
        assertThat((String) entry.get("description")).contains("to seq 1", "the afternoon import was wrong");
        assertThat(get("/v1/spaces/" + space + "/chain/verify").json)
                .containsEntry("ok", true)
                .containsEntry("events", 10);
        Resp nothing = send(HttpRequest.POST("/v1/spaces/" + space + "/rollback/plan", Map.of("to_seq", 1))
                .header("X-Actor", admin));
        assertThat(nothing.list("memories")).isEmpty();
    }

    @Test
    void anApplyWithADryRunsDigestIsRefusedOnceTheSpaceMovedAndChangesNothing() {
        String space = space();
        String kept = createId(space, "Ana drinks green tea");
        createId(space, "Ana moved to Mars");
        String admin = "admin:ops";
        Resp plan = send(HttpRequest.POST("/v1/spaces/" + space + "/rollback/plan", Map.of("to_seq", 1))
                .header("X-Actor", admin));
        assertThat(plan.status).as(plan.raw).isEqualTo(200);
        String late = createId(space, "Ana took up chess");
        ChainState before = chainState(space);

        Resp applied = send(HttpRequest.POST(
                        "/v1/spaces/" + space + "/rollback",
                        Map.of("to_seq", 1, "reason", "a stale review", "plan_digest", plan.json.get("plan_digest")))
                .header("X-Actor", admin));

        assertThat(applied.status).as(applied.raw).isEqualTo(409);
        assertThat(applied.json).containsEntry("code", "VERSION_CONFLICT");
        assertThat((String) applied.json.get("message"))
                .as("the dry run's plan went to the sequencer, which refused it")
                .contains("plan again");
        assertThat(chainState(space)).as("nothing applied").isEqualTo(before);
        assertThat(ids(get("/v1/spaces/" + space + "/memories"))).contains(kept, late);
    }

    @Test
    void readsAMemoryAListTheCoreAndAQueryAsTheyWereAtAnEarlierSeq() {
        String space = space();
        String tea = createId(space, "Ana drinks green tea every morning");
        send(HttpRequest.PATCH(
                "/v1/spaces/" + space + "/memories/" + tea,
                Map.of("content", "Ana drinks black coffee every morning")));
        String porto = createId(space, "Ana moved to Porto");
        assertThat(send(HttpRequest.PUT(
                                "/v1/spaces/" + space + "/blocks/persona", Map.of("content", "I am a careful planner")))
                        .status)
                .isEqualTo(200);
        String m = "/v1/spaces/" + space + "/memories";

        Resp then = get(m + "/" + tea + "?as_of_seq=1");
        assertThat(then.status).as(then.raw).isEqualTo(200);
        assertThat(then.json)
                .containsEntry("content", "Ana drinks green tea every morning")
                .containsEntry("version", 1);
        assertThat(get(m + "/" + tea).json).containsEntry("content", "Ana drinks black coffee every morning");
        assertThat(get(m + "/" + porto + "?as_of_seq=2").code()).isEqualTo("NOT_FOUND");
        assertThat(get(m + "/" + tea + "?as_of=2000-01-01T00:00:00Z").code()).isEqualTo("NOT_FOUND");
        assertThat(get(m + "/" + tea + "?as_of=2999-01-01T00:00:00Z").json).containsEntry("version", 2);
        assertThat(ids(get(m + "?as_of_seq=2"))).containsExactly(tea);
        assertThat(ids(get(m + "?as_of_seq=3&limit=1"))).containsExactly(tea);
        assertThat(get(m + "?as_of_seq=3&limit=1").json.get("next")).isEqualTo(tea);
        assertThat((String)
                        get("/v1/spaces/" + space + "/core?as_of_seq=3").json.get("text"))
                .doesNotContain("careful planner");
        assertThat((String)
                        get("/v1/spaces/" + space + "/core?as_of_seq=4").json.get("text"))
                .contains("careful planner");
        send(HttpRequest.PUT(
                "/v1/spaces/" + space + "/blocks/persona", Map.of("content", "I am a relaxed improviser")));
        assertThat(post(space, "/memories", Map.of("content", "Ana's sister is called Rita", "tier", "core")).status)
                .isEqualTo(201);
        assertThat((String)
                        get("/v1/spaces/" + space + "/core?as_of_seq=4").json.get("text"))
                .as("the core as it was, after the core changed since the last point-in-time read")
                .contains("careful planner")
                .doesNotContain("relaxed improviser", "Rita");
        Object head = get("/v1/spaces/" + space + "/audit?order=desc&limit=1")
                .list("items")
                .get(0)
                .get("seq");
        assertThat((String) get("/v1/spaces/" + space + "/core?as_of_seq=" + head)
                        .json
                        .get("text"))
                .contains("relaxed improviser", "Rita")
                .doesNotContain("careful planner");

        Resp query = post(space, "/query", Map.of("query", "Ana drinks morning", "as_of_seq", 1, "top_k", 5));
        assertThat(query.status).as(query.raw).isEqualTo(200);
        assertThat(query.list("items"))
                .singleElement()
                .satisfies(item -> assertThat(item)
                        .containsEntry("id", tea)
                        .containsEntry("text", "Ana drinks green tea every morning"));
        assertThat((String) query.json.get("text")).contains("green tea").doesNotContain("coffee");
    }

    @Test
    void pointInTimeReadsRefuseBadParametersWithCodes() {
        String space = space();
        String id = createId(space, "one");
        String m = "/v1/spaces/" + space + "/memories";
        for (String bad : List.of(
                m + "/" + id + "?as_of_seq=1&as_of=2026-01-01T00:00:00Z",
                m + "?as_of=yesterday",
                m + "/" + id + "?as_of_seq=99",
                m + "?as_of_seq=abc",
                m + "?as_of_seq=0",
                "/v1/spaces/" + space + "/core?as_of_seq=2")) {
            Resp r = get(bad);
            assertThat(r.status).as(bad + ": " + r.raw).isEqualTo(400);
            assertThat(r.code()).isEqualTo("INVALID_ARGUMENT");
        }
        Resp query = post(space, "/query", Map.of("query", "one", "as_of_seq", 7));
        assertThat(query.status).as(query.raw).isEqualTo(400);
        assertThat(query.code()).isEqualTo("INVALID_ARGUMENT");
    }

    @Test
    void rollbackRefusesBadInputWithCodesAndPublishesNothing() {
        String space = space();
        String id = createId(space, "v1");
        send(HttpRequest.PATCH("/v1/spaces/" + space + "/memories/" + id, Map.of("content", "v2")));
        String admin = "admin:ops";
        String plan = "/v1/spaces/" + space + "/rollback/plan";
        String apply = "/v1/spaces/" + space + "/rollback";

        assertNotPublished(
                space,
                "ROLE_NOT_ALLOWED",
                403,
                () -> send(HttpRequest.POST(apply, Map.of("to_seq", 1, "reason", "x"))));
        assertNotPublished(space, "ROLE_NOT_ALLOWED", 403, () -> send(HttpRequest.POST(plan, Map.of("to_seq", 1))));
        assertNotPublished(
                space,
                "INVALID_ARGUMENT",
                400,
                () -> send(HttpRequest.POST(plan, Map.of("to_seq", 1, "to_time", "2026-01-01T00:00:00Z"))
                        .header("X-Actor", admin)));
        assertNotPublished(
                space,
                "INVALID_ARGUMENT",
                400,
                () -> send(
                        HttpRequest.POST(plan, Map.of("to_time", "yesterday")).header("X-Actor", admin)));
        assertNotPublished(
                space,
                "INVALID_ARGUMENT",
                400,
                () -> send(HttpRequest.POST(plan, Map.of("to_seq", 99)).header("X-Actor", admin)));
        assertNotPublished(
                space,
                "INVALID_ARGUMENT",
                400,
                () -> send(HttpRequest.POST(plan, Map.of("memory_id", id, "session_id", "r1", "to_seq", 1))
                        .header("X-Actor", admin)));
        assertNotPublished(
                space,
                "INVALID_ARGUMENT",
                400,
                () -> send(HttpRequest.POST(plan, Map.of("actor", "agent:api")).header("X-Actor", admin)));
        assertNotPublished(
                space,
                "NOT_FOUND",
                404,
                () -> send(HttpRequest.POST(plan, Map.of("memory_id", "m-nope", "to_seq", 1))
                        .header("X-Actor", admin)));
        assertNotPublished(
                space,
                "NOT_FOUND",
                404,
                () -> send(
                        HttpRequest.POST(plan, Map.of("session_id", "r-nope")).header("X-Actor", admin)));
        assertNotPublished(
                space,
                "INVALID_ARGUMENT",
                400,
                () -> send(HttpRequest.POST(apply, Map.of("to_seq", 1)).header("X-Actor", admin)));
        assertNotPublished(
                space,
                "VERSION_CONFLICT",
                409,
                () -> send(HttpRequest.POST(apply, Map.of("to_seq", 1, "reason", "typo", "plan_digest", "0".repeat(64)))
                        .header("X-Actor", admin)));
        assertNotPublished(
                space,
                "INVALID_ARGUMENT",
                400,
                () -> send(HttpRequest.POST(apply, Map.of("to_seq", 2, "reason", "nothing changed since"))
                        .header("X-Actor", admin)));
        Resp actorPlan = send(HttpRequest.POST(plan, Map.of("actor", "agent:api", "from_seq", 2))
                .header("X-Actor", admin));
        assertThat(actorPlan.status).as(actorPlan.raw).isEqualTo(200);
        assertThat(actorPlan.json).containsEntry("scope", "actor").containsEntry("target_seq", 1);
        assertThat(actorPlan.list("memories"))
                .singleElement()
                .satisfies(m -> assertThat(m).containsEntry("id", id));
    }

    @Test
    void adminsIssueListAndRevokeKeys() {
        String space = space();
        String admin = keyOf("admin:root");
        Resp issued = send(HttpRequest.POST(
                        "/v1/keys",
                        Map.of("id", "planner-bot", "role", "agent", "agent_id", "planner", "spaces", List.of(space)))
                .bearerAuth(admin));
        assertThat(issued.status).as(issued.raw).isEqualTo(201);
        String key = (String) issued.json.get("key");
        String keyId = (String) issued.json.get("key_id");
        assertThat(issued.json).containsEntry("created_by", "admin-root").containsEntry("revoked", false);
        assertThat(send(HttpRequest.GET("/v1/me").bearerAuth(key)).json).containsEntry("actor", "agent:planner");

        Resp listed = send(HttpRequest.GET("/v1/keys").bearerAuth(admin));
        assertThat(listed.list("items")).extracting(k -> k.get("key_id")).contains(keyId);
        assertThat(listed.raw).doesNotContain(key.substring(16));
        assertThat(send(HttpRequest.POST("/v1/keys", Map.of("id", "x", "role", "overlord", "spaces", List.of("*")))
                                .bearerAuth(admin))
                        .code())
                .isEqualTo("INVALID_ARGUMENT");
        assertThat(send(HttpRequest.POST("/v1/keys", Map.of("id", "x", "role", "agent", "spaces", List.of("a/b")))
                                .bearerAuth(admin))
                        .code())
                .isEqualTo("INVALID_ARGUMENT");

        assertThat(send(HttpRequest.DELETE("/v1/keys/" + keyId).bearerAuth(admin)).json)
                .containsEntry("revoked", true);
        Resp refused = send(HttpRequest.GET("/v1/me").bearerAuth(key));
        assertThat(refused.status).isEqualTo(401);
        assertThat((String) refused.json.get("message")).contains("revoked");
        assertThat(send(HttpRequest.DELETE("/v1/keys/000000000000").bearerAuth(admin))
                        .code())
                .isEqualTo("NOT_FOUND");
    }

    // ---------------------------------------------------------------- refinement sessions (docs/architecture.md §9)

    private static final String ADMIN = "admin:ops";
    private static final String AGENT = "agent:claude";

    protected Resp as(String actor, MutableHttpRequest<?> request) {
        return send(request.header("X-Actor", actor));
    }

    protected String startRefinement(String space) {
        Resp started = as(ADMIN, HttpRequest.POST("/v1/spaces/" + space + "/refinements", Map.of()));
        assertThat(started.status).as(started.raw).isEqualTo(201);
        return (String) started.json.get("session_id");
    }

    @Test
    void aRefinementSessionConsolidatesTwentyIntoThreeProtectsTwoAndCompletes() {
        String space = space();
        List<String> notes = new java.util.ArrayList<>();
        for (int i = 0; i < 20; i++) {
            notes.add(createId(
                    space,
                    "Tea note " + i + ": the user drinks tea, detail " + i + " about cups and times",
                    null,
                    "core"));
        }
        String lawA = createId(space, "Never share the user's home address", null, "core");
        String lawB = createId(space, "Always ask before spending money", null, "core");
        createId(space, "A working memory, not in the ledger");

        Resp started =
                as(ADMIN, HttpRequest.POST("/v1/spaces/" + space + "/refinements", Map.of("reason", "monthly tidy")));
        assertThat(started.status).as(started.raw).isEqualTo(201);
        String session = (String) started.json.get("session_id");
        assertThat(started.headers.get(HttpHeaders.LOCATION))
                .isEqualTo("/v1/spaces/" + space + "/refinements/" + session);
        assertThat(started.json)
                .containsEntry("state", "open")
                .containsEntry("trigger", "admin")
                .containsEntry("target_tokens", 5000)
                .containsEntry("ledger_size_at_start", 22)
                .containsEntry("reason", "monthly tidy");
        int tokensAtStart = ((Number) started.json.get("core_tokens_at_start")).intValue();
        assertThat((String) started.json.get("budget"))
                .isEqualTo(
                        String.format(java.util.Locale.ROOT, "Current core: %,d tokens; target: 5,000", tokensAtStart));

        Resp current = get("/v1/spaces/" + space + "/refinements/current");
        assertThat(current.status).as(current.raw).isEqualTo(200);
        assertThat(current.json).containsEntry("session_id", session);
        List<Map<String, Object>> ledger = current.list("ledger");
        assertThat(ledger).hasSize(22);
        assertThat(ledger.get(0)).containsKeys("id", "content", "created_at", "tags", "flags");

        Resp found = as(
                AGENT,
                HttpRequest.POST("/v1/spaces/" + space + "/refinements/current/search", Map.of("query", "tea cups")));
        assertThat(found.status).as(found.raw).isEqualTo(200);
        assertThat(found.json).containsEntry("session_id", session);
        assertThat(found.list("items")).extracting(m -> (String) m.get("id")).containsExactlyElementsOf(notes);

        for (List<String> cluster : List.of(notes.subList(0, 7), notes.subList(7, 14), notes.subList(14, 20))) {
            Resp merged = as(
                    AGENT,
                    HttpRequest.POST(
                            "/v1/spaces/" + space + "/refinements/" + session + "/consolidations",
                            Map.of(
                                    "ids",
                                    cluster,
                                    "content",
                                    "Tea habits " + cluster.get(0),
                                    "reason",
                                    "one cluster")));
            assertThat(merged.status).as(merged.raw).isEqualTo(201);
            assertThat(merged.map("memory").get("created_at"))
                    .isEqualTo(get("/v1/spaces/" + space + "/memories/" + cluster.get(0))
                            .json
                            .get("created_at"));
        }
        for (String law : List.of(lawA, lawB)) {
            Resp protectedResp = as(
                    AGENT,
                    HttpRequest.POST(
                            "/v1/spaces/" + space + "/refinements/current/memories/" + law + ":protect", Map.of()));
            assertThat(protectedResp.status).as(protectedResp.raw).isEqualTo(200);
            assertThat(protectedResp.map("memory")).containsEntry("constitutional", true);
        }

        Resp done = as(
                AGENT,
                HttpRequest.POST(
                        "/v1/spaces/" + space + "/refinements/current:complete",
                        Map.of("summary", "Merged my tea notes; protected my two rules.")));
        assertThat(done.status).as(done.raw).isEqualTo(200);
        Map<String, Object> completed = done.map("session");
        int tokensAfter = ((Number) completed.get("tokens_after")).intValue();
        assertThat(tokensAfter).isLessThan(tokensAtStart);
        String line = "Compressed 20 -> 3; saved ~" + (tokensAtStart - tokensAfter)
                + " tokens; protected 2 constitutional memories";
        assertThat(completed)
                .containsEntry("state", "completed")
                .containsEntry("summary", line)
                .containsEntry("protected_ids", List.of(lawA, lawB))
                .containsEntry("ledger", List.of());
        assertThat(done.map("journal"))
                .containsEntry("kind", "journal")
                .containsEntry("content", line + "\n\nMerged my tea notes; protected my two rules.");
        assertThat(get("/v1/spaces/" + space + "/refinements/current").code()).isEqualTo("NOT_FOUND");

        Resp closed = get("/v1/spaces/" + space + "/refinements/" + session);
        assertThat(closed.json)
                .containsEntry("summary", line)
                .containsEntry("completed_by", Map.of("type", "agent", "id", "claude"));
        List<Map<String, Object>> edits = closed.list("edits");
        assertThat(edits)
                .extracting(e -> e.get("event_type"))
                .containsExactly(
                        "MemoriesConsolidated",
                        "MemoriesConsolidated",
                        "MemoriesConsolidated",
                        "MemoryProtected",
                        "MemoryProtected",
                        "RefinementCompleted");
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> changes =
                (List<Map<String, Object>>) edits.get(3).get("changes");
        assertThat(changes).singleElement().satisfies(c -> {
            assertThat(c.get("memory_id")).isEqualTo(lawA);
            assertThat(((Map<?, ?>) c.get("before")).get("constitutional")).isEqualTo(false);
            assertThat(((Map<?, ?>) c.get("after")).get("constitutional")).isEqualTo(true);
        });
        List<Map<String, Object>> audit =
                get("/v1/spaces/" + space + "/audit?limit=1000").list("items");
        assertThat(audit)
                .extracting(e -> e.get("event_type"))
                .contains("DuplicatesRemoved", "RefinementStarted", "RefinementCompleted");
        assertThat((String) audit.get(audit.size() - 1).get("description")).contains(line);
        assertThat(get("/v1/spaces/" + space + "/refinements").list("items"))
                .singleElement()
                .satisfies(
                        s -> assertThat(s).containsEntry("session_id", session).containsEntry("state", "completed"));
        assertThat(get("/v1/spaces/" + space + "/chain/verify").json).containsEntry("ok", true);
    }

    @Test
    void exactDuplicatesAreRemovedBeforeTheSessionStarts() {
        String space = space();
        String first = createId(space, "Likes green tea", null, "core");
        String copy = createId(space, "likes  GREEN tea", null, "core");
        String other = createId(space, "Walks every morning", null, "core");
        int before = ((Number) get("/v1/spaces/" + space + "/core").json.get("tokens")).intValue();

        Resp started = as(ADMIN, HttpRequest.POST("/v1/spaces/" + space + "/refinements", Map.of("target_tokens", 10)));
        assertThat(started.status).as(started.raw).isEqualTo(201);
        assertThat(started.json).containsEntry("target_tokens", 10).containsEntry("ledger_size_at_start", 2);
        assertThat(started.map("counts")).containsEntry("duplicates_removed", 1);
        assertThat(((Number) started.json.get("core_tokens_at_start")).intValue())
                .isLessThan(before);
        // the admin starts the session and sees its figures, never the memories in it (docs/architecture.md §9 silo
        // privacy)
        assertThat(started.list("ledger")).isEmpty();
        assertThat(as(ADMIN, HttpRequest.GET("/v1/spaces/" + space + "/refinements/current"))
                        .list("ledger"))
                .isEmpty();
        assertThat(as(ADMIN, HttpRequest.POST("/v1/spaces/" + space + "/refinements/current/search", Map.of()))
                        .code())
                .isEqualTo("ROLE_NOT_ALLOWED");
        assertThat(get("/v1/spaces/" + space + "/refinements/current").list("ledger"))
                .extracting(m -> m.get("id"))
                .containsExactly(first, other);
        assertThat(get("/v1/spaces/" + space + "/memories/" + copy).json).containsEntry("state", "soft_deleted");
        List<Map<String, Object>> audit = get("/v1/spaces/" + space + "/audit").list("items");
        assertThat(audit).extracting(e -> e.get("event_type")).endsWith("DuplicatesRemoved", "RefinementStarted");
        assertThat(audit.get(audit.size() - 2).get("memory_ids")).isEqualTo(List.of(copy));
        assertThat(audit.get(audit.size() - 1).get("actor")).isEqualTo(Map.of("type", "admin", "id", "ops"));
    }

    @Test
    void refinementRulesAnswerTheirCodesAndChangeNothing() {
        String space = space();
        String a = createId(space, "Likes tea", null, "core");
        String b = createId(space, "Drinks tea daily", null, "core");
        String law = createId(space, "Never lie", null, "core");
        String base = "/v1/spaces/" + space + "/refinements";

        // no open session: the knife is refused before anything is published
        assertNotPublished(
                space,
                "NOT_IN_REFINEMENT",
                403,
                () -> as(AGENT, HttpRequest.POST(base + "/current/memories/" + a + ":protect", Map.of())));
        assertNotPublished(
                space,
                "NOT_IN_REFINEMENT",
                403,
                () -> as(AGENT, HttpRequest.POST(base + "/current/search", Map.of("query", "tea"))));
        assertNotPublished(
                space,
                "NOT_IN_REFINEMENT",
                403,
                () -> as(AGENT, HttpRequest.POST(base + "/current:complete", Map.of("summary", "done"))));
        assertNotPublished(
                space,
                "NOT_IN_REFINEMENT",
                403,
                () -> as(AGENT, HttpRequest.DELETE(base + "/not-a-session/memories/" + a)));
        assertNotPublished(space, "NOT_FOUND", 404, () -> get(base + "/current"));
        assertRejectedByChain(
                space,
                "NOT_IN_REFINEMENT",
                403,
                () -> as(
                        AGENT,
                        HttpRequest.POST(
                                base + "/r0000zzz0000/consolidations",
                                Map.of("ids", List.of(a, b), "content", "tea"))));
        // protect outside a session through the plain memory endpoint
        assertRejectedByChain(
                space,
                "NOT_IN_REFINEMENT",
                403,
                () -> as(AGENT, HttpRequest.POST("/v1/spaces/" + space + "/memories/" + law + ":protect", Map.of())));
        // only admins start
        assertRejectedByChain(space, "FORBIDDEN", 403, () -> as(AGENT, HttpRequest.POST(base, Map.of())));
        assertNotPublished(
                space, "INVALID_ARGUMENT", 400, () -> as(ADMIN, HttpRequest.POST(base, Map.of("target_tokens", 0))));

        String session = startRefinement(space);
        assertRejectedByChain(space, "INVALID_STATE", 409, () -> as(ADMIN, HttpRequest.POST(base, Map.of())));
        assertThat(as(AGENT, HttpRequest.POST(base + "/" + session + "/memories/" + law + ":protect", Map.of())).status)
                .isEqualTo(200);
        assertRejectedByChain(
                space, "CONSTITUTIONAL", 403, () -> as(AGENT, HttpRequest.DELETE(base + "/current/memories/" + law)));
        assertRejectedByChain(
                space,
                "CONSTITUTIONAL",
                403,
                () -> as(
                        AGENT,
                        HttpRequest.POST(
                                base + "/current/consolidations",
                                Map.of("ids", List.of(a, law), "content", "merged"))));
        // atomicity: one unknown id and nothing changes
        assertRejectedByChain(
                space,
                "NOT_FOUND",
                404,
                () -> as(
                        AGENT,
                        HttpRequest.POST(
                                base + "/current/consolidations",
                                Map.of("ids", List.of(a, b, "m0000zzz0000"), "content", "merged"))));
        assertThat(get("/v1/spaces/" + space + "/memories/" + a).json).containsEntry("state", "active");
        assertThat(get("/v1/spaces/" + space + "/memories/" + b).json).containsEntry("state", "active");
        // a session id that is not the open one
        assertRejectedByChain(
                space,
                "NOT_IN_REFINEMENT",
                403,
                () -> as(AGENT, HttpRequest.PATCH(base + "/r0000zzz0000/memories/" + a, Map.of("content", "x"))));
        assertNotPublished(
                space,
                "NOT_IN_REFINEMENT",
                403,
                () -> as(AGENT, HttpRequest.POST(base + "/r0000zzz0000/search", Map.of())));
        assertNotPublished(
                space,
                "INVALID_ARGUMENT",
                400,
                () -> as(AGENT, HttpRequest.POST(base + "/current:complete", Map.of("summary", " "))));
        assertNotPublished(space, "NOT_FOUND", 404, () -> get(base + "/r0000zzz0000"));

        Resp tightened =
                as(AGENT, HttpRequest.PATCH(base + "/current/memories/" + a, Map.of("content", "Likes tea a lot")));
        assertThat(tightened.status).as(tightened.raw).isEqualTo(200);
        Resp pruned = as(
                AGENT, HttpRequest.DELETE(base + "/current/memories/" + b, Map.of("reason", "covered by the first")));
        assertThat(pruned.status).as(pruned.raw).isEqualTo(200);
        assertThat(pruned.map("memory")).containsEntry("state", "soft_deleted");
        Resp timeRange = as(
                AGENT,
                HttpRequest.POST(
                        base + "/current/search",
                        Map.of("created_after", "2000-01-01T00:00:00Z", "created_before", "2000-01-02T00:00:00Z")));
        assertThat(timeRange.list("items")).isEmpty();
        assertThat(as(AGENT, HttpRequest.POST(base + "/current/search", Map.of()))
                        .list("items"))
                .extracting(m -> m.get("id"))
                .containsExactly(a, law);
    }

    // ---------------------------------------------------------------- helpers

    protected static String space() {
        return "s-" + UUID.randomUUID().toString().substring(0, 12);
    }

    protected String createId(String space, String content) {
        return createId(space, content, null, null);
    }

    /** Created as user:api (never confined), with an optional category and tier. */
    protected String createId(String space, String content, String category, String tier) {
        Map<String, Object> body = new java.util.HashMap<>(Map.of("content", content));
        if (category != null) {
            body.put("category", category);
        }
        if (tier != null) {
            body.put("tier", tier);
        }
        Resp r = post(space, "/memories", body);
        assertThat(r.status).as(r.raw).isEqualTo(201);
        return (String) r.map("memory").get("id");
    }

    /** Bad input: the code, and nothing published at all (so the chain cannot have changed). */
    protected void assertNotPublished(String space, String code, int status, Supplier<Resp> call) {
        long before = publishedRequests();
        Resp r = call.get();
        assertThat(r.status).as(r.raw).isEqualTo(status);
        assertThat(r.code()).as(r.raw).isEqualTo(code);
        assertThat(r.json.get("message")).as(r.raw).isInstanceOf(String.class);
        assertThat(r.raw).doesNotContain("\tat ", "Exception:");
        // only the sequencer writes the chain, and only for a published request: none published, no change to it
        assertThat(publishedRequests()).as("requests published for bad input").isEqualTo(before);
    }

    /** Rejected by the sequencer: the code, the request id, and an unchanged audit log and chain. */
    protected void assertRejectedByChain(String space, String code, int status, Supplier<Resp> call) {
        ChainState before = chainState(space);
        Resp r = call.get();
        assertThat(r.status).as(r.raw).isEqualTo(status);
        assertThat(r.code()).as(r.raw).isEqualTo(code);
        assertThat(r.json.get("request_id")).as(r.raw).isNotNull();
        assertThat(chainState(space)).isEqualTo(before);
    }

    protected record ChainState(List<Map<String, Object>> audit, Object verifiedEvents) {}

    protected ChainState chainState(String space) {
        Resp audit = get("/v1/spaces/" + space + "/audit?limit=1000");
        Resp verify = get("/v1/spaces/" + space + "/chain/verify");
        assertThat(verify.json).as(verify.raw).containsEntry("ok", true);
        return new ChainState(audit.list("items"), verify.json.get("events"));
    }

    /** PUT a Markdown file (text/markdown), as the caller (null: a person, user:manual). */
    protected Resp putFile(String space, String path, String text, String actor) {
        MutableHttpRequest<?> request =
                HttpRequest.PUT("/v1/spaces/" + space + "/files/" + path, text).contentType("text/markdown");
        return send(request.header("X-Actor", actor == null ? HAND : actor));
    }

    /** GET a Markdown file: the raw text on success, the JSON error otherwise. */
    protected Resp readFile(String space, String path, String actor) {
        MutableHttpRequest<?> request = HttpRequest.GET("/v1/spaces/" + space + "/files/" + path)
                .accept("text/markdown")
                .header("X-Actor", actor == null ? HAND : actor);
        try {
            HttpResponse<String> response = client().toBlocking().exchange(authorized(request), String.class);
            assertThat(response.getContentType())
                    .get()
                    .extracting(MediaType::getName)
                    .isEqualTo("text/markdown");
            return new Resp(response.getStatus().getCode(), Map.of(), response.getHeaders(), response.body());
        } catch (HttpClientResponseException e) {
            @SuppressWarnings("unchecked")
            HttpResponse<String> error = (HttpResponse<String>) e.getResponse();
            return resp(error.getStatus().getCode(), error.getBody(String.class).orElse(""), error.getHeaders());
        }
    }

    protected Resp post(String space, String path, Object body) {
        return send(HttpRequest.POST("/v1/spaces/" + space + path, body == null ? Map.of() : body));
    }

    protected Resp get(String uri) {
        return send(HttpRequest.GET(uri));
    }

    protected Resp send(MutableHttpRequest<?> request) {
        HttpResponse<String> response;
        try {
            response = client().toBlocking()
                    .exchange(authorized(request).accept(MediaType.APPLICATION_JSON_TYPE), String.class);
        } catch (HttpClientResponseException e) {
            @SuppressWarnings("unchecked")
            HttpResponse<String> error = (HttpResponse<String>) e.getResponse();
            return resp(error.getStatus().getCode(), error.getBody(String.class).orElse(""), error.getHeaders());
        }
        return resp(response.getStatus().getCode(), response.body(), response.getHeaders());
    }

    /**
     * Sends as the caller the test names in {@code X-Actor: <role>:<agent>} (default {@link #DEFAULT_CALLER}) with a
     * key issued for it on every space, unless the request already carries an Authorization header.
     */
    protected MutableHttpRequest<?> authorized(MutableHttpRequest<?> request) {
        String caller = request.getHeaders().get("X-Actor");
        request.getHeaders().remove("X-Actor");
        if (request.getHeaders().get(HttpHeaders.AUTHORIZATION) == null) {
            request.bearerAuth(keyOf(caller == null ? DEFAULT_CALLER : caller));
        }
        return request;
    }

    /** A key for {@code <role>:<agent>} on every space, issued once per test instance. */
    protected String keyOf(String caller) {
        return keys.computeIfAbsent(caller, c -> {
            String[] parts = c.split(":", 2);
            Principal principal =
                    new Principal(parts[0] + "-" + parts[1], Role.parse(parts[0]), parts[1], List.of("*"));
            return apiKeys().issue(principal, "test").key().toString();
        });
    }

    private Resp resp(int status, String raw, HttpHeaders headers) {
        Map<String, Object> parsed;
        try {
            parsed = raw == null || raw.isBlank()
                    ? Map.of()
                    : json().readValue(raw, Argument.mapOf(String.class, Object.class));
        } catch (IOException e) {
            throw new UncheckedIOException("Not JSON (status " + status + "): " + raw, e);
        }
        return new Resp(status, parsed, headers, raw);
    }

    private static List<String> ids(Resp page) {
        assertThat(page.status).as(page.raw).isEqualTo(200);
        return page.list("items").stream().map(m -> (String) m.get("id")).toList();
    }

    protected record Resp(int status, Map<String, Object> json, HttpHeaders headers, String raw) {
        String code() {
            return (String) json.get("code");
        }

        @SuppressWarnings("unchecked")
        Map<String, Object> map(String key) {
            return (Map<String, Object>) json.get(key);
        }

        @SuppressWarnings("unchecked")
        List<Map<String, Object>> list(String key) {
            return (List<Map<String, Object>>) json.get(key);
        }
    }
}
