package io.memorychain.client;

import java.time.Duration;

/**
 * How often and how long a call is retried: on 429 and 503 answers (honouring {@code Retry-After}), on timeouts and on
 * connections that break before an answer. A write keeps its Idempotency-Key across the attempts, so a retry never
 * applies it twice.
 *
 * @param maxAttempts attempts in all, the first included (1: no retry)
 * @param initialDelay the delay before the first retry when the answer names none; doubled after each attempt
 * @param maxDelay the longest wait between two attempts, a {@code Retry-After} included
 */
public record RetryPolicy(int maxAttempts, Duration initialDelay, Duration maxDelay) {

    public RetryPolicy {
        if (maxAttempts < 1) {
            throw new IllegalArgumentException("maxAttempts must be at least 1");
        }
    }

    /** Four attempts, 200 ms then doubling, at most 5 s apart. */
    public static RetryPolicy defaults() {
        return new RetryPolicy(4, Duration.ofMillis(200), Duration.ofSeconds(5));
    }

    public static RetryPolicy none() {
        return new RetryPolicy(1, Duration.ZERO, Duration.ZERO);
    }

    /** The wait before attempt {@code attempt + 1} (attempt counts from 1), given the answer's Retry-After seconds. */
    Duration delay(int attempt, Long retryAfterSeconds) {
        Duration d = retryAfterSeconds != null
                ? Duration.ofSeconds(retryAfterSeconds)
                : initialDelay.multipliedBy(1L << Math.min(attempt - 1, 16));
        return d.compareTo(maxDelay) > 0 ? maxDelay : d;
    }
}
