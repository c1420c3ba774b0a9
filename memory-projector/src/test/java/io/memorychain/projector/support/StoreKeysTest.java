package io.memorychain.projector.support;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Random;
import org.junit.jupiter.api.Test;

class StoreKeysTest {

    @Test
    void seqIsTheFormattersZeroPaddedNumber() {
        long[] edges = {
            0, 1, 9, 10, 999_999_999_999_999_999L, 1_000_000_000_000_000_000L, Long.MAX_VALUE, -1, Long.MIN_VALUE, -42
        };
        for (long seq : edges) {
            assertThat(StoreKeys.seq(seq)).as("seq %d", seq).isEqualTo(String.format("%019d", seq));
        }
        Random random = new Random(5);
        for (int i = 0; i < 10_000; i++) {
            long seq = random.nextLong() >>> random.nextInt(64);
            assertThat(StoreKeys.seq(seq)).as("seq %d", seq).isEqualTo(String.format("%019d", seq));
        }
    }

    @Test
    void seqsSortNumerically() {
        assertThat(StoreKeys.seq(9).compareTo(StoreKeys.seq(10))).isNegative();
        assertThat(StoreKeys.seq(1_000).compareTo(StoreKeys.seq(999))).isPositive();
        assertThat(StoreKeys.seq(7)).hasSize(19).isEqualTo("0000000000000000007");
    }
}
