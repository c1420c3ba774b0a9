package io.memorychain.api.mcp;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** A small builder of the JSON Schemas of tool inputs (the {@code object} at the top, its properties, required). */
final class Schemas {

    private final Map<String, Object> properties = new LinkedHashMap<>();
    private final List<String> required = new ArrayList<>();

    static final String SPACE = "space";
    static final String IDEMPOTENCY_KEY = "idempotency_key";
    static final String EXPECTED_VERSION = "expected_version";

    static Schemas object() {
        return new Schemas();
    }

    /** A tool's arguments: the space first. */
    static Schemas withSpace() {
        return object().string(SPACE, "The memory space; default: the one space your key covers", false);
    }

    /** A write tool's arguments: the space and a key that makes a retried call apply once. */
    static Schemas write() {
        return withSpace()
                .string(
                        IDEMPOTENCY_KEY,
                        "Any unique string; a retry with the same key applies the change "
                                + "once and returns the first answer",
                        false);
    }

    /** A write of one existing thing: also the version read before (optimistic concurrency). */
    static Schemas versionedWrite() {
        return write().integer(
                        EXPECTED_VERSION,
                        "The version you read; the change is refused with VERSION_CONFLICT " + "if it changed since",
                        1,
                        Integer.MAX_VALUE,
                        false);
    }

    Schemas string(String name, String description, boolean mandatory) {
        return property(name, ordered("type", "string", "description", description), mandatory);
    }

    Schemas enumeration(String name, String description, List<String> values, boolean mandatory) {
        return property(name, ordered("type", "string", "enum", values, "description", description), mandatory);
    }

    Schemas integer(String name, String description, int min, int max, boolean mandatory) {
        return property(
                name,
                ordered("type", "integer", "minimum", min, "maximum", max, "description", description),
                mandatory);
    }

    Schemas number(String name, String description, boolean mandatory) {
        return property(name, ordered("type", "number", "description", description), mandatory);
    }

    Schemas bool(String name, String description) {
        return property(name, ordered("type", "boolean", "description", description), false);
    }

    Schemas strings(String name, String description, boolean mandatory) {
        return property(
                name,
                ordered("type", "array", "items", ordered("type", "string"), "description", description),
                mandatory);
    }

    Schemas map(String name, String description, boolean mandatory) {
        return property(name, ordered("type", "object", "description", description), mandatory);
    }

    Schemas objects(String name, String description, Schemas item, boolean mandatory) {
        return property(name, ordered("type", "array", "items", item.build(), "description", description), mandatory);
    }

    Schemas property(String name, Map<String, Object> schema, boolean mandatory) {
        properties.put(name, schema);
        if (mandatory) {
            required.add(name);
        }
        return this;
    }

    /** A map that keeps the order of its keys, so the definitions serialize the same way every time. */
    private static Map<String, Object> ordered(Object... keysAndValues) {
        Map<String, Object> map = new LinkedHashMap<>();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            map.put((String) keysAndValues[i], keysAndValues[i + 1]);
        }
        return map;
    }

    Map<String, Object> build() {
        Map<String, Object> schema = new LinkedHashMap<>();
        schema.put("type", "object");
        schema.put("properties", properties);
        schema.put("required", List.copyOf(required));
        schema.put("additionalProperties", false);
        return schema;
    }
}
