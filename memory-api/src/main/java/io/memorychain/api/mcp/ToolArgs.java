package io.memorychain.api.mcp;

import io.memorychain.api.error.ApiException;
import io.micronaut.core.type.Argument;
import io.micronaut.json.JsonMapper;
import jakarta.inject.Singleton;
import java.io.IOException;
import java.util.Map;

/** Tool arguments read the way REST reads its bodies: the same records, the same strict rules. */
@Singleton
class ToolArgs {

    private final JsonMapper json;

    ToolArgs(JsonMapper json) {
        this.json = json;
    }

    /** Binds tool arguments to the REST body type, with its strict rules (unknown or mistyped fields are refused). */
    <T> T body(Map<String, Object> arguments, Class<T> type) {
        try {
            return json.readValue(json.writeValueAsBytes(arguments), Argument.of(type));
        } catch (IOException | RuntimeException e) {
            throw ApiException.invalid("invalid arguments: " + firstLine(e.getMessage()));
        }
    }

    /** A required string argument. */
    static String text(Map<String, Object> args, String name) {
        Object value = args.get(name);
        if (!(value instanceof String s) || s.isBlank()) {
            throw ApiException.invalid(name + " is required (a string)");
        }
        return s;
    }

    /** An optional argument as text, or null. */
    static String optional(Map<String, Object> args, String name) {
        Object value = args.get(name);
        return value == null ? null : String.valueOf(value);
    }

    /** An optional whole number, or null. */
    static Long number(Map<String, Object> args, String name) {
        Object value = args.get(name);
        if (value == null) {
            return null;
        }
        if (value instanceof Integer || value instanceof Long) {
            return ((Number) value).longValue();
        }
        throw ApiException.invalid(name + " must be an integer");
    }

    /** An optional boolean, or null. */
    static Boolean flag(Map<String, Object> args, String name) {
        Object value = args.get(name);
        if (value == null || value instanceof Boolean) {
            return (Boolean) value;
        }
        throw ApiException.invalid(name + " must be true or false");
    }

    static String firstLine(String message) {
        if (message == null) {
            return "malformed";
        }
        int nl = message.indexOf('\n');
        return nl < 0 ? message : message.substring(0, nl);
    }
}
