package io.memorychain.projector.support;

import io.memorychain.events.chain.Canonical;
import java.nio.ByteBuffer;
import java.time.Instant;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.Serializer;

/** The sequencer's head of one space's chain: last seq, its hash and its time. */
public record ChainHead(long seq, byte[] hash, Instant occurredAt) {

    public static final ChainHead GENESIS = new ChainHead(0, Canonical.GENESIS, Instant.EPOCH);

    public static Serde<ChainHead> serde() {
        Serializer<ChainHead> ser = (topic, h) -> h == null ? null
                : ByteBuffer.allocate(16 + Canonical.HASH_SIZE).putLong(h.seq).putLong(h.occurredAt.toEpochMilli())
                        .put(h.hash).array();
        Deserializer<ChainHead> de = (topic, b) -> {
            if (b == null) {
                return null;
            }
            ByteBuffer buf = ByteBuffer.wrap(b);
            long seq = buf.getLong();
            Instant at = Instant.ofEpochMilli(buf.getLong());
            byte[] hash = new byte[Canonical.HASH_SIZE];
            buf.get(hash);
            return new ChainHead(seq, hash, at);
        };
        return Serdes.serdeFrom(ser, de);
    }
}
