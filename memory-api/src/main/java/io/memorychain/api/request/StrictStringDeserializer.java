package io.memorychain.api.request;

import io.micronaut.context.annotation.Primary;
import io.micronaut.core.type.Argument;
import io.micronaut.json.tree.JsonNode;
import io.micronaut.serde.Decoder;
import io.micronaut.serde.Deserializer;
import jakarta.inject.Singleton;
import java.io.IOException;

/**
 * JSON strings only: a number, boolean, array or object where the API expects text is a 400, not silently turned
 * into text ({@code {"content": 42}} must not store "42").
 */
@Singleton
@Primary
public class StrictStringDeserializer implements Deserializer<String> {

    @Override
    public String deserialize(Decoder decoder, DecoderContext context, Argument<? super String> type) throws IOException {
        JsonNode node = decoder.decodeNode();
        if (node.isString()) {
            return node.getStringValue();
        }
        if (node.isNull()) {
            return null;
        }
        throw decoder.createDeserializationException("expected a string, got " + describe(node), null);
    }

    @Override
    public String deserializeNullable(Decoder decoder, DecoderContext context, Argument<? super String> type)
            throws IOException {
        return deserialize(decoder, context, type);
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
