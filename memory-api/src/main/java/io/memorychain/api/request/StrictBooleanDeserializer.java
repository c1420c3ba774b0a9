package io.memorychain.api.request;

import io.micronaut.context.annotation.Primary;
import io.micronaut.json.tree.JsonNode;
import jakarta.inject.Singleton;

/**
 * JSON booleans only: {@code {"pinned": "maybe"}} is a 400, not silently false (as {@link StrictStringDeserializer}
 * does for text).
 */
@Singleton
@Primary
class StrictBooleanDeserializer extends StrictDeserializer<Boolean> {

    @Override
    Boolean valueOf(JsonNode node) {
        return node.isBoolean() ? node.getBooleanValue() : null;
    }

    @Override
    String expected(JsonNode got) {
        return "expected true or false";
    }
}
