package io.memorychain.events.chain;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.avro.Schema;
import org.apache.avro.SchemaNormalization;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.IndexedRecord;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.specific.SpecificData;
import org.apache.avro.specific.SpecificRecord;

/**
 * Canonical bytes of a chain event: the 32-byte SHA-256 parsing fingerprint of the event's (writer) schema, followed by
 * the Avro binary encoding of the event with {@code hash} and {@code signature} set to empty bytes. Works for generated
 * {@code MemoryEvent}s and for generic records decoded with an older or newer writer schema alike, so a verifier can
 * recompute the hash of any event with nothing but its writer schema.
 */
public final class Canonical {

    public static final int HASH_SIZE = 32;
    public static final byte[] GENESIS = new byte[HASH_SIZE];
    private static final ByteBuffer EMPTY = ByteBuffer.wrap(new byte[0]);
    private static final Map<Schema, byte[]> FINGERPRINTS = new ConcurrentHashMap<>();

    private Canonical() {}

    public static byte[] bytes(IndexedRecord event) {
        Scratch scratch = SCRATCH.get();
        scratch.encode(event);
        return scratch.out.toByteArray();
    }

    public static byte[] hash(IndexedRecord event) {
        Scratch scratch = SCRATCH.get();
        scratch.encode(event);
        scratch.digest.update(scratch.out.buffer(), 0, scratch.out.size());
        return scratch.digest.digest();
    }

    public static byte[] sha256(byte[] data) {
        return SCRATCH.get().digest.digest(data);
    }

    /** Per-thread encoder, buffer, digest and writers: hashing runs once per event on hot paths. */
    private static final ThreadLocal<Scratch> SCRATCH = ThreadLocal.withInitial(Scratch::new);

    private static final class Scratch {
        final Buffer out = new Buffer();
        final MessageDigest digest;
        final Map<Schema, GenericDatumWriter<IndexedRecord>> specificWriters = new java.util.IdentityHashMap<>();
        final Map<Schema, GenericDatumWriter<IndexedRecord>> genericWriters = new java.util.IdentityHashMap<>();
        BinaryEncoder encoder;

        Scratch() {
            try {
                digest = MessageDigest.getInstance("SHA-256");
            } catch (NoSuchAlgorithmException e) {
                throw new IllegalStateException("SHA-256 is required by the Java platform", e);
            }
        }

        void encode(IndexedRecord event) {
            Schema schema = event.getSchema();
            int hashPos = schema.getField("hash").pos();
            int signaturePos = schema.getField("signature").pos();
            Object hash = event.get(hashPos);
            Object signature = event.get(signaturePos);
            event.put(hashPos, EMPTY.duplicate());
            event.put(signaturePos, EMPTY.duplicate());
            try {
                out.reset();
                out.writeBytes(fingerprint(schema));
                encoder = EncoderFactory.get().directBinaryEncoder(out, encoder);
                boolean specific = event instanceof SpecificRecord;
                (specific ? specificWriters : genericWriters)
                        .computeIfAbsent(
                                schema,
                                s -> new GenericDatumWriter<>(s, specific ? SpecificData.get() : GenericData.get()))
                        .write(event, encoder);
                encoder.flush();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            } finally {
                event.put(hashPos, hash);
                event.put(signaturePos, signature);
            }
        }
    }

    /** A ByteArrayOutputStream whose buffer can be read without a copy. */
    private static final class Buffer extends ByteArrayOutputStream {
        Buffer() {
            super(1024);
        }

        byte[] buffer() {
            return buf;
        }
    }

    static byte[] fingerprint(Schema schema) {
        return FINGERPRINTS.computeIfAbsent(schema, s -> {
            try {
                return SchemaNormalization.parsingFingerprint("SHA-256", s);
            } catch (NoSuchAlgorithmException e) {
                throw new IllegalStateException(e);
            }
        });
    }

    public static String hex(byte[] bytes) {
        return java.util.HexFormat.of().formatHex(bytes);
    }

    public static byte[] toArray(ByteBuffer buffer) {
        ByteBuffer copy = buffer.duplicate();
        byte[] out = new byte[copy.remaining()];
        copy.get(out);
        return out;
    }
}
