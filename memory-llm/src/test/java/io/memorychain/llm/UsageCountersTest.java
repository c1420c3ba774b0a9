package io.memorychain.llm;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class UsageCountersTest {

    @Test
    void keepsTotalsPerPurposeAndOutcome() {
        UsageCounters counters = new UsageCounters();

        counters.onCall(new UsageRecord("s1", "tom", "m", 100, 20, 1, Duration.ofMillis(5), ChatOutcome.OK));
        counters.onCall(new UsageRecord("s2", "tom", "m", 50, 0, 3, Duration.ofMillis(5), ChatOutcome.BAD_RESPONSE));
        counters.onCall(new UsageRecord("s1", "tom", "m", 10, 5, 1, Duration.ofMillis(5), ChatOutcome.OK));
        counters.onCall(new UsageRecord("s1", "refine", null, 0, 0, 0, Duration.ZERO, ChatOutcome.NOT_CONFIGURED));

        UsageCounters.Totals tom = counters.totals("tom");
        assertThat(tom.calls(ChatOutcome.OK)).isEqualTo(2);
        assertThat(tom.calls(ChatOutcome.BAD_RESPONSE)).isEqualTo(1);
        assertThat(tom.calls(ChatOutcome.TIMEOUT)).isZero();
        assertThat(tom.attempts()).isEqualTo(5);
        assertThat(tom.promptTokens()).isEqualTo(160);
        assertThat(tom.completionTokens()).isEqualTo(25);
        assertThat(counters.snapshot()).containsOnlyKeys("refine", "tom");
        assertThat(counters.totals("refine").calls(ChatOutcome.NOT_CONFIGURED)).isEqualTo(1);
        assertThat(counters.totals("never").calls()).isEmpty();
    }
}
