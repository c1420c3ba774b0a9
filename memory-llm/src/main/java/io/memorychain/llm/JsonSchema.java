package io.memorychain.llm;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * A JSON schema for structured output: {@code name} as the chat-completions API wants it (letters, digits, '_' and '-',
 * at most 64), {@code schema} a JSON object. Replies are checked with {@link StructuredOutputValidator}.
 */
public record JsonSchema(String name, JsonNode schema) {

    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9_-]{1,64}");

    public JsonSchema {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(schema, "schema");
        if (!NAME.matcher(name).matches()) {
            throw new IllegalArgumentException("schema name must match " + NAME.pattern() + ": '" + name + "'");
        }
        if (!schema.isObject()) {
            throw new IllegalArgumentException("schema must be a JSON object");
        }
    }
}
