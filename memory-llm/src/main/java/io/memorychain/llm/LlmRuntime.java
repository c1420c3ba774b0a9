package io.memorychain.llm;

import java.time.Clock;
import java.util.Objects;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.DoubleSupplier;

/**
 * What every model of a process shares: the token budget, the usage listener, the sleeper between attempts and the
 * jitter source (values in [0, 1)). Tests inject a recording sleeper and a fixed jitter.
 */
public record LlmRuntime(TokenBudget budget, UsageListener usage, Sleeper sleeper, DoubleSupplier jitter) {

    public LlmRuntime {
        Objects.requireNonNull(budget, "budget");
        Objects.requireNonNull(usage, "usage");
        Objects.requireNonNull(sleeper, "sleeper");
        Objects.requireNonNull(jitter, "jitter");
    }

    /** Real waits, random jitter, UTC system clock for the budget days. */
    public static LlmRuntime standard(UsageListener usage) {
        return new LlmRuntime(
                new TokenBudget(Clock.systemUTC()),
                usage,
                Sleeper.REAL,
                () -> ThreadLocalRandom.current().nextDouble());
    }
}
