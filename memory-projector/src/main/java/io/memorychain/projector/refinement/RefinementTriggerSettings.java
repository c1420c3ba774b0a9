package io.memorychain.projector.refinement;

import io.memorychain.domain.Rules;
import java.time.Duration;

/**
 * When the refinement trigger (docs/architecture.md §9) starts sessions.
 *
 * @param thresholdTokens a space whose core memory grows over this many tokens gets a TOKEN_BUDGET session
 * @param targetTokens the budget the sessions it starts ask the agent to reach
 * @param schedule a space without a session for this long (since its last start, or since its first event) gets a
 *     SCHEDULE session; null turns the schedule off
 * @param checkInterval how often the schedule is checked (wall-clock punctuation)
 * @param pendingTimeout a start this worker published and never saw the result of is forgotten after this long, so the
 *     space can be triggered again
 */
public record RefinementTriggerSettings(
        int thresholdTokens, int targetTokens, Duration schedule, Duration checkInterval, Duration pendingTimeout) {

    public static final int DEFAULT_THRESHOLD_TOKENS = 8_000;
    public static final int DEFAULT_TARGET_TOKENS = Rules.DEFAULT_TARGET_TOKENS;
    public static final Duration DEFAULT_SCHEDULE = Duration.ofDays(7);
    public static final Duration DEFAULT_CHECK_INTERVAL = Duration.ofMinutes(1);
    public static final Duration DEFAULT_PENDING_TIMEOUT = Duration.ofMinutes(10);

    public RefinementTriggerSettings {
        if (thresholdTokens < 1) {
            throw new IllegalArgumentException("thresholdTokens must be positive, was " + thresholdTokens);
        }
        if (targetTokens < 1 || targetTokens > 1_000_000) {
            throw new IllegalArgumentException("targetTokens must be in 1..1000000, was " + targetTokens);
        }
        if (schedule != null && schedule.toMinutes() < 1) {
            throw new IllegalArgumentException("schedule must be at least a minute (or off), was " + schedule);
        }
        if (checkInterval == null || checkInterval.toMillis() < 10) {
            throw new IllegalArgumentException("checkInterval must be at least 10 ms, was " + checkInterval);
        }
        if (pendingTimeout == null || pendingTimeout.isNegative() || pendingTimeout.isZero()) {
            throw new IllegalArgumentException("pendingTimeout must be positive, was " + pendingTimeout);
        }
    }

    /** 8,000 tokens, target 5,000, weekly, checked every minute. */
    public static RefinementTriggerSettings defaults() {
        return new RefinementTriggerSettings(
                DEFAULT_THRESHOLD_TOKENS,
                DEFAULT_TARGET_TOKENS,
                DEFAULT_SCHEDULE,
                DEFAULT_CHECK_INTERVAL,
                DEFAULT_PENDING_TIMEOUT);
    }
}
