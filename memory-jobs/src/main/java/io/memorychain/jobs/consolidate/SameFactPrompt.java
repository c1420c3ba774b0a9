package io.memorychain.jobs.consolidate;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.memorychain.llm.ChatMessage;
import io.memorychain.llm.ChatRequest;
import io.memorychain.llm.JsonSchema;
import java.util.List;

/** The batched same-fact prompt and its output schema (docs/architecture.md §12). */
public final class SameFactPrompt {

    public static final String PURPOSE = "consolidate";

    static final String SYSTEM = """
            You deduplicate a long-term memory store. For each numbered pair of memories decide whether A and B \
            state the same fact (one is a rewording, a copy or a strict refinement of the other). Different \
            subjects, different values (numbers, names, places, dates) or merely related facts are NOT the same \
            fact; when unsure answer false. For a same fact, give merged: one sentence keeping every detail of \
            both, at most 300 characters; for a different fact, merged is "".
            Reply with JSON only: {"pairs":[{"id":"p1","same_fact":true,"merged":"..."}]}, one entry per pair.""";

    private static final ObjectMapper JSON = new ObjectMapper();
    public static final JsonSchema SCHEMA = schema();

    private SameFactPrompt() {}

    static String pairId(int index) {
        return "p" + (index + 1);
    }

    public static ChatRequest request(String space, List<ConsolidatePlanner.Pair> batch, int maxTokens) {
        StringBuilder user = new StringBuilder();
        for (int i = 0; i < batch.size(); i++) {
            ConsolidatePlanner.Pair p = batch.get(i);
            user.append(pairId(i))
                    .append(":\n  A: ")
                    .append(p.a().content())
                    .append("\n  B: ")
                    .append(p.b().content())
                    .append('\n');
        }
        return new ChatRequest(
                space,
                PURPOSE,
                List.of(ChatMessage.system(SYSTEM), ChatMessage.user(user.toString())),
                SCHEMA,
                maxTokens,
                0.0);
    }

    private static JsonSchema schema() {
        ObjectNode root = JSON.createObjectNode();
        root.put("type", "object");
        root.put("additionalProperties", false);
        root.putArray("required").add("pairs");
        ObjectNode pairs = root.putObject("properties").putObject("pairs");
        pairs.put("type", "array");
        ObjectNode item = pairs.putObject("items");
        item.put("type", "object");
        item.put("additionalProperties", false);
        item.putArray("required").add("id").add("same_fact").add("merged");
        ObjectNode properties = item.putObject("properties");
        properties.putObject("id").put("type", "string");
        properties.putObject("same_fact").put("type", "boolean");
        properties.putObject("merged").put("type", "string");
        return new JsonSchema("same_fact_pairs", root);
    }
}
