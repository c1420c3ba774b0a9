package io.memorychain.api.health;

import java.util.List;
import java.util.Map;

/**
 * One space's health as the console's health page shows it: metadata and figures only, never memory content.
 *
 * @param counts memories by facet (tier, state, decay, kind, category) -> value -> count
 * @param countedFrom the first seq the counters saw (1: the whole chain; higher: earlier events are not counted)
 * @param appliedSeq the highest seq this instance's views applied
 * @param days the last {@value SpaceHealth#DAYS} UTC days, oldest first
 * @param pending what waits for a person, by kind
 * @param chain the chain's status as this instance last verified it
 * @param workers each background worker: running (with its figures) or why it is skipped
 * @param lags records not yet consumed by each Streams application (sequencer, projection, embedder, ...)
 */
public record HealthReport(
        String space,
        Map<String, Map<String, Long>> counts,
        long countedFrom,
        long appliedSeq,
        List<Day> days,
        boolean opsKept,
        Map<String, Integer> pending,
        Chain chain,
        List<Worker> workers,
        Map<String, Long> lags,
        Map<String, String> streams) {

    /** What the chain did on one UTC day. */
    public record Day(String date, long created, long consolidations, long refinements, long reflections) {}

    /** The last verification this instance ran (null seq: none since it started) and the last checkpoint it signed. */
    public record Chain(
            Long verifiedSeq,
            Long verifiedEvents,
            String verifiedAt,
            Boolean ok,
            String problem,
            Long checkpointSeq,
            String checkpointHash,
            String checkpointKeyId,
            String checkpointAt) {}

    /** A worker: state running / skipped / a Streams state, with the reason when skipped and its figures. */
    public record Worker(String name, String state, String reason, Map<String, String> figures) {}

    /** The counts of one facet, value -> count, in name order (empty when none). */
    public Map<String, Long> of(String facet) {
        return counts.getOrDefault(facet, Map.of());
    }

    public long total() {
        return of("state").values().stream().mapToLong(Long::longValue).sum();
    }

    public boolean complete() {
        return countedFrom <= 1;
    }

    /** Ingest lag: requests the sequencer has not yet ordered plus events the projection has not yet applied. */
    public long ingestLag() {
        return lags.getOrDefault("sequencer", 0L) + lags.getOrDefault("projection", 0L);
    }

    /** Embedding lag: events the embedder has not yet embedded (null when no embedder runs here). */
    public Long embeddingLag() {
        return lags.get("embedder");
    }
}
