package io.memorychain.llm;

import java.time.Clock;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Tokens used per tenant per UTC day. In-process counters only: they start at zero when the process starts and are not
 * shared between processes, so N worker processes may together spend up to N times a tenant's budget, and a restart
 * forgets the day's spending. A call is refused when the tenant's used tokens are already {@code >=} the budget; a call
 * that is allowed may overshoot it by its own usage (it is charged what the server reports).
 */
public final class TokenBudget {

    private record Key(String tenant, LocalDate day) {}

    private final Clock clock;
    private final ConcurrentMap<Key, AtomicLong> used = new ConcurrentHashMap<>();

    public TokenBudget(Clock clock) {
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    /** Whether the tenant may make another call today under {@code dailyBudget} (0 = unlimited). */
    public boolean allows(String tenant, long dailyBudget) {
        return dailyBudget <= 0 || used(tenant) < dailyBudget;
    }

    /** Adds tokens to the tenant's count for today (UTC). */
    public void charge(String tenant, long tokens) {
        if (tokens <= 0) {
            return;
        }
        LocalDate today = today();
        used.computeIfAbsent(new Key(tenant, today), k -> new AtomicLong()).addAndGet(tokens);
        used.keySet().removeIf(key -> key.day().isBefore(today));
    }

    /** Tokens the tenant used today (UTC). */
    public long used(String tenant) {
        AtomicLong count = used.get(new Key(tenant, today()));
        return count == null ? 0 : count.get();
    }

    private LocalDate today() {
        return LocalDate.ofInstant(clock.instant(), ZoneOffset.UTC);
    }
}
