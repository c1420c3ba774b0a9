package io.memorychain.api.fuzz;

import io.micronaut.core.type.Argument;
import io.micronaut.serde.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * The JSON decoding of the service for the fuzz targets: Micronaut Serialization with the API's own strict
 * deserializers ({@code api.request}), as the REST controllers and the MCP tools decode bodies.
 */
final class FuzzJson {

    static final ObjectMapper MAPPER = ObjectMapper.create(Map.of(), "io.memorychain.api.request");

    private FuzzJson() {}

    /** The value of the JSON text, or null when it is not JSON of that type (a 400 on every transport). */
    static <T> T read(String json, Class<T> type) {
        try {
            return MAPPER.readValue(json, Argument.of(type));
        } catch (IOException e) {
            return null;
        }
    }

    static String text(byte[] data) {
        return new String(data, StandardCharsets.UTF_8);
    }
}
