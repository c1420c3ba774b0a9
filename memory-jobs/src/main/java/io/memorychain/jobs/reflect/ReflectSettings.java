package io.memorychain.jobs.reflect;

import java.time.Duration;
import java.util.Objects;
import java.util.Set;

/**
 * Settings of the reflection job (docs/architecture.md §18).
 *
 * @param interval the schedule: a space with unprocessed episodes reflects at most once per this much chain time (P1D)
 * @param threshold this many unprocessed episodes trigger a reflection (20)
 * @param sessionIdle a thread whose last unprocessed episode is this much chain time older than the space's latest
 *     event has ended its session (PT30M)
 * @param retryAfter after a run that proposed nothing (model failure), no trigger for this much chain time (PT1H); the
 *     manual request that run answered is not retried (ask again)
 * @param outputTokenCap completion tokens of all phases of one reflection together (8,000)
 * @param maxEpisodes the most recent unprocessed episodes one reflection reads (50)
 * @param maxMemories the most recently written other active memories it reads (100)
 * @param blockLabels the core blocks a reflection may rewrite (the sequencer's configured labels)
 */
public record ReflectSettings(
        Duration interval,
        int threshold,
        Duration sessionIdle,
        Duration retryAfter,
        int outputTokenCap,
        int maxEpisodes,
        int maxMemories,
        Set<String> blockLabels) {

    public static final Duration DEFAULT_INTERVAL = Duration.ofDays(1);
    public static final int DEFAULT_THRESHOLD = 20;
    public static final Duration DEFAULT_SESSION_IDLE = Duration.ofMinutes(30);
    public static final Duration DEFAULT_RETRY_AFTER = Duration.ofHours(1);
    /** Seed 001 §10.2: each cycle is capped at 8,000 tokens of output. */
    public static final int DEFAULT_OUTPUT_TOKEN_CAP = 8_000;

    public static final int DEFAULT_MAX_EPISODES = 50;
    public static final int DEFAULT_MAX_MEMORIES = 100;
    public static final Set<String> DEFAULT_BLOCK_LABELS =
            Set.of("persona", "user_profile", "goals", "knowledge", "critical");

    public ReflectSettings {
        Objects.requireNonNull(interval, "interval");
        Objects.requireNonNull(sessionIdle, "sessionIdle");
        Objects.requireNonNull(retryAfter, "retryAfter");
        blockLabels = Set.copyOf(blockLabels);
        if (interval.isNegative()
                || interval.isZero()
                || sessionIdle.isNegative()
                || sessionIdle.isZero()
                || retryAfter.isNegative()) {
            throw new IllegalArgumentException("interval and session-idle must be positive, retry-after >= 0");
        }
        if (threshold < 1 || outputTokenCap < 100 || outputTokenCap > 100_000 || maxEpisodes < 1 || maxMemories < 0) {
            throw new IllegalArgumentException(
                    "need threshold >= 1, output-token-cap in 100..100000, " + "max-episodes >= 1, max-memories >= 0");
        }
    }

    public static ReflectSettings defaults() {
        return new ReflectSettings(
                DEFAULT_INTERVAL,
                DEFAULT_THRESHOLD,
                DEFAULT_SESSION_IDLE,
                DEFAULT_RETRY_AFTER,
                DEFAULT_OUTPUT_TOKEN_CAP,
                DEFAULT_MAX_EPISODES,
                DEFAULT_MAX_MEMORIES,
                DEFAULT_BLOCK_LABELS);
    }

    public ReflectSettings withThreshold(int value) {
        return new ReflectSettings(
                interval, value, sessionIdle, retryAfter, outputTokenCap, maxEpisodes, maxMemories, blockLabels);
    }

    public ReflectSettings withOutputTokenCap(int value) {
        return new ReflectSettings(
                interval, threshold, sessionIdle, retryAfter, value, maxEpisodes, maxMemories, blockLabels);
    }
}
