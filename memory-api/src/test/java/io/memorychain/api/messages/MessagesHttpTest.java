package io.memorychain.api.messages;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import io.memorychain.api.auth.ApiKeys;
import io.memorychain.api.auth.Principal;
import io.memorychain.api.auth.Role;
import io.memorychain.api.topology.TopologyBackend;
import io.memorychain.llm.ScriptedChatServer;
import io.micronaut.core.type.Argument;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.MutableHttpRequest;
import io.micronaut.http.client.HttpClient;
import io.micronaut.http.client.annotation.Client;
import io.micronaut.http.client.exceptions.HttpClientResponseException;
import io.micronaut.json.JsonMapper;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import io.micronaut.test.support.TestPropertyProvider;
import jakarta.inject.Inject;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The message endpoint over the real HTTP stack and write path (sequencer and projection on TopologyTestDriver) with
 * its model a real HTTP {@link ScriptedChatServer}: routing into memories, entities and the relation, a retry storing
 * nothing twice, the fallbacks of a malformed answer, a timeout and 429s, multi-fact extraction with its caps.
 */
@MicronautTest(environments = TopologyBackend.ENV)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class MessagesHttpTest implements TestPropertyProvider {

    static final ScriptedChatServer LLM = new ScriptedChatServer();

    @Inject
    @Client("/")
    HttpClient client;

    @Inject
    JsonMapper json;

    @Inject
    ApiKeys apiKeys;

    private final Map<String, String> keys = new HashMap<>();
    private String space;

    @Override
    public Map<String, String> getProperties() {
        return Map.ofEntries(
                Map.entry("memory.write-timeout", "5s"),
                Map.entry("micronaut.server.port", "-1"),
                Map.entry("memory.auth.bootstrap", "false"),
                Map.entry("memory.llm.base-url", LLM.baseUrl()),
                Map.entry("memory.llm.model", "scripted-model"),
                Map.entry("memory.llm.max-attempts", "2"),
                Map.entry("memory.llm.initial-backoff", "10ms"),
                Map.entry("memory.llm.max-backoff", "20ms"),
                Map.entry("memory.llm.request-timeout", "1s"),
                Map.entry("memory.messages.daily-fact-cap", "4"));
    }

    @AfterAll
    void stop() {
        LLM.close();
    }

    @BeforeEach
    void newSpace() {
        space = "msg-" + UUID.randomUUID().toString().substring(0, 8);
    }

    @Test
    void aRememberStoresTheRoutedMemoryItsEntitiesAndTheRelationAndARetryStoresNothingTwice() {
        String routing = """
                {"store": "semantic", "entities": [{"name": "Ana", "type": "person"}, {"name": "Porto", "type": "place"}],
                 "relations": [{"from": "person--ana", "relation": "lives in", "to": "Porto"}],
                 "tags": ["family", "location"], "confidence": "high", "core_update": false,
                 "summary": "The user's sister Ana lives in Porto."}""";
        LLM.replyContent(routing, 120, 60);
        int before = LLM.received().size();
        Map<String, Object> answer = message("Remember that my sister Ana lives in Porto", "t1");

        assertThat(answer).containsEntry("trigger", "remember").containsEntry("text", "my sister Ana lives in Porto");
        List<Map<String, Object>> stored = list(answer, "stored");
        assertThat(stored)
                .extracting(m -> m.get("content"))
                .containsExactly("The user's sister Ana lives in Porto.", "Ana (person)", "Porto (place)");
        assertThat(stored).extracting(m -> m.get("kind")).containsExactly("semantic", "entity", "entity");
        assertThat(stored.get(0))
                .containsEntry("confidence", "high")
                .containsEntry("tags", List.of("family", "location"))
                .containsEntry("thread_id", "t1");
        Map<String, Object> route = map(answer, "routing");
        assertThat(route).containsEntry("store", "semantic").containsEntry("model", "scripted-model");
        assertThat(list(route, "relations"))
                .singleElement()
                .satisfies(
                        r -> assertThat(r).containsEntry("relation", "lives_in").doesNotContainKey("skipped"));
        assertThat(map(answer, "validation")).containsEntry("outcomes", List.of("pass"));
        // the routing prompt carries the schema and the writing guard of seed 004 §9
        String sent = LLM.received().get(before).body();
        assertThat(sent)
                .contains(
                        "\"json_schema\"",
                        "memory_route",
                        "third-person summary with no pronouns",
                        "Past tense; 1-2 sentences");

        String ana = (String) stored.get(1).get("id");
        String porto = (String) stored.get(2).get("id");
        Map<String, Object> relations = get("/v1/spaces/" + space + "/memories/" + ana + "/relations");
        assertThat(list(relations, "relations"))
                .anySatisfy(r -> assertThat(r).containsEntry("to_id", porto).containsEntry("type", "lives_in"));
        Map<String, Object> mentions =
                get("/v1/spaces/" + space + "/memories/" + stored.get(0).get("id") + "/relations");
        assertThat(list(mentions, "relations")).extracting(r -> r.get("to_id")).contains(ana, porto);

        // the same message again (a client retry): the same ids, nothing new in the space
        LLM.replyContent(routing, 120, 60);
        Map<String, Object> retry = message("Remember that my sister Ana lives in Porto", "t1");
        assertThat(list(retry, "stored"))
                .extracting(m -> m.get("id"))
                .containsExactly(stored.get(0).get("id"));
        assertThat(list(map(retry, "routing"), "entities"))
                .extracting(e -> e.get("id"), e -> e.get("reused"))
                .containsExactly(tuple(ana, true), tuple(porto, true));
        assertThat(retry.get("request_id")).isEqualTo(answer.get("request_id"));
        assertThat(activeCount()).isEqualTo(3);

        // a later message about Ana reuses her entity memory
        LLM.replyContent("""
                {"store": "episodic", "entities": [{"name": "ana", "type": "person"}], "relations": [],
                 "tags": ["family"], "confidence": "medium", "core_update": false,
                 "summary": "Ana visited the user in Lisbon last weekend."}""", 100, 40);
        Map<String, Object> later = message("Don't forget that Ana visited me last weekend", "t1");
        assertThat(list(later, "stored"))
                .singleElement()
                .satisfies(m -> assertThat(m).containsEntry("kind", "episodic"));
        assertThat(list(map(later, "routing"), "entities"))
                .singleElement()
                .satisfies(e -> assertThat(e).containsEntry("id", ana).containsEntry("reused", true));
    }

    @Test
    void aMalformedAnswerATimeoutOr429StoresTheUsersWordsAndSaysWhy() {
        LLM.replyContent("this is not JSON", 10, 5).replyContent("{\"store\": 7}", 10, 5);
        Map<String, Object> bad = message("Remember that the boiler is serviced in May", null);
        assertThat((String) map(bad, "routing").get("skipped")).startsWith("model bad_response");
        assertThat(list(bad, "stored"))
                .singleElement()
                .satisfies(m -> assertThat(m)
                        .containsEntry("content", "the boiler is serviced in May")
                        .containsEntry("kind", "semantic")
                        .containsEntry("confidence", "high"));

        LLM.hang().hang();
        Map<String, Object> slow = message("Note that the gate code is 4821", null);
        assertThat((String) map(slow, "routing").get("skipped")).startsWith("model timeout");
        assertThat(list(slow, "stored")).extracting(m -> m.get("content")).containsExactly("the gate code is 4821");

        LLM.replyStatus(429, Map.of("Retry-After", "0"), "{\"error\": \"slow down\"}")
                .replyStatus(429, Map.of("Retry-After", "0"), "{\"error\": \"slow down\"}");
        Map<String, Object> limited = message("Keep in mind that Leo plays the cello", null);
        assertThat((String) map(limited, "routing").get("skipped")).startsWith("model rate_limited");
        assertThat(list(limited, "stored")).extracting(m -> m.get("content")).containsExactly("Leo plays the cello");
        assertThat(activeCount()).isEqualTo(3);
    }

    @Test
    void aRejectedSummaryKeepsTheUsersWordsAndCountsInThePassRate() {
        LLM.replyContent("""
                {"store": "semantic", "entities": [], "relations": [], "tags": ["health"], "confidence": "high",
                 "core_update": true, "summary": "I am allergic to penicillin."}""", 50, 20);
        Map<String, Object> answer = message("Important: I am allergic to penicillin", null);
        assertThat(map(answer, "routing").get("summary_rejected")).asString().contains("first person");
        assertThat(list(answer, "stored"))
                .singleElement()
                .satisfies(m -> assertThat(m)
                        .containsEntry("content", "I am allergic to penicillin")
                        .containsEntry("tier", "core"));
        assertThat(map(answer, "validation")).containsEntry("outcomes", List.of("rejected"));
        assertThat(((Number) map(map(answer, "validation"), "pass_rate").get("rejected")).longValue())
                .isPositive();
        String metrics = client.toBlocking()
                .retrieve(HttpRequest.GET("/prometheus")
                        .bearerAuth(key("admin:ops"))
                        .accept("text/plain"));
        assertThat(metrics)
                .contains(
                        "memory_messages_validation_total{outcome=\"rejected\"}",
                        "memory_messages_total{trigger=\"remember\"}");
    }

    @Test
    void aLongMessageGetsFactsExtractedWithinThePerMessageAndDailyCaps() {
        String existing = (String) map(
                        post(
                                "/v1/spaces/" + space + "/memories",
                                Map.of("content", "The user works as a nurse at Hospital de Santo António."),
                                "agent:ana"),
                        "memory")
                .get("id");
        String longMessage = "So much happened this month. " + "I started a new job as a nurse at Hospital de Santo "
                + "António, my sister Ana moved to Porto, I adopted a cat called Miso, I am learning Kotlin in the "
                + "evenings, and I finally booked the trip to Japan for October with my partner Rui who loves ramen. "
                + "Anyway, how are you?";
        assertThat(longMessage.length()).isGreaterThan(280);
        LLM.replyContent("""
                {"facts": [
                  {"content": "The user works as a nurse at Hospital de Santo António.", "kind": "semantic", "importance": 4},
                  {"content": "I adopted a cat called Miso.", "kind": "semantic", "importance": 3},
                  {"content": "The user's sister Ana moved to Porto.", "kind": "episodic", "importance": 3},
                  {"content": "The user is learning Kotlin in the evenings.", "kind": "semantic", "importance": 2},
                  {"content": "The user booked a trip to Japan for October with Rui.", "kind": "episodic", "importance": 3}]}
                """, 300, 120);
        Map<String, Object> answer = message(longMessage, null, "u-caps");
        assertThat(answer).containsEntry("trigger", "none");
        Map<String, Object> facts = map(answer, "facts");
        assertThat(facts).containsEntry("extracted", 5);
        assertThat(map(answer, "validation"))
                .containsEntry("outcomes", List.of("pass", "rejected", "pass", "pass", "pass"));
        assertThat(list(answer, "stored"))
                .extracting(m -> m.get("content"))
                .containsExactly(
                        "The user's sister Ana moved to Porto.",
                        "The user is learning Kotlin in the evenings.",
                        "The user booked a trip to Japan for October with Rui.");
        assertThat(list(facts, "skipped"))
                .extracting(s -> (String) s.get("reason"))
                .satisfiesExactly(
                        r -> assertThat(r).isEqualTo("near-duplicate of " + existing),
                        r -> assertThat(r).startsWith("first person"));

        // the same user's next long message: 1 of the daily cap (4) is left
        LLM.replyContent("""
                {"facts": [
                  {"content": "The user's partner Rui loves ramen.", "kind": "semantic", "importance": 2},
                  {"content": "The user's cat Miso is two years old.", "kind": "semantic", "importance": 2}]}
                """, 200, 60);
        Map<String, Object> next = message(longMessage.replace("So much", "Really, so much"), null, "u-caps");
        assertThat(list(map(next, "facts"), "written")).hasSize(1);
        assertThat(list(map(next, "facts"), "skipped"))
                .singleElement()
                .satisfies(s -> assertThat((String) s.get("reason")).startsWith("daily cap of u-caps"));
    }

    @Test
    void aPerMessageCapOfThreeWrites() {
        LLM.replyContent("""
                {"facts": [
                  {"content": "The user plays padel on Mondays.", "kind": "semantic", "importance": 2},
                  {"content": "The user's brother Tiago is a pilot.", "kind": "semantic", "importance": 3},
                  {"content": "The user owns a red Vespa scooter.", "kind": "semantic", "importance": 2},
                  {"content": "The user speaks fluent German.", "kind": "semantic", "importance": 3}]}
                """, 200, 80);
        Map<String, Object> answer = message(
                "x".repeat(10) + " " + "A long message about padel, Tiago, the Vespa ".repeat(8) + " and German.",
                null,
                "u-per-message");
        assertThat(list(map(answer, "facts"), "written")).hasSize(3);
        assertThat(list(map(answer, "facts"), "skipped"))
                .singleElement()
                .satisfies(s -> assertThat(s).containsEntry("reason", "per-message cap (3 writes)"));
    }

    @Test
    void subAgentsAndWorkersCannotSendMessages() {
        HttpClientResponseException e =
                error(HttpRequest.POST("/v1/spaces/" + space + "/messages", Map.of("message", "remember that x is y"))
                        .bearerAuth(key("subagent:researcher")));
        assertThat(e.getStatus().getCode()).isEqualTo(403);
        assertThat(e.getResponse().getBody(String.class).orElse("")).contains("ROLE_NOT_ALLOWED");
        HttpClientResponseException empty =
                error(HttpRequest.POST("/v1/spaces/" + space + "/messages", Map.of("message", " "))
                        .bearerAuth(key("agent:ana")));
        assertThat(empty.getStatus().getCode()).isEqualTo(400);
    }

    private long activeCount() {
        return list(get("/v1/spaces/" + space + "/memories?limit=500"), "items").size();
    }

    private Map<String, Object> message(String text, String thread) {
        return message(text, thread, null);
    }

    private Map<String, Object> message(String text, String thread, String user) {
        Map<String, Object> body = new HashMap<>();
        body.put("message", text);
        if (thread != null) {
            body.put("thread_id", thread);
        }
        if (user != null) {
            body.put("user_id", user);
        }
        return post("/v1/spaces/" + space + "/messages", body, "agent:ana");
    }

    private Map<String, Object> post(String uri, Object body, String caller) {
        return exchange(HttpRequest.POST(uri, body).bearerAuth(key(caller)));
    }

    private Map<String, Object> get(String uri) {
        return exchange(HttpRequest.GET(uri).bearerAuth(key("agent:ana")));
    }

    private Map<String, Object> exchange(MutableHttpRequest<?> request) {
        try {
            String raw = client.toBlocking().retrieve(request);
            return json.readValue(raw, Argument.mapOf(String.class, Object.class));
        } catch (HttpClientResponseException e) {
            throw new AssertionError(
                    e.getStatus() + ": " + e.getResponse().getBody(String.class).orElse(""), e);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private HttpClientResponseException error(MutableHttpRequest<?> request) {
        try {
            client.toBlocking().retrieve(request);
        } catch (HttpClientResponseException e) {
            return e;
        }
        throw new AssertionError("no error");
    }

    private String key(String caller) {
        return keys.computeIfAbsent(caller, c -> {
            String[] parts = c.split(":", 2);
            return apiKeys.issue(
                            new Principal(parts[0] + "-" + parts[1], Role.parse(parts[0]), parts[1], List.of("*")),
                            "test")
                    .key()
                    .toString();
        });
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> map(Map<String, Object> m, String key) {
        return (Map<String, Object>) m.get(key);
    }

    @SuppressWarnings("unchecked")
    static List<Map<String, Object>> list(Map<String, Object> m, String key) {
        return (List<Map<String, Object>>) m.get(key);
    }
}
