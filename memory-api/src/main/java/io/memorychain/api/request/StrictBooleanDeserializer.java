package io.memorychain.api.request;

import io.micronaut.context.annotation.Primary;
import io.micronaut.core.type.Argument;
import io.micronaut.json.tree.JsonNode;
import io.micronaut.serde.Decoder;
import io.micronaut.serde.Deserializer;
import jakarta.inject.Singleton;
import java.io.IOException;

/**
 * JSON booleans only: {@code {"pinned": "maybe"}} is a 400, not silently false (as {@link StrictStringDeserializer}
 * does for text).
 */
@Singleton
@Primary
public class StrictBooleanDeserializer implements Deserializer<Boolean> {

    @Override
    public Boolean deserialize(Decoder decoder, DecoderContext context, Argument<? super Boolean> type) throws IOException {
        JsonNode node = decoder.decodeNode();
        if (node.isBoolean()) {
            return node.getBooleanValue();
        }
        if (node.isNull()) {
            return null;
        }
        throw decoder.createDeserializationException("expected true or false", null);
    }

    @Override
    public Boolean deserializeNullable(Decoder decoder, DecoderContext context, Argument<? super Boolean> type)
            throws IOException {
        return deserialize(decoder, context, type);
    }
}
