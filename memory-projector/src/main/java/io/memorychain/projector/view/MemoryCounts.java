package io.memorychain.projector.view;

import java.util.Map;

/**
 * How many memories of a space stand in each tier, state, decay status, kind and category (every memory the chain
 * created, in whatever state: an erased or purged memory counts under its state), from the projection's maintained
 * counters.
 *
 * @param byFacet facet (tier, state, decay, kind, category) -> value -> count, values in name order
 * @param countedFrom the first seq of the space the counters saw: 1 when they cover the whole chain, higher when the
 *     counters were added to a projection that had applied earlier events (those are not counted), 0 when the space has
 *     no event yet
 */
public record MemoryCounts(Map<String, Map<String, Long>> byFacet, long countedFrom) {

    public static final MemoryCounts NONE = new MemoryCounts(Map.of(), 0);

    /** The counts of one facet (empty when none). */
    public Map<String, Long> of(String facet) {
        return byFacet.getOrDefault(facet, Map.of());
    }

    /** Whether every event of the space was counted. */
    public boolean complete() {
        return countedFrom <= 1;
    }

    /** Memories the chain created (the sum over the states). */
    public long total() {
        return of("state").values().stream().mapToLong(Long::longValue).sum();
    }
}
