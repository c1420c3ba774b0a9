package io.memorychain.events.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.Set;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;

/**
 * Test helpers for schema evolution: older variants of a schema (fields removed), the published schemas of the schemas
 * module, and records framed in the Confluent wire format independently of the production serde.
 */
public final class SchemaVariants {

    private static final ObjectMapper JSON = new ObjectMapper();

    private SchemaVariants() {}

    /**
     * The schema with the named fields removed from the record called {@code recordName} (simple name, at any depth):
     * the shape an older writer would have had before those fields were added.
     */
    public static Schema withoutFields(Schema schema, String recordName, String... fields) {
        try {
            JsonNode tree = JSON.readTree(schema.toString());
            int removed = removeFields(tree, recordName, Set.of(fields));
            if (removed != fields.length) {
                throw new IllegalArgumentException(
                        "Removed " + removed + " of " + fields.length + " fields from " + recordName);
            }
            return new Schema.Parser().parse(tree.toString());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A published schema of the schemas module, e.g. {@code published("v1", "MemoryOutcome.avsc")}. */
    public static Schema published(String version, String file) {
        Path path = Path.of(System.getProperty("user.dir"))
                .resolveSibling("schemas")
                .resolve("src/main/avro-published")
                .resolve(version)
                .resolve(file);
        try {
            return new Schema.Parser().parse(path.toFile());
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read the published schema " + path, e);
        }
    }

    /** Magic byte 0, the big-endian id, then the record's Avro binary encoding with {@code writer}. */
    public static byte[] frame(int schemaId, Schema writer, GenericRecord record) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(ByteBuffer.allocate(5).put((byte) 0).putInt(schemaId).array());
        try {
            BinaryEncoder encoder = EncoderFactory.get().binaryEncoder(out, null);
            new GenericDatumWriter<GenericRecord>(writer, GenericData.get()).write(record, encoder);
            encoder.flush();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }

    private static int removeFields(JsonNode node, String recordName, Set<String> fields) {
        int removed = 0;
        if (node instanceof ObjectNode object) {
            if ("record".equals(object.path("type").asText())
                    && recordName.equals(object.path("name").asText())) {
                ArrayNode recordFields = (ArrayNode) object.get("fields");
                for (int i = recordFields.size() - 1; i >= 0; i--) {
                    if (fields.contains(recordFields.get(i).path("name").asText())) {
                        recordFields.remove(i);
                        removed++;
                    }
                }
            }
            for (JsonNode child : object) {
                removed += removeFields(child, recordName, fields);
            }
        } else if (node instanceof ArrayNode array) {
            for (JsonNode child : array) {
                removed += removeFields(child, recordName, fields);
            }
        }
        return removed;
    }
}
