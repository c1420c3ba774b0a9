package io.memorychain.api.messages;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.memorychain.domain.messages.WritingConstraints;
import io.memorychain.llm.ChatMessage;
import io.memorychain.llm.ChatModel;
import io.memorychain.llm.ChatRequest;
import io.memorychain.llm.ChatResult;
import io.memorychain.llm.JsonSchema;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The memory router of seed 001 §8.2 (docs/architecture.md §20): one model call with a JSON schema classifies what the
 * user asked to remember (store, entities, relations, tags, confidence, core_update, summary). The prompt carries the
 * writing guards of seed 004 §9. A failed call is a value ({@link Skipped} with the reason), never an invented answer.
 */
public final class MessageRouter {

    public static final String PURPOSE = "route";
    static final int MAX_TOKENS = 400;
    static final List<String> STORES = List.of("core", "episodic", "semantic", "procedural", "vault");
    static final List<String> ENTITY_TYPES = List.of("person", "project", "concept", "tool", "place", "organization");
    static final List<String> CONFIDENCES = List.of("high", "medium", "low");
    private static final ObjectMapper JSON = new ObjectMapper();
    public static final JsonSchema SCHEMA = schema();

    static final String SYSTEM = """
            You are classifying a piece of information for storage. Given the content below, determine:
            1. store: which memory store is most appropriate?
            - core: critical, always-relevant information (identity, active priorities, key preferences)
            - episodic: a specific event, decision, or interaction worth logging chronologically
            - semantic: a fact, concept, or relationship that should be indexed in the knowledge graph
            - procedural: a workflow, pattern, or "how-to" that the agent should learn
            - vault: the user explicitly wants this permanently protected from decay
            2. entities (if semantic): name and type (person/project/concept/tool/place/organization); relations: from \
            (an entity name) -> relation (a short verb such as lives_in, works_at, uses) -> to (an entity name).
            3. tags: 2-5 topical tags for retrieval, lower case.
            4. confidence: high (the user explicitly asked us to remember, or it is clearly important), medium, low.
            5. core_update: true only if it changes the user's identity, active context, or critical facts.
            6. summary: the memory to store. For semantic, core and vault: %s For episodic: %s \
            Refer to the person speaking as "the user".
            7. multiple_facts: true if the content holds several independent durable facts.
            Answer with one JSON object.""".formatted(WritingConstraints.SEMANTIC_GUARD, WritingConstraints.EPISODIC_GUARD);

    /** What the router answered or why it did not. */
    public sealed interface Result {}

    /** A validated classification. */
    public record Routing(
            String store,
            List<Entity> entities,
            List<Relation> relations,
            List<String> tags,
            String confidence,
            boolean coreUpdate,
            String summary,
            boolean multipleFacts,
            String model)
            implements Result {}

    public record Entity(String name, String type) {}

    public record Relation(String from, String relation, String to) {}

    /** No routing: no model, or the call failed (the reason says how). */
    public record Skipped(String reason) implements Result {}

    private MessageRouter() {}

    public static Result route(ChatModel model, String tenant, String text) {
        if (!model.configured()) {
            return new Skipped("no model");
        }
        ChatResult result = model.complete(
                ChatRequest.of(tenant, PURPOSE, List.of(ChatMessage.system(SYSTEM), ChatMessage.user(text)))
                        .withSchema(SCHEMA)
                        .withMaxTokens(MAX_TOKENS));
        if (!(result instanceof ChatResult.Completed completed)) {
            ChatResult.Failed failed = (ChatResult.Failed) result;
            return new Skipped("model " + failed.outcome().name().toLowerCase(Locale.ROOT) + ": " + failed.message());
        }
        return parse(completed.json(), completed.model());
    }

    /** The schema-checked answer as a routing; entries the schema cannot express (blank names, repeats) are dropped. */
    static Result parse(JsonNode json, String model) {
        if (json == null || !json.isObject()) {
            return new Skipped("model bad_response: not a JSON object");
        }
        List<Entity> entities = new ArrayList<>();
        Set<String> names = new LinkedHashSet<>();
        for (JsonNode e : json.path("entities")) {
            String name = e.path("name").asText("").strip();
            if (!name.isEmpty()
                    && name.length() <= 120
                    && names.add(name.toLowerCase(Locale.ROOT))
                    && entities.size() < 10) {
                entities.add(new Entity(
                        name, e.path("type").asText("concept").strip().toLowerCase(Locale.ROOT)));
            }
        }
        List<Relation> relations = new ArrayList<>();
        for (JsonNode r : json.path("relations")) {
            String from = r.path("from").asText("").strip();
            String to = r.path("to").asText("").strip();
            String relation = r.path("relation").asText("").strip();
            if (!from.isEmpty() && !to.isEmpty() && !relation.isEmpty() && relations.size() < 10) {
                relations.add(new Relation(from, relation, to));
            }
        }
        Set<String> tags = new LinkedHashSet<>();
        for (JsonNode t : json.path("tags")) {
            String tag = t.asText("").strip().toLowerCase(Locale.ROOT);
            if (!tag.isEmpty() && tag.length() <= 64 && tags.size() < 5) {
                tags.add(tag);
            }
        }
        return new Routing(
                json.path("store").asText("semantic"),
                entities,
                relations,
                List.copyOf(tags),
                json.path("confidence").asText("high"),
                json.path("core_update").asBoolean(false),
                json.path("summary").asText(""),
                json.path("multiple_facts").asBoolean(false),
                model);
    }

    private static JsonSchema schema() {
        ObjectNode root = JSON.createObjectNode().put("type", "object");
        root.putArray("required")
                .add("store")
                .add("entities")
                .add("relations")
                .add("tags")
                .add("confidence")
                .add("core_update")
                .add("summary");
        ObjectNode p = root.putObject("properties");
        enumeration(p.putObject("store"), STORES);
        ObjectNode entity = array(p, "entities", 0, 10);
        entity.putArray("required").add("name").add("type");
        entity.putObject("properties").putObject("name").put("type", "string");
        enumeration(((ObjectNode) entity.get("properties")).putObject("type"), ENTITY_TYPES);
        ObjectNode relation = array(p, "relations", 0, 10);
        relation.putArray("required").add("from").add("relation").add("to");
        ObjectNode rp = relation.putObject("properties");
        rp.putObject("from").put("type", "string");
        rp.putObject("relation").put("type", "string");
        rp.putObject("to").put("type", "string");
        p.putObject("tags")
                .put("type", "array")
                .put("minItems", 0)
                .put("maxItems", 5)
                .putObject("items")
                .put("type", "string");
        enumeration(p.putObject("confidence"), CONFIDENCES);
        p.putObject("core_update").put("type", "boolean");
        p.putObject("summary").put("type", "string");
        p.putObject("multiple_facts").put("type", "boolean");
        return new JsonSchema("memory_route", root);
    }

    static ObjectNode array(ObjectNode properties, String name, int min, int max) {
        ObjectNode items = properties
                .putObject(name)
                .put("type", "array")
                .put("minItems", min)
                .put("maxItems", max)
                .putObject("items");
        return items.put("type", "object");
    }

    static void enumeration(ObjectNode node, List<String> values) {
        ArrayNode e = node.put("type", "string").putArray("enum");
        values.forEach(e::add);
    }
}
