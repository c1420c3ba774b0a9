package io.memorychain.projector.support;

import io.memorychain.events.chain.Canonical;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.Serializer;

/**
 * The sequencer's head of one space's chain: last seq, its hash, its time, the key the space signs with since its last
 * {@code SigningKeyRotated} (null: never rotated, the sequencer's default key; docs/architecture.md §4) and the keys it
 * signed with before, oldest first (each rotation's {@code previous_key_id}). Both are a function of the log.
 */
public record ChainHead(long seq, byte[] hash, Instant occurredAt, String signingKeyId, List<String> retiredKeyIds) {

    public static final ChainHead GENESIS = new ChainHead(0, Canonical.GENESIS, Instant.EPOCH);

    public ChainHead {
        retiredKeyIds = retiredKeyIds == null ? List.of() : List.copyOf(retiredKeyIds);
    }

    public ChainHead(long seq, byte[] hash, Instant occurredAt) {
        this(seq, hash, occurredAt, null, List.of());
    }

    /** The next head: at {@code seq} with {@code hash} and {@code at}, the same signing keys. */
    public ChainHead next(long nextSeq, byte[] nextHash, Instant at) {
        return new ChainHead(nextSeq, nextHash, at, signingKeyId, retiredKeyIds);
    }

    /** With the space rotated from {@code previousKeyId} (its signing key until now) to {@code newKeyId}. */
    public ChainHead rotated(String previousKeyId, String newKeyId) {
        List<String> retired = new ArrayList<>(retiredKeyIds);
        if (!retired.contains(previousKeyId)) {
            retired.add(previousKeyId);
        }
        retired.remove(newKeyId);
        return new ChainHead(seq, hash, occurredAt, newKeyId, retired);
    }

    /**
     * seq, time and hash (48 bytes, the format before rotations), then, when the space rotated, the UTF-8 key ids
     * separated by commas: the current key first, then the retired ones (a single id: a head written before the retired
     * keys were kept).
     */
    public static Serde<ChainHead> serde() {
        Serializer<ChainHead> ser = (topic, h) -> {
            if (h == null) {
                return null;
            }
            byte[] key = h.signingKeyId == null
                    ? new byte[0]
                    : String.join(",", keyList(h)).getBytes(StandardCharsets.UTF_8);
            return ByteBuffer.allocate(16 + Canonical.HASH_SIZE + key.length)
                    .putLong(h.seq)
                    .putLong(h.occurredAt.toEpochMilli())
                    .put(h.hash)
                    .put(key)
                    .array();
        };
        Deserializer<ChainHead> de = (topic, b) -> {
            if (b == null) {
                return null;
            }
            ByteBuffer buf = ByteBuffer.wrap(b);
            long seq = buf.getLong();
            Instant at = Instant.ofEpochMilli(buf.getLong());
            byte[] hash = new byte[Canonical.HASH_SIZE];
            buf.get(hash);
            if (!buf.hasRemaining()) {
                return new ChainHead(seq, hash, at);
            }
            List<String> keys =
                    Arrays.asList(StandardCharsets.UTF_8.decode(buf).toString().split(","));
            return new ChainHead(seq, hash, at, keys.get(0), keys.subList(1, keys.size()));
        };
        return Serdes.serdeFrom(ser, de);
    }

    private static List<String> keyList(ChainHead h) {
        List<String> all = new ArrayList<>();
        all.add(h.signingKeyId);
        all.addAll(h.retiredKeyIds);
        return all;
    }
}
