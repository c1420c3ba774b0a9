package io.memorychain.api.request;

import io.micronaut.core.type.Argument;
import io.micronaut.json.tree.JsonNode;
import io.micronaut.serde.Decoder;
import io.micronaut.serde.Deserializer;
import java.io.IOException;

/**
 * A JSON scalar of exactly one type (or null): anything else is a 400 instead of a silent conversion.
 *
 * @param <T> the Java type
 */
abstract class StrictDeserializer<T> implements Deserializer<T> {

    /** The value of a node of the right type, or null when the node has another type. */
    abstract T valueOf(JsonNode node);

    /** What was expected, for the error message. */
    abstract String expected(JsonNode got);

    @Override
    public T deserialize(Decoder decoder, DecoderContext context, Argument<? super T> type) throws IOException {
        JsonNode node = decoder.decodeNode();
        if (node.isNull()) {
            return null;
        }
        T value = valueOf(node);
        if (value == null) {
            throw decoder.createDeserializationException(expected(node), null);
        }
        return value;
    }

    @Override
    public T deserializeNullable(Decoder decoder, DecoderContext context, Argument<? super T> type) throws IOException {
        return deserialize(decoder, context, type);
    }
}
