package io.memorychain.projector.retrieval;

import io.memorychain.avro.Confidence;
import io.memorychain.avro.Memory;
import io.memorychain.avro.MemoryKind;
import io.memorychain.avro.Tier;
import java.time.Duration;
import java.time.Instant;

/**
 * The decay model of docs/architecture.md §7, computed at query time from stored timestamps (never inside a projection):
 * {@code relevance = base_relevance * e^(-lambda * days_since_last_access) * log2(access_count + 1) * type_weight}.
 *
 * <p>Choices where the seed is silent:
 * <ul>
 *   <li>Writing a memory counts as its first access, so a memory nobody has read yet has {@code access_count = 1}
 *       (the seed's formula gives a fresh, never-read memory a score of 0, i.e. archived at birth).</li>
 *   <li>Without an access, "last access" is the memory's last update.</li>
 *   <li>{@code base_relevance} follows the writer's confidence: HIGH 1.0 (explicit "remember"), MEDIUM 0.7
 *       (auto-detected), LOW 0.5 (inferred).</li>
 *   <li>Type weights: core tier (and blocks) 1.5, episodic 0.8, semantic 1.2, procedural 1.0, other kinds 1.0;
 *       pinned memories never decay (score +infinity, always ACTIVE).</li>
 * </ul>
 */
public final class DecayModel {

    /** Recommended decay rate: half-life of about 23 days. */
    public static final double DEFAULT_LAMBDA = 0.03;

    private final double lambda;

    public DecayModel(double lambda) {
        if (!(lambda >= 0)) {
            throw new IllegalArgumentException("lambda must be >= 0, was " + lambda);
        }
        this.lambda = lambda;
    }

    public static DecayModel standard() {
        return new DecayModel(DEFAULT_LAMBDA);
    }

    /** Decay status thresholds (docs/architecture.md §7). */
    public enum Status {
        /** score >= 0.5: fully searchable, normal ranking. */
        ACTIVE,
        /** 0.2 <= score < 0.5: searchable but deprioritized. */
        FADING,
        /** 0.05 <= score < 0.2: only returned when asked for explicitly. */
        DORMANT,
        /** score < 0.05: hidden from search, flagged for review at the next consolidation. */
        ARCHIVED;

        public static Status of(double score) {
            if (score >= 0.5) {
                return ACTIVE;
            }
            if (score >= 0.2) {
                return FADING;
            }
            return score >= 0.05 ? DORMANT : ARCHIVED;
        }
    }

    /**
     * @param lastAccessed  last time the memory was returned to a caller, or null if never
     * @param accessCount   how many times it was returned
     * @param now           the query time
     */
    public double score(Memory memory, Instant lastAccessed, long accessCount, Instant now) {
        if (memory.getPinned()) {
            return Double.POSITIVE_INFINITY;
        }
        Instant last = lastAccessed != null && lastAccessed.isAfter(memory.getUpdatedAt())
                ? lastAccessed : memory.getUpdatedAt();
        double days = Math.max(0, Duration.between(last, now).toMillis() / 86_400_000.0);
        double accesses = Math.max(0, accessCount) + 1; // the write itself is the first access
        return baseRelevance(memory.getConfidence()) * Math.exp(-lambda * days) * log2(accesses + 1)
                * typeWeight(memory);
    }

    public Status status(Memory memory, Instant lastAccessed, long accessCount, Instant now) {
        return Status.of(score(memory, lastAccessed, accessCount, now));
    }

    static double baseRelevance(Confidence confidence) {
        return switch (confidence) {
            case HIGH -> 1.0;
            case MEDIUM -> 0.7;
            case LOW -> 0.5;
        };
    }

    static double typeWeight(Memory memory) {
        if (memory.getTier() == Tier.CORE || memory.getKind() == MemoryKind.BLOCK) {
            return 1.5;
        }
        return switch (memory.getKind()) {
            case EPISODIC -> 0.8;
            case SEMANTIC -> 1.2;
            default -> 1.0;
        };
    }

    private static double log2(double x) {
        return Math.log(x) / Math.log(2);
    }
}
