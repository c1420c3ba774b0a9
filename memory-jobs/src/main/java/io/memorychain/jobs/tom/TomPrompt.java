package io.memorychain.jobs.tom;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.memorychain.llm.ChatMessage;
import io.memorychain.llm.ChatRequest;
import io.memorychain.llm.JsonSchema;
import java.util.List;

/** The ToM prompt and output schema (docs/architecture.md §12). */
public final class TomPrompt {

    public static final String PURPOSE = "tom";

    static final String SYSTEM = """
            You infer latent psychological and relational insights about the user from recent memory items: \
            emotions, trust, communication style, how preferences evolve. Rules:
            - Output 1 to 3 insights, only ones the items support; none is better than a guess.
            - Third person ("User ...", "The user ..."), never "I", "we" or "you"; no pronouns referring to the AI.
            - Each summary at most 280 characters, one or two sentences, neutral tone.
            - tags: 1 to 3 short lower-case words; importance: 2.
            Reply with JSON only: {"insights":[{"summary":"...","tags":["..."],"importance":2}]}""";

    private static final ObjectMapper JSON = new ObjectMapper();

    /** Strict-mode compatible: every object closed, every property required. */
    public static final JsonSchema SCHEMA = schema();

    private TomPrompt() {}

    public static ChatRequest request(TomRun run, TomSettings settings) {
        StringBuilder user = new StringBuilder();
        user.append("Latest activity items:\n");
        run.activity().forEach(a -> user.append("- ").append(a).append('\n'));
        user.append("\nNew semantic items:\n");
        if (run.semantic().isEmpty()) {
            user.append("(none)\n");
        }
        run.semantic().forEach(s -> user.append("- ").append(s).append('\n'));
        user.append("\nRecent conversation:\n").append(run.snippet().isEmpty() ? "(none)" : run.snippet());
        return new ChatRequest(
                run.space(),
                PURPOSE,
                List.of(ChatMessage.system(SYSTEM), ChatMessage.user(user.toString())),
                SCHEMA,
                settings.maxTokens(),
                0.0);
    }

    private static JsonSchema schema() {
        ObjectNode root = JSON.createObjectNode();
        root.put("type", "object");
        root.put("additionalProperties", false);
        root.putArray("required").add("insights");
        ObjectNode insights = root.putObject("properties").putObject("insights");
        insights.put("type", "array");
        ObjectNode item = insights.putObject("items");
        item.put("type", "object");
        item.put("additionalProperties", false);
        item.putArray("required").add("summary").add("tags").add("importance");
        ObjectNode properties = item.putObject("properties");
        properties.putObject("summary").put("type", "string");
        properties.putObject("tags").put("type", "array").putObject("items").put("type", "string");
        properties.putObject("importance").put("type", "integer");
        return new JsonSchema("tom_insights", root);
    }
}
