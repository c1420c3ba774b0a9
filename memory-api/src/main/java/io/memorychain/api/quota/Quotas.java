package io.memorychain.api.quota;

import io.memorychain.api.auth.Operation;
import io.memorychain.api.auth.Principal;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;
import java.util.stream.Collectors;

/**
 * The quotas of {@link QuotaConfig}, checked by every transport once it knows the caller: the REST filter, the gRPC
 * interceptor, and the MCP tools for the writes a tool call makes. One bucket and one day count per key name, in memory
 * (a handful of longs per key; keys are few).
 */
@Singleton
public class Quotas {

    private final boolean enabled;
    private final Limits defaults;
    private final Map<String, Limits> perKey;
    private final Clock clock;
    private final LongSupplier nanos;
    private final Map<String, Bucket> buckets = new ConcurrentHashMap<>();
    private final Map<String, DayCount> writes = new ConcurrentHashMap<>();

    @Inject
    public Quotas(QuotaConfig config, List<KeyQuota> keys) {
        this(config, keys, Clock.systemUTC(), System::nanoTime);
    }

    Quotas(QuotaConfig config, List<KeyQuota> keys, Clock clock, LongSupplier nanos) {
        this.enabled = config.isEnabled();
        this.defaults = config.limits();
        this.perKey = keys.stream().collect(Collectors.toUnmodifiableMap(KeyQuota::getName, k -> k.over(defaults)));
        this.clock = clock;
        this.nanos = nanos;
    }

    /**
     * Charges one call of {@code operation} (null: a call that is no catalogue operation, such as an MCP session's own
     * messages) to the caller's key.
     *
     * @throws QuotaExceededException past the key's rate, or for a write past its day's budget
     */
    public void charge(Principal caller, Operation operation) {
        if (!enabled) {
            return;
        }
        Limits limits = perKey.getOrDefault(caller.id(), defaults);
        long waitNanos = buckets.computeIfAbsent(caller.id(), k -> new Bucket(limits, nanos.getAsLong()))
                .take(nanos.getAsLong());
        if (waitNanos > 0) {
            throw new QuotaExceededException(
                    "the key of " + caller.id() + " sent more than " + limits.requestsPerSecond()
                            + " requests a second (bursts up to " + limits.burst() + ")",
                    seconds(waitNanos));
        }
        if (operation != null && operation.writes()) {
            chargeWrite(caller, limits);
        }
    }

    /** Charges a write alone (an MCP tool call, whose request was charged when it arrived). */
    public void chargeWrite(Principal caller, Operation operation) {
        if (enabled && operation.writes()) {
            chargeWrite(caller, perKey.getOrDefault(caller.id(), defaults));
        }
    }

    private void chargeWrite(Principal caller, Limits limits) {
        if (limits.writesPerDay() == 0) {
            return;
        }
        Instant now = clock.instant();
        LocalDate today = LocalDate.ofInstant(now, ZoneOffset.UTC);
        DayCount count = writes.compute(
                caller.id(),
                (k, c) -> c == null || !c.day().equals(today)
                        ? new DayCount(today, 1)
                        : new DayCount(today, c.count() + 1));
        if (count.count() > limits.writesPerDay()) {
            Duration toMidnight = Duration.between(
                    now, today.plusDays(1).atStartOfDay(ZoneOffset.UTC).toInstant());
            throw new QuotaExceededException(
                    "the key of " + caller.id() + " has made its " + limits.writesPerDay() + " writes of today (UTC)",
                    Math.max(1, toMidnight.toSeconds() + 1));
        }
    }

    private static long seconds(long nanos) {
        return Math.max(1, (nanos + 999_999_999L) / 1_000_000_000L);
    }

    private record DayCount(LocalDate day, long count) {}

    /**
     * A token bucket: {@code burst} tokens, refilled at the key's rate; a call takes one or learns how long to wait.
     */
    private static final class Bucket {
        private final double perNano;
        private final double capacity;
        private double tokens;
        private long at;

        Bucket(Limits limits, long now) {
            this.perNano = limits.requestsPerSecond() / 1e9;
            this.capacity = limits.burst();
            this.tokens = capacity;
            this.at = now;
        }

        synchronized long take(long now) {
            tokens = Math.min(capacity, tokens + (now - at) * perNano);
            at = now;
            if (tokens >= 1) {
                tokens -= 1;
                return 0;
            }
            return (long) Math.ceil((1 - tokens) / perNano);
        }
    }

    /** For tests: the figures a key gets. */
    Limits limitsOf(String keyName) {
        return perKey.getOrDefault(keyName, defaults);
    }
}
