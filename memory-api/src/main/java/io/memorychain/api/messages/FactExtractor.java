package io.memorychain.api.messages;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.memorychain.domain.messages.WritingConstraints;
import io.memorychain.llm.ChatMessage;
import io.memorychain.llm.ChatModel;
import io.memorychain.llm.ChatRequest;
import io.memorychain.llm.ChatResult;
import io.memorychain.llm.JsonSchema;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The multi-fact extraction pass of seed 004 §13 (docs/architecture.md §20): a second, small prompt that lists 1-5
 * candidate durable facts of a message with their kind and importance. Each candidate then goes through the writing
 * constraints and the duplicate check before anything is written ({@link Messages}).
 */
public final class FactExtractor {

    public static final String PURPOSE = "extract";
    public static final int MAX_FACTS = 5;
    static final int MAX_TOKENS = 500;
    private static final ObjectMapper JSON = new ObjectMapper();
    public static final JsonSchema SCHEMA = schema();

    static final String SYSTEM = """
            Extract the durable facts worth remembering long-term from the user's message: at most 5, none if there \
            are none. Skip small talk, questions and anything the user did not state. For each fact give content, kind \
            (semantic: a stable fact or preference; episodic: an event that happened; procedural: how to do something) \
            and importance (1 trivial to 5 critical). Content for semantic facts: %s Content for episodic facts: %s \
            Refer to the person speaking as "the user". Answer with one JSON object {"facts": [...]}.""".formatted(WritingConstraints.SEMANTIC_GUARD, WritingConstraints.EPISODIC_GUARD);

    /** One candidate fact. */
    public record Fact(String content, String kind, int importance) {}

    /** The candidates, or why there are none ({@code skipped} non-null). */
    public record Result(List<Fact> facts, String skipped) {}

    private FactExtractor() {}

    public static Result extract(ChatModel model, String tenant, String message) {
        if (!model.configured()) {
            return new Result(List.of(), "no model");
        }
        ChatResult result = model.complete(
                ChatRequest.of(tenant, PURPOSE, List.of(ChatMessage.system(SYSTEM), ChatMessage.user(message)))
                        .withSchema(SCHEMA)
                        .withMaxTokens(MAX_TOKENS));
        if (!(result instanceof ChatResult.Completed completed)) {
            ChatResult.Failed failed = (ChatResult.Failed) result;
            return new Result(
                    List.of(), "model " + failed.outcome().name().toLowerCase(Locale.ROOT) + ": " + failed.message());
        }
        List<Fact> facts = new ArrayList<>();
        for (JsonNode f : completed.json().path("facts")) {
            if (facts.size() == MAX_FACTS) {
                break;
            }
            int importance = Math.max(1, Math.min(5, f.path("importance").asInt(3)));
            facts.add(new Fact(f.path("content").asText(""), f.path("kind").asText("semantic"), importance));
        }
        return new Result(facts, null);
    }

    private static JsonSchema schema() {
        ObjectNode root = JSON.createObjectNode().put("type", "object");
        root.putArray("required").add("facts");
        ObjectNode fact = MessageRouter.array(root.putObject("properties"), "facts", 0, MAX_FACTS);
        fact.putArray("required").add("content").add("kind").add("importance");
        ObjectNode p = fact.putObject("properties");
        p.putObject("content").put("type", "string");
        MessageRouter.enumeration(p.putObject("kind"), List.of("semantic", "episodic", "procedural"));
        p.putObject("importance").put("type", "integer");
        return new JsonSchema("memory_facts", root);
    }
}
