package io.memorychain.llm;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Map;
import java.util.Optional;

/**
 * A small subset of JSON Schema, enough to check a model's structured reply: {@code type} (a name or a list of names),
 * {@code required}, {@code properties}, {@code items}, {@code minItems} / {@code maxItems} and {@code enum}, applied
 * recursively. Everything else in the schema is ignored: jobs validate their own business rules (lengths, wording)
 * after this.
 */
public final class StructuredOutputValidator {

    private StructuredOutputValidator() {}

    /** The first problem found, as a message naming its JSON path ({@code $.insights[0].summary}), or empty. */
    public static Optional<String> validate(JsonNode schema, JsonNode value) {
        return check(schema, value, "$");
    }

    private static Optional<String> check(JsonNode schema, JsonNode value, String path) {
        if (schema == null || !schema.isObject()) {
            return Optional.empty();
        }
        JsonNode type = schema.get("type");
        if (type != null && !typeMatches(type, value)) {
            return Optional.of(path + " should be " + type + " but is " + describe(value));
        }
        JsonNode allowed = schema.get("enum");
        if (allowed != null && allowed.isArray()) {
            boolean found = false;
            for (JsonNode candidate : allowed) {
                found |= candidate.equals(value);
            }
            if (!found) {
                return Optional.of(path + " should be one of " + allowed + " but is " + value);
            }
        }
        if (value.isObject()) {
            JsonNode required = schema.get("required");
            if (required != null && required.isArray()) {
                for (JsonNode name : required) {
                    if (!value.has(name.asText())) {
                        return Optional.of(path + " misses required property '" + name.asText() + "'");
                    }
                }
            }
            JsonNode properties = schema.get("properties");
            if (properties != null && properties.isObject()) {
                for (Map.Entry<String, JsonNode> property : properties.properties()) {
                    JsonNode child = value.get(property.getKey());
                    if (child != null) {
                        Optional<String> problem = check(property.getValue(), child, path + "." + property.getKey());
                        if (problem.isPresent()) {
                            return problem;
                        }
                    }
                }
            }
        }
        if (value.isArray()) {
            JsonNode minItems = schema.get("minItems");
            if (minItems != null && value.size() < minItems.asInt()) {
                return Optional.of(
                        path + " should have at least " + minItems.asInt() + " items but has " + value.size());
            }
            JsonNode maxItems = schema.get("maxItems");
            if (maxItems != null && value.size() > maxItems.asInt()) {
                return Optional.of(
                        path + " should have at most " + maxItems.asInt() + " items but has " + value.size());
            }
            JsonNode items = schema.get("items");
            for (int i = 0; i < value.size(); i++) {
                Optional<String> problem = check(items, value.get(i), path + "[" + i + "]");
                if (problem.isPresent()) {
                    return problem;
                }
            }
        }
        return Optional.empty();
    }

    private static boolean typeMatches(JsonNode type, JsonNode value) {
        if (type.isArray()) {
            for (JsonNode one : type) {
                if (typeMatches(one, value)) {
                    return true;
                }
            }
            return false;
        }
        return switch (type.asText()) {
            case "object" -> value.isObject();
            case "array" -> value.isArray();
            case "string" -> value.isTextual();
            case "boolean" -> value.isBoolean();
            case "null" -> value.isNull();
            case "number" -> value.isNumber();
            case "integer" ->
                value.isIntegralNumber()
                        || (value.isNumber()
                                && value.decimalValue().stripTrailingZeros().scale() <= 0);
            default -> true;
        };
    }

    private static String describe(JsonNode value) {
        return switch (value.getNodeType()) {
            case OBJECT -> "an object";
            case ARRAY -> "an array";
            case STRING -> "a string";
            case BOOLEAN -> "a boolean";
            case NUMBER -> "a number";
            case NULL -> "null";
            default -> value.getNodeType().toString().toLowerCase(java.util.Locale.ROOT);
        };
    }
}
