package io.memorychain.jobs.tom;

import java.time.Duration;
import java.util.Objects;

/**
 * Settings of the ToM insight job (docs/architecture.md §12).
 *
 * @param minItems new activity items (episodic or semantic memories) a thread needs before a run, 1..100 (default 3)
 * @param cooldown the skip: no run for a thread within this much chain time of its previous run (default 24 h)
 * @param maxTokens completion token cap of a run's model call, 1..220 (seed: maxTokens <= 220)
 */
public record TomSettings(int minItems, Duration cooldown, int maxTokens) {

    public static final int DEFAULT_MIN_ITEMS = 3;
    public static final Duration DEFAULT_COOLDOWN = Duration.ofHours(24);
    public static final int DEFAULT_MAX_TOKENS = 220;
    /** docs/architecture.md §12: at most this many insights per run, each at most {@link #MAX_CHARS} characters. */
    public static final int MAX_INSIGHTS = 3;

    public static final int MAX_CHARS = 280;
    /** Inputs: latest activity items (N <= 5), new semantic items (K <= 3), a conversation snippet (<= 1k chars). */
    public static final int MAX_ACTIVITY_ITEMS = 5;

    public static final int MAX_SEMANTIC_ITEMS = 3;
    public static final int MAX_SNIPPET_CHARS = 1000;
    /** Storage (docs/architecture.md §12): kind insight, this category, importance 2, not pinned. */
    public static final String CATEGORY = "relationship_dynamic";

    public static final int IMPORTANCE = 2;

    public TomSettings {
        Objects.requireNonNull(cooldown, "cooldown");
        if (minItems < 1 || minItems > 100) {
            throw new IllegalArgumentException("min-items must be in 1..100, not " + minItems);
        }
        if (cooldown.isNegative()) {
            throw new IllegalArgumentException("cooldown must not be negative");
        }
        if (maxTokens < 1 || maxTokens > DEFAULT_MAX_TOKENS) {
            throw new IllegalArgumentException("max-tokens must be in 1.." + DEFAULT_MAX_TOKENS + ", not " + maxTokens);
        }
    }

    public static TomSettings defaults() {
        return new TomSettings(DEFAULT_MIN_ITEMS, DEFAULT_COOLDOWN, DEFAULT_MAX_TOKENS);
    }
}
