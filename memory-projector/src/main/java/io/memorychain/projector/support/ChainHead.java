package io.memorychain.projector.support;

import io.memorychain.events.chain.Canonical;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.Serializer;

/**
 * The sequencer's head of one space's chain: last seq, its hash, its time and the key the space signs with since its
 * last {@code SigningKeyRotated} (null: never rotated, the sequencer's default key; docs/architecture.md §4). The key
 * id is a function of the log: the last rotation's {@code new_key_id}.
 */
public record ChainHead(long seq, byte[] hash, Instant occurredAt, String signingKeyId) {

    public static final ChainHead GENESIS = new ChainHead(0, Canonical.GENESIS, Instant.EPOCH);

    public ChainHead(long seq, byte[] hash, Instant occurredAt) {
        this(seq, hash, occurredAt, null);
    }

    /** seq, time and hash (48 bytes, the format before rotations), then the UTF-8 key id when the space rotated. */
    public static Serde<ChainHead> serde() {
        Serializer<ChainHead> ser = (topic, h) -> {
            if (h == null) {
                return null;
            }
            byte[] key = h.signingKeyId == null ? new byte[0] : h.signingKeyId.getBytes(StandardCharsets.UTF_8);
            return ByteBuffer.allocate(16 + Canonical.HASH_SIZE + key.length).putLong(h.seq)
                    .putLong(h.occurredAt.toEpochMilli()).put(h.hash).put(key).array();
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
            String key = buf.hasRemaining() ? StandardCharsets.UTF_8.decode(buf).toString() : null;
            return new ChainHead(seq, hash, at, key);
        };
        return Serdes.serdeFrom(ser, de);
    }
}
