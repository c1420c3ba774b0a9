package io.memorychain.api.contract;

import static org.assertj.core.api.Assertions.assertThat;

import io.micronaut.http.HttpRequest;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

/**
 * Contradictions through the real service (docs/architecture.md §10, seed 001 §13.6): two contradicting memories (or
 * proposals) written to a space are flagged on both by the service itself, listed, and resolved keep_both (both low
 * confidence, linked contradicts both ways, shown in query results), one_wins (the loser superseded, or rejected when a
 * proposal) or ask_user (a question in /context until answered); every resolution is in the audit; bad input is refused
 * before publishing and the sequencer's rules come back as their codes. Run as a nested class of an integration test,
 * on that test's one service, whose configuration turns detection on for {@link #DETECTING}.
 */
public abstract class ContradictionContract {

    /** The spaces the service detects contradictions in (memory.contradictions.space-detect). */
    public static final List<String> DETECTING =
            List.of("contra-keep", "contra-wins", "contra-ask", "contra-proposals");

    private static final String USER = "user:manual";
    private static final String SUBAGENT = "subagent:coder";
    private static final String WORKER = "worker:cron";
    private static final Map<String, Object> DETECTOR = Map.of("type", "worker", "id", "contradictions");

    /** The contract whose service and helpers these tests use. */
    protected abstract MemoryApiContract api();

    private MemoryApiContract.Resp list(String space, String query) {
        MemoryApiContract.Resp r = api().get("/v1/spaces/" + space + "/contradictions" + query);
        assertThat(r.status()).as(r.raw()).isEqualTo(200);
        return r;
    }

    private MemoryApiContract.Resp resolve(String actor, String space, String id, Map<String, Object> body) {
        return api().as(actor, HttpRequest.POST("/v1/spaces/" + space + "/contradictions/" + id + ":resolve", body));
    }

    /** The contradiction the service flags between the two, once it has (detection runs after the writes answered). */
    private Map<String, Object> awaitFlagged(String space, String first, String second) {
        Awaitility.await()
                .atMost(Duration.ofSeconds(60))
                .untilAsserted(() -> assertThat(list(space, "").list("items"))
                        .extracting(c -> List.of(c.get("first_id"), c.get("second_id")))
                        .contains(List.of(first, second)));
        Map<String, Object> c = list(space, "").list("items").stream()
                .filter(x -> x.get("second_id").equals(second))
                .findFirst()
                .orElseThrow();
        assertThat(c)
                .containsEntry("first_id", first)
                .containsEntry("open", true)
                .containsEntry("flagged_by", DETECTOR);
        assertThat(c.get("resolution")).isNull();
        assertThat(((Number) c.get("similarity")).doubleValue()).isBetween(0.5, 1.0);
        assertThat((String) c.get("id")).startsWith("x");
        return c;
    }

    private String memory(String space, String content) {
        return api().createId(space, content);
    }

    private Map<String, Object> read(String space, String id) {
        MemoryApiContract.Resp r = api().get("/v1/spaces/" + space + "/memories/" + id);
        assertThat(r.status()).as(r.raw()).isEqualTo(200);
        return r.json();
    }

    private List<Object> auditTypes(String space) {
        return api().get("/v1/spaces/" + space + "/audit?limit=1000").list("items").stream()
                .map(e -> e.get("event_type"))
                .toList();
    }

    @Test
    void contradictingMemoriesAreFlaggedOnBothAndKeepBothLinksThemForRecall() {
        String space = DETECTING.get(0);
        String dark = memory(space, "User prefers dark mode");
        String light = memory(space, "User prefers light mode");
        String id = (String) awaitFlagged(space, dark, light).get("id");
        assertThat(read(space, dark)).containsEntry("contradictions", Map.of("open", List.of(id)));
        assertThat(read(space, light)).containsEntry("contradictions", Map.of("open", List.of(id)));

        MemoryApiContract.Resp kept = resolve("agent:api", space, id, Map.of("resolution", "keep_both"));
        assertThat(kept.status()).as(kept.raw()).isEqualTo(200);
        assertThat(kept.json())
                .containsEntry("id", id)
                .containsEntry("open", false)
                .containsEntry("resolution", "keep_both")
                .containsEntry("resolved_by", Map.of("type", "agent", "id", "api"));
        for (String side : List.of(dark, light)) {
            Map<String, Object> memory = read(space, side);
            assertThat(memory).containsEntry("confidence", "low").containsEntry("state", "active");
            assertThat(memory.get("contradictions"))
                    .as("no open contradiction left")
                    .isNull();
        }
        assertThat(api().get("/v1/spaces/" + space + "/memories/" + dark + "/relations")
                        .raw())
                .contains(light, "contradicts");
        assertThat(api().get("/v1/spaces/" + space + "/memories/" + light + "/relations")
                        .raw())
                .contains(dark, "contradicts");
        MemoryApiContract.Resp answer =
                api().post(space, "/query", Map.of("query", "User prefers dark mode", "top_k", 1));
        assertThat(answer.status()).as(answer.raw()).isEqualTo(200);
        assertThat(answer.list("items")).extracting(i -> i.get("id")).containsExactly(dark);
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> related =
                (List<Map<String, Object>>) answer.list("items").get(0).get("related");
        assertThat(related)
                .anySatisfy(r -> assertThat(r).containsEntry("id", light).containsEntry("relation", "contradicts"));

        assertThat(list(space, "").list("items")).isEmpty();
        assertThat(list(space, "?state=all").list("items"))
                .extracting(c -> c.get("id"))
                .containsExactly(id);
        assertThat(auditTypes(space))
                .containsSubsequence(
                        "MemoryCreated",
                        "MemoryCreated",
                        "ContradictionFlagged",
                        "ContradictionResolved",
                        "MemoryUpdated",
                        "MemoryUpdated",
                        "MemoriesLinked",
                        "MemoriesLinked");
        api().assertRejectedByChain(
                        space,
                        "ALREADY_RESOLVED",
                        409,
                        () -> resolve("agent:api", space, id, Map.of("resolution", "ask_user")));
    }

    @Test
    void oneWinsSupersedesTheLoserAndBadResolutionsAreRefused() {
        String space = DETECTING.get(1);
        String tabs = memory(space, "The team uses tabs for indentation");
        String spaces = memory(space, "The team uses spaces for indentation");
        String id = (String) awaitFlagged(space, tabs, spaces).get("id");

        for (Map<String, Object> body : List.<Map<String, Object>>of(
                Map.of(),
                Map.of("resolution", "both"),
                Map.of("resolution", "one_wins"),
                Map.of("resolution", "one_wins", "winner_id", "m-elsewhere"),
                Map.of("resolution", "keep_both", "winner_id", tabs),
                Map.of("resolution", "keep_both", "typo", 1))) {
            api().assertNotPublished(space, "INVALID_ARGUMENT", 400, () -> resolve("agent:api", space, id, body));
        }
        api().assertNotPublished(
                        space,
                        "NOT_FOUND",
                        404,
                        () -> resolve("agent:api", space, "x0000zzz0000", Map.of("resolution", "keep_both")));
        api().assertNotPublished(
                        space,
                        "INVALID_ARGUMENT",
                        400,
                        () -> api().get("/v1/spaces/" + space + "/contradictions?state=closed"));
        api().assertRejectedByChain(
                        space, "FORBIDDEN", 403, () -> resolve(SUBAGENT, space, id, Map.of("resolution", "keep_both")));
        api().assertRejectedByChain(
                        space, "FORBIDDEN", 403, () -> resolve(WORKER, space, id, Map.of("resolution", "keep_both")));

        MemoryApiContract.Resp won = resolve(USER, space, id, Map.of("resolution", "one_wins", "winner_id", tabs));
        assertThat(won.status()).as(won.raw()).isEqualTo(200);
        assertThat(won.json())
                .containsEntry("resolution", "one_wins")
                .containsEntry("winner_id", tabs)
                .containsEntry("open", false);
        assertThat(read(space, spaces)).containsEntry("state", "superseded").containsEntry("superseded_by", tabs);
        assertThat(read(space, tabs)).containsEntry("state", "active");
        assertThat(read(space, tabs).get("contradictions")).isNull();
        List<Map<String, Object>> audit =
                api().get("/v1/spaces/" + space + "/audit?limit=1000").list("items");
        assertThat(audit.subList(audit.size() - 2, audit.size()))
                .extracting(e -> e.get("event_type"))
                .containsExactly("ContradictionResolved", "MemoryUpdated");
        assertThat(audit.get(audit.size() - 1).get("actor")).isEqualTo(Map.of("type", "user", "id", "manual"));
    }

    @Test
    void askUserPutsTheQuestionInContextUntilItIsAnswered() {
        String space = DETECTING.get(2);
        String five = memory(space, "The staging server is at 10.0.0.5");
        String seven = memory(space, "The staging server is at 10.0.0.7");
        String id = (String) awaitFlagged(space, five, seven).get("id");

        MemoryApiContract.Resp asked = resolve("agent:api", space, id, Map.of("resolution", "ask_user"));
        assertThat(asked.status()).as(asked.raw()).isEqualTo(200);
        assertThat(asked.json()).containsEntry("resolution", "ask_user").containsEntry("open", true);
        assertThat(list(space, "").list("items")).extracting(c -> c.get("id")).containsExactly(id);
        MemoryApiContract.Resp context = api().post(space, "/context", Map.of("message", "where is staging?"));
        assertThat(context.status()).as(context.raw()).isEqualTo(200);
        assertThat(context.list("questions")).containsExactly(Map.of("id", id, "first_id", five, "second_id", seven));
        assertThat((String) context.json().get("text")).contains("Questions for the User", "10.0.0.5", "10.0.0.7", id);
        api().assertRejectedByChain(
                        space,
                        "INVALID_STATE",
                        409,
                        () -> resolve("agent:api", space, id, Map.of("resolution", "ask_user")));

        MemoryApiContract.Resp answered =
                resolve(USER, space, id, Map.of("resolution", "one_wins", "winner_id", seven));
        assertThat(answered.status()).as(answered.raw()).isEqualTo(200);
        assertThat(api().post(space, "/context", Map.of("message", "where is staging?"))
                        .list("questions"))
                .isEmpty();
        assertThat(auditTypes(space))
                .containsSubsequence(
                        "ContradictionFlagged", "ContradictionResolved", "ContradictionResolved", "MemoryUpdated");
    }

    @Test
    void contradictingProposalsAreFlaggedAndOneWinsRejectsTheLosingProposal() {
        String space = DETECTING.get(3);
        String march15 = api().propose(space, SUBAGENT, "Project deadline is March 15");
        String march30 = api().propose(space, SUBAGENT, "Project deadline is March 30");
        String id = (String) awaitFlagged(space, march15, march30).get("id");
        MemoryApiContract.Resp won =
                resolve("agent:api", space, id, Map.of("resolution", "one_wins", "winner_id", march15));
        assertThat(won.status()).as(won.raw()).isEqualTo(200);
        assertThat(api().get("/v1/spaces/" + space + "/proposals/" + march30).json())
                .containsEntry("status", "rejected");
        assertThat(api().get("/v1/spaces/" + space + "/proposals/" + march15).json())
                .containsEntry("status", "pending");
    }

    @Test
    void callersFlagPairsThemselvesUnderTheSequencersRules() {
        String space = MemoryApiContract.space(); // detection is off here: only what the callers flag
        String berlin = memory(space, "The user lives in Berlin.");
        String munich = memory(space, "The user lives in Munich.");
        String path = "/v1/spaces/" + space + "/contradictions";
        for (Map<String, Object> body : List.<Map<String, Object>>of(
                Map.of(),
                Map.of("first_id", berlin),
                Map.of("first_id", berlin, "second_id", berlin),
                Map.of("first_id", berlin, "second_id", munich, "similarity", 2),
                Map.of("first_id", berlin, "second_id", munich, "typo", 1))) {
            api().assertNotPublished(space, "INVALID_ARGUMENT", 400, () -> api().post(space, "/contradictions", body));
        }
        api().assertRejectedByChain(
                        space,
                        "NOT_FOUND",
                        404,
                        () -> api().post(
                                        space,
                                        "/contradictions",
                                        Map.of("first_id", berlin, "second_id", "m0000zzz0000")));
        api().assertRejectedByChain(
                        space,
                        "FORBIDDEN",
                        403,
                        () -> api().as(
                                        SUBAGENT,
                                        HttpRequest.POST(path, Map.of("first_id", berlin, "second_id", munich))));

        MemoryApiContract.Resp flagged =
                api().as(WORKER, HttpRequest.POST(path, Map.of("first_id", berlin, "second_id", munich)));
        assertThat(flagged.status()).as(flagged.raw()).isEqualTo(201);
        assertThat(flagged.headers().get("X-Request-Id")).isNotBlank();
        assertThat(flagged.json())
                .containsEntry("first_id", berlin)
                .containsEntry("second_id", munich)
                .containsEntry("open", true)
                .containsEntry("flagged_by", Map.of("type", "worker", "id", "cron"));
        assertThat(flagged.json().get("similarity")).isNull();
        api().assertRejectedByChain(
                        space,
                        "INVALID_STATE",
                        409,
                        () -> api().post(space, "/contradictions", Map.of("first_id", munich, "second_id", berlin)));
        assertThat(list(space, "?state=all").list("items")).hasSize(1);
        String id = (String) flagged.json().get("id");
        api().assertNotPublished(
                        space,
                        "INVALID_ARGUMENT",
                        400,
                        () -> resolve("agent:api", space, id, Map.of("resolution", "moot")));

        // a side deleted another way: the service closes the contradiction as moot, in the same decision
        assertThat(resolve("agent:api", space, id, Map.of("resolution", "ask_user"))
                        .status())
                .isEqualTo(200);
        assertThat(api().post(space, "/context", Map.of("message", "where does the user live?"))
                        .list("questions"))
                .extracting(q -> q.get("id"))
                .containsExactly(id);
        MemoryApiContract.Resp deleted = api().as(
                        "agent:api",
                        HttpRequest.DELETE("/v1/spaces/" + space + "/memories/" + munich, Map.of("reason", "moved")));
        assertThat(deleted.status()).as(deleted.raw()).isEqualTo(200);
        assertThat(list(space, "").list("items")).isEmpty();
        assertThat(list(space, "?state=all").list("items"))
                .singleElement()
                .satisfies(c -> assertThat(c)
                        .containsEntry("open", false)
                        .containsEntry("resolution", "moot")
                        .containsEntry("resolved_by", Map.of("type", "system", "id", "contradictions")));
        assertThat(api().post(space, "/context", Map.of("message", "where does the user live?"))
                        .list("questions"))
                .isEmpty();
        assertThat(read(space, berlin).get("contradictions")).isNull();
        api().assertRejectedByChain(
                        space,
                        "ALREADY_RESOLVED",
                        409,
                        () -> resolve("agent:api", space, id, Map.of("resolution", "keep_both")));
    }
}
