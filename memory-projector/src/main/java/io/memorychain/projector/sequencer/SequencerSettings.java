package io.memorychain.projector.sequencer;

import io.memorychain.projector.retrieval.CategoryPolicy;
import java.time.Duration;
import java.util.Objects;
import java.util.Set;

/**
 * Limits and vocabulary the sequencer enforces.
 *
 * @param maxContentBytes        largest content (UTF-8 bytes) of a memory or block; larger is TOO_LARGE
 * @param blockLabels            the block labels that exist; others are UNKNOWN_BLOCK_LABEL
 * @param maxConsolidationInputs most memories one consolidation may supersede
 * @param requestIdRetention     how long a request id is remembered for idempotent retries (by request timestamps);
 *                               a retry after that is a new request. Default 7 days, the requests topic's retention
 * @param categories             categories and per-agent allowlists; an agent or sub-agent writing outside its allowlist
 *                               is CATEGORY_NOT_ALLOWED. Default {@link CategoryPolicy#unrestricted()}
 */
public record SequencerSettings(int maxContentBytes, Set<String> blockLabels, int maxConsolidationInputs,
                                Duration requestIdRetention, CategoryPolicy categories) {

    public static final int DEFAULT_MAX_CONTENT_BYTES = 32 * 1024;
    public static final Duration DEFAULT_REQUEST_ID_RETENTION = Duration.ofDays(7);
    public static final Set<String> DEFAULT_BLOCK_LABELS =
            Set.of("persona", "user_profile", "goals", "knowledge", "critical");

    public SequencerSettings {
        if (maxContentBytes < 1) {
            throw new IllegalArgumentException("maxContentBytes must be positive");
        }
        if (blockLabels == null || blockLabels.isEmpty()) {
            throw new IllegalArgumentException("at least one block label is required");
        }
        if (maxConsolidationInputs < 1) {
            throw new IllegalArgumentException("maxConsolidationInputs must be positive");
        }
        if (requestIdRetention == null || requestIdRetention.toMinutes() < 1) {
            throw new IllegalArgumentException("requestIdRetention must be at least a minute");
        }
        Objects.requireNonNull(categories, "categories (CategoryPolicy.unrestricted() for none)");
        blockLabels = Set.copyOf(blockLabels);
    }

    /** Without category allowlists. */
    public SequencerSettings(int maxContentBytes, Set<String> blockLabels, int maxConsolidationInputs,
                             Duration requestIdRetention) {
        this(maxContentBytes, blockLabels, maxConsolidationInputs, requestIdRetention, CategoryPolicy.unrestricted());
    }

    /** With the default request id retention. */
    public SequencerSettings(int maxContentBytes, Set<String> blockLabels, int maxConsolidationInputs) {
        this(maxContentBytes, blockLabels, maxConsolidationInputs, DEFAULT_REQUEST_ID_RETENTION);
    }

    /** The same settings, enforcing these categories and allowlists. */
    public SequencerSettings withCategories(CategoryPolicy policy) {
        return new SequencerSettings(maxContentBytes, blockLabels, maxConsolidationInputs, requestIdRetention, policy);
    }

    public static SequencerSettings defaults() {
        return new SequencerSettings(DEFAULT_MAX_CONTENT_BYTES, DEFAULT_BLOCK_LABELS, 100);
    }
}
