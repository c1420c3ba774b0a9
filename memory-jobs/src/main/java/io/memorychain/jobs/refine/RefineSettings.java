package io.memorychain.jobs.refine;

import java.time.Duration;
import java.util.Objects;

/**
 * Settings of the refinement agent job (docs/architecture.md §9, "Run by the system").
 *
 * @param maxSteps model calls per session run, 1..200 (each call proposes one action)
 * @param maxTokens tokens (prompt + completion) a session run may spend over all its calls
 * @param stepMaxTokens completion token cap of one call, 16..4000
 * @param timeout a session open longer than this (wall clock of the job against the session's start) is closed
 * @param allowProtect whether the agent is offered protect_memory at all (the sequencer still decides)
 */
public record RefineSettings(int maxSteps, int maxTokens, int stepMaxTokens, Duration timeout, boolean allowProtect) {

    public static final int DEFAULT_MAX_STEPS = 20;
    public static final int DEFAULT_MAX_TOKENS = 60_000;
    public static final int DEFAULT_STEP_MAX_TOKENS = 600;
    public static final Duration DEFAULT_TIMEOUT = Duration.ofHours(2);
    /** The actor id the job writes as ({@code worker:refinement-agent}). */
    public static final String ACTOR = "refinement-agent";
    /** The actor id of a close on timeout ({@code worker:refinement-timeout}). */
    public static final String TIMEOUT_ACTOR = "refinement-timeout";

    public RefineSettings {
        Objects.requireNonNull(timeout, "timeout");
        if (maxSteps < 1 || maxSteps > 200) {
            throw new IllegalArgumentException("max-steps must be in 1..200, not " + maxSteps);
        }
        if (maxTokens < 100) {
            throw new IllegalArgumentException("max-tokens must be at least 100, not " + maxTokens);
        }
        if (stepMaxTokens < 16 || stepMaxTokens > 4000) {
            throw new IllegalArgumentException("step-max-tokens must be in 16..4000, not " + stepMaxTokens);
        }
        if (timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("timeout must be positive");
        }
    }

    public static RefineSettings defaults() {
        return new RefineSettings(
                DEFAULT_MAX_STEPS, DEFAULT_MAX_TOKENS, DEFAULT_STEP_MAX_TOKENS, DEFAULT_TIMEOUT, true);
    }
}
