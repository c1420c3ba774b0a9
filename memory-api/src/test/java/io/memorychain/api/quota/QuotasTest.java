package io.memorychain.api.quota;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.memorychain.api.auth.Operation;
import io.memorychain.api.auth.Principal;
import io.memorychain.api.auth.Role;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class QuotasTest {

    private static final Principal ANA = new Principal("ana-bot", Role.AGENT, "ana", List.of("*"));
    private static final Principal BOB = new Principal("bob-bot", Role.AGENT, "bob", List.of("*"));

    private final AtomicLong nanos = new AtomicLong();

    @Test
    void aKeyMaySendItsBurstAtOnceThenItsRateAndIsToldHowLongToWait() {
        Quotas quotas = quotas(config(2, 3, 0), List.of());
        for (int i = 0; i < 3; i++) {
            quotas.charge(ANA, Operation.GET_MEMORY);
        }
        assertThatThrownBy(() -> quotas.charge(ANA, Operation.GET_MEMORY))
                .isInstanceOfSatisfying(QuotaExceededException.class, e -> {
                    assertThat(e.code()).isEqualTo("RATE_LIMITED");
                    assertThat(e.status().getCode()).isEqualTo(429);
                    assertThat(e.retryAfterSeconds()).isEqualTo(1);
                    assertThat(e.getMessage()).contains("ana-bot", "2.0 requests a second");
                });
        quotas.charge(BOB, Operation.GET_MEMORY); // another key has its own bucket

        nanos.addAndGet(500_000_000L); // half a second at 2/s: one token
        quotas.charge(ANA, Operation.GET_MEMORY);
        assertThatThrownBy(() -> quotas.charge(ANA, Operation.GET_MEMORY)).isInstanceOf(QuotaExceededException.class);
    }

    @Test
    void writesCountAgainstTheDaysBudgetUntilMidnightUtcAndReadsDoNot() {
        Quotas quotas = quotas(config(1_000, 1_000, 2), List.of());
        quotas.charge(ANA, Operation.CREATE_MEMORY);
        quotas.charge(ANA, Operation.QUERY);
        quotas.charge(ANA, Operation.UPDATE_MEMORY);
        assertThatThrownBy(() -> quotas.charge(ANA, Operation.PIN_MEMORY))
                .isInstanceOfSatisfying(QuotaExceededException.class, e -> {
                    assertThat(e.getMessage()).contains("its 2 writes of today");
                    assertThat(e.retryAfterSeconds()).isEqualTo(6 * 3600 + 1); // 18:00 UTC in the clock below
                });
        quotas.charge(ANA, Operation.QUERY);
        quotas.charge(ANA, Operation.CONTEXT);
        quotas.charge(BOB, Operation.CREATE_MEMORY);
    }

    @Test
    void aKeyNamedInTheConfigurationGetsItsOwnFiguresAndTheRestTheDefaults() {
        KeyQuota importer = new KeyQuota("importer");
        importer.setRequestsPerSecond(500.0);
        Quotas quotas = quotas(config(2, 3, 10), List.of(importer));
        assertThat(quotas.limitsOf("importer")).isEqualTo(new Limits(500, 3, 10));
        assertThat(quotas.limitsOf("ana-bot")).isEqualTo(new Limits(2, 3, 10));
    }

    @Test
    void switchedOffNothingIsCounted() {
        QuotaConfig off = config(1, 1, 1);
        off.setEnabled(false);
        Quotas quotas = quotas(off, List.of());
        for (int i = 0; i < 10; i++) {
            quotas.charge(ANA, Operation.CREATE_MEMORY);
        }
        assertThat(quotas.limitsOf("ana-bot").burst()).isEqualTo(1);
    }

    @Test
    void theWritesAreTheOperationsThatChangeSomething() {
        assertThat(Operation.CREATE_MEMORY.writes()).isTrue();
        assertThat(Operation.ISSUE_KEY.writes()).isTrue();
        assertThat(Operation.DELETE_MEMORY.writes()).isTrue();
        assertThat(Operation.GET_MEMORY.writes()).isFalse();
        assertThat(Operation.QUERY.writes()).as("a read sent by POST").isFalse();
        assertThat(Operation.PLAN_ROLLBACK.writes()).isFalse();
    }

    private Quotas quotas(QuotaConfig config, List<KeyQuota> keys) {
        Clock clock = Clock.fixed(Instant.parse("2026-11-28T18:00:00Z"), ZoneOffset.UTC);
        return new Quotas(config, keys, clock, nanos::get);
    }

    private static QuotaConfig config(double perSecond, int burst, long writesPerDay) {
        QuotaConfig config = new QuotaConfig();
        config.setRequestsPerSecond(perSecond);
        config.setBurst(burst);
        config.setWritesPerDay(writesPerDay);
        return config;
    }
}
