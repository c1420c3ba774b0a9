package io.memorychain.api.request;

import io.micronaut.context.annotation.Primary;
import io.micronaut.json.tree.JsonNode;
import jakarta.inject.Singleton;

/**
 * JSON strings only: a number, boolean, array or object where the API expects text is a 400, not silently turned into
 * text ({@code {"content": 42}} must not store "42").
 */
@Singleton
@Primary
class StrictStringDeserializer extends StrictDeserializer<String> {

    @Override
    String valueOf(JsonNode node) {
        return node.isString() ? node.getStringValue() : null;
    }

    @Override
    String expected(JsonNode got) {
        return "expected a string, got " + describe(got);
    }

    private static String describe(JsonNode node) {
        if (node.isNumber()) {
            return "a number";
        }
        if (node.isBoolean()) {
            return "a boolean";
        }
        return node.isArray() ? "an array" : "an object";
    }
}
