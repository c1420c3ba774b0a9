package io.memorychain.projector.retrieval;

import io.memorychain.avro.Confidence;
import io.memorychain.avro.Memory;
import io.memorychain.avro.MemoryKind;
import io.memorychain.avro.Tier;
import io.memorychain.domain.Evolver;
import java.time.Duration;
import java.time.Instant;

/**
 * The decay model of docs/architecture.md §7: {@code relevance = base_relevance * e^(-lambda * days_since_last_access)
 * * log2(access_count + 1) * type_weight}. Used twice: by the lifecycle worker, which records status transitions on the
 * chain ({@code DecayTransitioned}), and at query time to rank (never to hide: what is hidden follows the chain's
 * events, see QueryService).
 *
 * <p>Choices where the seed is silent:
 *
 * <ul>
 *   <li>Writing a memory counts as its first access, so a memory nobody has read yet has {@code access_count = 1} (the
 *       seed's formula gives a fresh, never-read memory a score of 0, i.e. archived at birth).
 *   <li>Without an access, "last access" is the memory's decay clock ({@code Evolver.decayClock}: the chain time of its
 *       last reinforcing write, never its imported {@code created_at}; decay transitions do not move it).
 *   <li>{@code base_relevance} follows the writer's confidence: HIGH 1.0 (explicit "remember"), MEDIUM 0.7
 *       (auto-detected), LOW 0.5 (inferred).
 *   <li>Type weights: core tier (and blocks) 1.5, episodic 0.8, semantic 1.2, procedural 1.0, other kinds 1.0; pinned
 *       memories never decay (score +infinity, always ACTIVE).
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

        /** The status the chain recorded (DecayTransitioned events); pinned memories are always ACTIVE. */
        public static Status of(Memory memory) {
            if (memory.getPinned()) {
                return ACTIVE;
            }
            return valueOf(memory.getDecayStatus().name());
        }

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
     * @param lastAccessed last time the memory was returned to a caller, or null if never
     * @param accessCount how many times it was returned
     * @param now the query time
     */
    public double score(Memory memory, Instant lastAccessed, long accessCount, Instant now) {
        if (memory.getPinned()) {
            return Double.POSITIVE_INFINITY;
        }
        Instant last = lastAccess(memory, lastAccessed);
        return score(memory, days(last, now), accessCount);
    }

    /** The score from the days since the last access (see {@link #lastAccess}). */
    public double score(Memory memory, double daysSinceLastAccess, long accessCount) {
        if (memory.getPinned()) {
            return Double.POSITIVE_INFINITY;
        }
        double accesses = Math.max(0, accessCount) + 1; // the write itself is the first access
        return baseRelevance(memory.getConfidence())
                * Math.exp(-lambda * daysSinceLastAccess)
                * log2(accesses + 1)
                * typeWeight(memory);
    }

    /** The later of the memory's decay clock and its last read. */
    public static Instant lastAccess(Memory memory, Instant lastAccessed) {
        Instant clock = Evolver.decayClock(memory);
        return lastAccessed != null && lastAccessed.isAfter(clock) ? lastAccessed : clock;
    }

    public static double days(Instant from, Instant to) {
        return Math.max(0, Duration.between(from, to).toMillis() / 86_400_000.0);
    }

    public double lambda() {
        return lambda;
    }

    public Status status(Memory memory, Instant lastAccessed, long accessCount, Instant now) {
        return Status.of(score(memory, lastAccessed, accessCount, now));
    }

    public static double baseRelevance(Confidence confidence) {
        return switch (confidence) {
            case HIGH -> 1.0;
            case MEDIUM -> 0.7;
            case LOW -> 0.5;
        };
    }

    public static double typeWeight(Memory memory) {
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
