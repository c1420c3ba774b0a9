package io.memorychain.jobs.refine;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.memorychain.llm.JsonSchema;

/** The refinement agent's instructions and the one-action-per-reply schema (docs/architecture.md §9). */
public final class RefinePrompt {

    /** Usage is counted under this purpose. */
    public static final String PURPOSE = "refine";

    private static final ObjectMapper JSON = new ObjectMapper();

    /** Strict-mode compatible: every property required; unused ones are empty. */
    public static final JsonSchema SCHEMA = schema();

    private RefinePrompt() {}

    /** The system message: the session's rules and the action format. */
    public static String system(boolean allowProtect) {
        return """
                You run a memory refinement session. Goal: bring the core memories (the ledger) down to the target \
                token budget without losing facts. Merge memories that say the same thing, tighten wordy ones, delete \
                only what is obsolete or wrong. Constitutional memories cannot be deleted or consolidated. Never invent \
                facts: every consolidated or updated text must be supported by the memories it replaces.
                Reply with exactly one JSON object per turn, one action:
                  {"action":"search","query":"words"}
                  {"action":"consolidate","ids":["m...","m..."],"content":"merged text","reason":"why"}
                  {"action":"update","id":"m...","content":"tighter text"}
                  {"action":"delete","id":"m...","reason":"why"}
                """ + (allowProtect ? """
                  {"action":"protect","id":"m..."}   (make a memory constitutional: only identity-defining facts)
                """ : "") + """
                  {"action":"complete","summary":"what you did and why"}
                Fill unused fields with "" (or [] for ids). You get each action's result before the next turn. \
                Finish with complete once the ledger is at or under the target or nothing more can be merged.""";
    }

    private static JsonSchema schema() {
        ObjectNode root = JSON.createObjectNode();
        root.put("type", "object");
        root.put("additionalProperties", false);
        root.putArray("required")
                .add("action")
                .add("ids")
                .add("id")
                .add("content")
                .add("query")
                .add("reason")
                .add("summary");
        ObjectNode p = root.putObject("properties");
        p.putObject("action").put("type", "string");
        p.putObject("ids").put("type", "array").putObject("items").put("type", "string");
        for (String field : new String[] {"id", "content", "query", "reason", "summary"}) {
            p.putObject(field).put("type", "string");
        }
        return new JsonSchema("refinement_action", root);
    }
}
