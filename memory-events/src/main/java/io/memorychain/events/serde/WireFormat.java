package io.memorychain.events.serde;

import java.nio.ByteBuffer;
import org.apache.kafka.common.errors.SerializationException;

/**
 * Confluent wire format: magic byte 0, the 4-byte big-endian schema id, then the Avro binary encoding written with that
 * schema.
 */
public final class WireFormat {

    public static final byte MAGIC = 0;
    public static final int HEADER_SIZE = 5;

    private WireFormat() {}

    /** The schema id of a framed record; throws {@link SerializationException} if the frame is not valid. */
    public static int schemaId(byte[] framed) {
        if (framed == null || framed.length < HEADER_SIZE) {
            throw new SerializationException(
                    "Record too short for the wire format: " + (framed == null ? "null" : framed.length + " bytes"));
        }
        if (framed[0] != MAGIC) {
            throw new SerializationException("Unknown magic byte " + framed[0] + " (expected 0)");
        }
        return ByteBuffer.wrap(framed, 1, 4).getInt();
    }

    static byte[] header(int schemaId) {
        return ByteBuffer.allocate(HEADER_SIZE).put(MAGIC).putInt(schemaId).array();
    }
}
