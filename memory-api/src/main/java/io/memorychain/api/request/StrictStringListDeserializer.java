package io.memorychain.api.request;

import io.micronaut.context.annotation.Primary;
import io.micronaut.core.type.Argument;
import io.micronaut.json.tree.JsonNode;
import io.micronaut.serde.Decoder;
import io.micronaut.serde.Deserializer;
import jakarta.inject.Singleton;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/** Lists of text (tags, ids) hold JSON strings only, as {@link StrictStringDeserializer} does for single values. */
@Singleton
@Primary
class StrictStringListDeserializer implements Deserializer<List<String>> {

    @Override
    public List<String> deserialize(Decoder decoder, DecoderContext context, Argument<? super List<String>> type)
            throws IOException {
        JsonNode node = decoder.decodeNode();
        if (node.isNull()) {
            return null;
        }
        if (!node.isArray()) {
            throw decoder.createDeserializationException("expected an array of strings", null);
        }
        List<String> out = new ArrayList<>(node.size());
        for (JsonNode item : node.values()) {
            if (!item.isString()) {
                throw decoder.createDeserializationException(
                        "expected an array of strings, found a non-string item", null);
            }
            out.add(item.getStringValue());
        }
        return out;
    }

    @Override
    public List<String> deserializeNullable(
            Decoder decoder, DecoderContext context, Argument<? super List<String>> type) throws IOException {
        return deserialize(decoder, context, type);
    }
}
