package io.memorychain.api.mcp;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** A small builder of the JSON Schemas of tool inputs (the {@code object} at the top, its properties, required). */
final class Schemas {

    private final Map<String, Object> properties = new LinkedHashMap<>();
    private final List<String> required = new ArrayList<>();

    static Schemas object() {
        return new Schemas();
    }

    Schemas string(String name, String description, boolean mandatory) {
        return property(name, ordered("type", "string", "description", description), mandatory);
    }

    Schemas enumeration(String name, String description, List<String> values, boolean mandatory) {
        return property(name, ordered("type", "string", "enum", values, "description", description), mandatory);
    }

    Schemas integer(String name, String description, int min, int max, boolean mandatory) {
        return property(name, ordered("type", "integer", "minimum", min, "maximum", max, "description", description), mandatory);
    }

    Schemas number(String name, String description, boolean mandatory) {
        return property(name, ordered("type", "number", "description", description), mandatory);
    }

    Schemas bool(String name, String description) {
        return property(name, ordered("type", "boolean", "description", description), false);
    }

    Schemas strings(String name, String description, boolean mandatory) {
        return property(name, ordered("type", "array", "items", ordered("type", "string"), "description", description), mandatory);
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
