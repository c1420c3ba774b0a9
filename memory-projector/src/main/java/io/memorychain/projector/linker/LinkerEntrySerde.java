package io.memorychain.projector.linker;

import io.memorychain.avro.MemoryKind;
import io.memorychain.avro.MemoryState;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serializer;

/**
 * Compact binary value of the linker's store (not on the wire, so no registry): a format byte, kind and state as enum
 * ordinals (-1 for unknown), the two content hashes as length-prefixed UTF-8 (-1 for null), the vector's seq, and the
 * vector as little-endian floats after its length (-1 for none). A plain float array decodes several times faster than
 * an Avro {@code array<float>}, which matters because every new memory scans its whole space.
 */
final class LinkerEntrySerde implements Serde<LinkerEntry>, Serializer<LinkerEntry>, Deserializer<LinkerEntry> {

    private static final byte FORMAT = 1;
    private static final MemoryKind[] KINDS = MemoryKind.values();
    private static final MemoryState[] STATES = MemoryState.values();

    @Override
    public byte[] serialize(String topic, LinkerEntry e) {
        if (e == null) {
            return null;
        }
        byte[] hash = bytes(e.contentHash());
        byte[] vectorHash = bytes(e.vectorHash());
        int floats = e.vector() == null ? 0 : e.vector().length;
        ByteBuffer buf = ByteBuffer.allocate(1 + 2 + 4 + len(hash) + 4 + len(vectorHash) + 8 + 4 + 4 * floats)
                .order(ByteOrder.LITTLE_ENDIAN);
        buf.put(FORMAT);
        buf.put((byte) (e.kind() == null ? -1 : e.kind().ordinal()));
        buf.put((byte) (e.state() == null ? -1 : e.state().ordinal()));
        putBytes(buf, hash);
        putBytes(buf, vectorHash);
        buf.putLong(e.vectorSeq());
        if (e.vector() == null) {
            buf.putInt(-1);
        } else {
            buf.putInt(floats);
            buf.asFloatBuffer().put(e.vector());
        }
        return buf.array();
    }

    @Override
    public LinkerEntry deserialize(String topic, byte[] data) {
        if (data == null) {
            return null;
        }
        ByteBuffer buf = ByteBuffer.wrap(data).order(ByteOrder.LITTLE_ENDIAN);
        byte format = buf.get();
        if (format != FORMAT) {
            throw new IllegalStateException("unknown linker entry format " + format);
        }
        byte kind = buf.get();
        byte state = buf.get();
        String hash = getString(buf);
        String vectorHash = getString(buf);
        long seq = buf.getLong();
        int floats = buf.getInt();
        float[] vector = null;
        if (floats >= 0) {
            vector = new float[floats];
            buf.asFloatBuffer().get(vector);
        }
        return new LinkerEntry(
                kind < 0 ? null : KINDS[kind], state < 0 ? null : STATES[state], hash, vectorHash, seq, vector);
    }

    private static byte[] bytes(String s) {
        return s == null ? null : s.getBytes(StandardCharsets.UTF_8);
    }

    private static int len(byte[] b) {
        return b == null ? 0 : b.length;
    }

    private static void putBytes(ByteBuffer buf, byte[] b) {
        if (b == null) {
            buf.putInt(-1);
        } else {
            buf.putInt(b.length);
            buf.put(b);
        }
    }

    private static String getString(ByteBuffer buf) {
        int n = buf.getInt();
        if (n < 0) {
            return null;
        }
        String s = new String(buf.array(), buf.arrayOffset() + buf.position(), n, StandardCharsets.UTF_8);
        buf.position(buf.position() + n);
        return s;
    }

    @Override
    public void configure(java.util.Map<String, ?> configs, boolean isKey) {}

    @Override
    public void close() {}

    @Override
    public Serializer<LinkerEntry> serializer() {
        return this;
    }

    @Override
    public Deserializer<LinkerEntry> deserializer() {
        return this;
    }
}
