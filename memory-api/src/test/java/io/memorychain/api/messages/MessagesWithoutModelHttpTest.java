package io.memorychain.api.messages;

import static io.memorychain.api.messages.MessagesHttpTest.list;
import static io.memorychain.api.messages.MessagesHttpTest.map;
import static org.assertj.core.api.Assertions.assertThat;

import io.memorychain.api.auth.ApiKeys;
import io.memorychain.api.auth.Principal;
import io.memorychain.api.auth.Role;
import io.memorychain.api.topology.TopologyBackend;
import io.memorychain.avro.RequestReflection;
import io.micronaut.context.annotation.Property;
import io.micronaut.core.type.Argument;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.MutableHttpRequest;
import io.micronaut.http.client.HttpClient;
import io.micronaut.http.client.annotation.Client;
import io.micronaut.http.client.exceptions.HttpClientResponseException;
import io.micronaut.json.JsonMapper;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import jakarta.inject.Inject;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The message endpoint without a model ({@code memory.llm.*} unset): a remember stores the user's words, a forget needs
 * a confirmation that only its caller can give in its space, a reflect requests a reflection, a recall queries.
 */
@MicronautTest(environments = TopologyBackend.ENV)
@Property(name = "memory.write-timeout", value = "5s")
@Property(name = "micronaut.server.port", value = "-1")
@Property(name = "memory.auth.bootstrap", value = "false")
class MessagesWithoutModelHttpTest {

    @Inject
    @Client("/")
    HttpClient client;

    @Inject
    JsonMapper json;

    @Inject
    ApiKeys apiKeys;

    @Inject
    TopologyBackend chain;

    private final Map<String, String> keys = new HashMap<>();
    private String space;

    @BeforeEach
    void newSpace() {
        space = "msg-" + UUID.randomUUID().toString().substring(0, 8);
    }

    @Test
    void aRememberWithoutAModelStoresTheUsersWordsOnceWithConfidenceHigh() {
        Map<String, Object> answer = message("agent:ana", "remember that my sister lives in Porto");
        assertThat(answer).containsEntry("trigger", "remember");
        assertThat(map(answer, "routing")).containsEntry("skipped", "no model");
        assertThat(list(answer, "stored"))
                .singleElement()
                .satisfies(m -> assertThat(m)
                        .containsEntry("content", "my sister lives in Porto")
                        .containsEntry("kind", "semantic")
                        .containsEntry("confidence", "high"));
        Map<String, Object> retry = message("agent:ana", "remember that my sister lives in Porto");
        assertThat(list(retry, "stored").get(0).get("id"))
                .isEqualTo(list(answer, "stored").get(0).get("id"));
        assertThat(list(get("agent:ana", "/v1/spaces/" + space + "/memories"), "items"))
                .hasSize(1);
    }

    @Test
    void aMessageWithoutTriggerStoresNothing() {
        long published = chain.published().size();
        Map<String, Object> answer = message("agent:ana", "I don't remember the name of that restaurant");
        assertThat(answer)
                .containsEntry("trigger", "none")
                .containsEntry("stored", List.of())
                .containsEntry("skipped", "no trigger phrase: nothing stored");
        assertThat(chain.published()).hasSize((int) published);
        message("agent:ana", "remember that my sister lives in Porto");

        // the hot path's classify step is an operational event (seed 004 section 14): skipped without a trigger
        List<Map<String, Object>> buckets =
                list(get("agent:ana", "/v1/spaces/" + space + "/ops?bucket=day"), "buckets");
        assertThat(buckets)
                .extracting(b -> b.get("node") + "/" + b.get("op") + "/" + b.get("status") + "=" + b.get("count"))
                .contains("hotpath/classify/skipped=1", "hotpath/classify/ok=1");
    }

    @Test
    void aForgetListsMatchesAndOnlyItsCallersConfirmationInItsSpaceDeletesThem() {
        String globex = create("The user worked at Globex as a data analyst until 2023.");
        String porto = create("The user's sister lives in Porto.");
        Map<String, Object> answer = message("agent:ana", "Forget about my job at Globex");
        assertThat(answer).containsEntry("trigger", "forget").containsEntry("stored", List.of());
        assertThat((String) answer.get("hard_delete")).startsWith("not available");
        Map<String, Object> confirmation = map(answer, "confirmation");
        @SuppressWarnings("unchecked")
        List<String> ids = (List<String>) confirmation.get("memory_ids");
        assertThat(ids).contains(globex);
        assertThat(list(answer, "matches")).extracting(m -> m.get("id")).containsExactlyElementsOf(ids);
        assertThat(memory(globex)).containsEntry("state", "active");
        String token = (String) confirmation.get("token");

        String confirm = "/v1/spaces/" + space + "/messages:confirm-forget";
        assertThat(error(HttpRequest.POST(confirm, Map.of("token", token)).bearerAuth(key("agent:bob"))))
                .containsEntry("status", 403)
                .containsEntry("code", "CONFIRMATION_NOT_YOURS");
        assertThat(error(HttpRequest.POST(
                                "/v1/spaces/" + space + "-other/messages:confirm-forget", Map.of("token", token))
                        .bearerAuth(key("agent:ana"))))
                .containsEntry("status", 403)
                .containsEntry("code", "CONFIRMATION_NOT_YOURS");
        String forged = token.substring(0, token.length() - 2) + (token.endsWith("A") ? "BB" : "AA");
        assertThat(error(HttpRequest.POST(confirm, Map.of("token", forged)).bearerAuth(key("agent:ana"))))
                .containsEntry("status", 400)
                .containsEntry("code", "INVALID_CONFIRMATION");
        assertThat(error(HttpRequest.POST(confirm, Map.of("token", token, "memory_ids", List.of(porto + "x")))
                        .bearerAuth(key("agent:ana"))))
                .containsEntry("code", "INVALID_CONFIRMATION");
        assertThat(memory(globex)).containsEntry("state", "active");

        Map<String, Object> done = post("agent:ana", confirm, Map.of("token", token, "memory_ids", List.of(globex)));
        assertThat(done).containsEntry("forgotten", List.of(globex)).containsEntry("not_forgotten", List.of());
        assertThat(memory(globex)).containsEntry("state", "soft_deleted");
        assertThat(memory(porto)).containsEntry("state", "active");
        // a retried confirmation applies nothing twice (the same request ids)
        long published = chain.published().size();
        assertThat(post("agent:ana", confirm, Map.of("token", token, "memory_ids", List.of(globex))))
                .containsEntry("forgotten", List.of(globex));
        assertThat(memory(globex)).containsEntry("version", memory(globex).get("version"));
        assertThat(list(get("agent:ana", "/v1/spaces/" + space + "/memories/" + globex + "/history"), "items"))
                .hasSize(2);
        assertThat(chain.published().size()).isEqualTo(published + 1);
    }

    @Test
    void aReflectRequestsAReflectionAndARecallQueries() {
        String porto = create("The user's sister lives in Porto.");
        Map<String, Object> reflect = message("user:ana", "Please reflect on our last conversations");
        assertThat(reflect).containsEntry("trigger", "reflect");
        assertThat(map(reflect, "reflection")).containsKey("seq");
        assertThat(chain.published().get(chain.published().size() - 1).getOp()).isInstanceOf(RequestReflection.class);

        Map<String, Object> recall = message("agent:ana", "What do you remember about my sister?");
        assertThat(recall)
                .containsEntry("trigger", "recall")
                .containsEntry("text", "my sister")
                .containsEntry("stored", List.of());
        assertThat(list(recall, "matches")).extracting(m -> m.get("id")).contains(porto);
    }

    private String create(String content) {
        return (String)
                map(post("agent:ana", "/v1/spaces/" + space + "/memories", Map.of("content", content)), "memory")
                        .get("id");
    }

    private Map<String, Object> memory(String id) {
        return get("agent:ana", "/v1/spaces/" + space + "/memories/" + id);
    }

    private Map<String, Object> message(String caller, String text) {
        return post(caller, "/v1/spaces/" + space + "/messages", Map.of("message", text));
    }

    private Map<String, Object> post(String caller, String uri, Object body) {
        return exchange(HttpRequest.POST(uri, body).bearerAuth(key(caller)));
    }

    private Map<String, Object> get(String caller, String uri) {
        return exchange(HttpRequest.GET(uri).bearerAuth(key(caller)));
    }

    private Map<String, Object> exchange(MutableHttpRequest<?> request) {
        try {
            return json.readValue(client.toBlocking().retrieve(request), Argument.mapOf(String.class, Object.class));
        } catch (HttpClientResponseException e) {
            throw new AssertionError(
                    e.getStatus() + ": " + e.getResponse().getBody(String.class).orElse(""), e);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The error answer with its HTTP status under "status". */
    private Map<String, Object> error(MutableHttpRequest<?> request) {
        try {
            client.toBlocking().retrieve(request);
        } catch (HttpClientResponseException e) {
            try {
                Map<String, Object> body = new HashMap<>(json.readValue(
                        e.getResponse().getBody(String.class).orElse("{}"),
                        Argument.mapOf(String.class, Object.class)));
                body.put("status", e.getStatus().getCode());
                return body;
            } catch (IOException io) {
                throw new UncheckedIOException(io);
            }
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
}
