package io.memorychain.projector.support;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import org.apache.kafka.common.serialization.Serde;
import org.junit.jupiter.api.Test;

/** The head store's format: the signing keys of a space that rotated survive a round trip, older heads still read. */
class ChainHeadTest {

    private static final Serde<ChainHead> SERDE = ChainHead.serde();
    private static final byte[] HASH = new byte[32];

    static {
        Arrays.fill(HASH, (byte) 7);
    }

    private static ChainHead roundTrip(ChainHead head) {
        return SERDE.deserializer().deserialize("t", SERDE.serializer().serialize("t", head));
    }

    @Test
    void aSpaceThatNeverRotatedKeepsTheFormatBeforeRotations() {
        ChainHead head = new ChainHead(5, HASH, Instant.ofEpochMilli(1234));
        byte[] bytes = SERDE.serializer().serialize("t", head);
        assertThat(bytes).hasSize(48);
        ChainHead read = roundTrip(head);
        assertThat(read.seq()).isEqualTo(5);
        assertThat(read.hash()).isEqualTo(HASH);
        assertThat(read.occurredAt()).isEqualTo(Instant.ofEpochMilli(1234));
        assertThat(read.signingKeyId()).isNull();
        assertThat(read.retiredKeyIds()).isEmpty();
    }

    @Test
    void rotationsKeepTheCurrentKeyAndTheRetiredOnesInOrder() {
        ChainHead head = new ChainHead(5, HASH, Instant.ofEpochMilli(1234))
                .rotated("aaaaaaaaaaaaaaaa", "bbbbbbbbbbbbbbbb")
                .next(6, HASH, Instant.ofEpochMilli(2000))
                .rotated("bbbbbbbbbbbbbbbb", "cccccccccccccccc");
        assertThat(head.signingKeyId()).isEqualTo("cccccccccccccccc");
        assertThat(head.retiredKeyIds()).containsExactly("aaaaaaaaaaaaaaaa", "bbbbbbbbbbbbbbbb");

        ChainHead read = roundTrip(head);

        assertThat(read.seq()).isEqualTo(6);
        assertThat(read.signingKeyId()).isEqualTo("cccccccccccccccc");
        assertThat(read.retiredKeyIds()).containsExactly("aaaaaaaaaaaaaaaa", "bbbbbbbbbbbbbbbb");
        // rotating back to a retired key makes it current again
        assertThat(read.rotated("cccccccccccccccc", "aaaaaaaaaaaaaaaa").retiredKeyIds())
                .containsExactly("bbbbbbbbbbbbbbbb", "cccccccccccccccc");
    }

    @Test
    void aHeadWrittenWithOnlyTheCurrentKeyStillReads() {
        byte[] key = "bbbbbbbbbbbbbbbb".getBytes(StandardCharsets.UTF_8);
        byte[] bytes = ByteBuffer.allocate(48 + key.length)
                .putLong(9)
                .putLong(1234)
                .put(HASH)
                .put(key)
                .array();

        ChainHead read = SERDE.deserializer().deserialize("t", bytes);

        assertThat(read.seq()).isEqualTo(9);
        assertThat(read.signingKeyId()).isEqualTo("bbbbbbbbbbbbbbbb");
        assertThat(read.retiredKeyIds()).isEqualTo(List.of());
    }
}
