package io.memorychain.api.backend;

import io.memorychain.llm.UsageCounters;
import io.memorychain.projector.ops.OpsCounts;
import io.memorychain.projector.ops.OpsTotals;
import io.memorychain.projector.support.StreamsLag;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.streams.KafkaStreams;

/**
 * How the running chain is doing: its Streams applications, their failures and lags, the workers' figures, model usage,
 * the search indexes and the operational counts. A port of the running chain ({@link MemoryBackend}); a feature asks
 * for the narrowest it needs.
 */
public interface ChainStatus {

    /** The operational event counts of this instance (view-ops, docs/architecture.md §6); empty when not kept here. */
    default Optional<OpsCounts> opsCounts() {
        return Optional.empty();
    }

    /** Operational events counted by this process since it started, by node, op and status (memory_ops_total). */
    default OpsTotals opsTotals() {
        return new OpsTotals();
    }

    /** State of each Kafka Streams application by name ({@code sequencer}, {@code projection}), e.g. RUNNING. */
    Map<String, String> streamStates();

    /**
     * The recent stream-thread failures by application name (docs/architecture.md §19, "Faults"), each with its
     * {@code code} ({@code STORAGE_FULL}, {@code STATE_STORE_FAILURE}, {@code STREAM_THREAD_FAILED}), the {@code store}
     * it names (if any), {@code error}, {@code at} and {@code count}; empty when all is well. A failed thread is
     * replaced, so a persistent fault shows here while the states read RUNNING again.
     */
    default Map<String, Map<String, Object>> streamFailures() {
        return Map.of();
    }

    /**
     * Figures of the background workers running in this process, by name: a map (e.g. {@code lifecycle}: state, lag,
     * last_check_at, last_evaluated, requested_total; {@code tom}: state, lag, last_check_at, last_run_at, runs,
     * requested_total, ...) or, for a worker that is wanted but cannot run, why ({@code tom: "skipped: no model"});
     * empty when none runs here.
     */
    default Map<String, Object> workerFigures() {
        return Map.of();
    }

    /** LLM usage of this process's jobs by purpose (for {@code /prometheus}); empty when no job calls a model. */
    default UsageCounters llmUsage() {
        return new UsageCounters();
    }

    /**
     * The search indexes of this process's projection tasks (for {@code /prometheus}): {@code rebuilds} and
     * {@code reuses} since start, and {@code building_graphs}, the indexes building their HNSW graphs in the background
     * (kNN is exact and slower meanwhile); empty when this process holds no index.
     */
    default Map<String, Long> searchIndexFigures() {
        return Map.of();
    }

    /** The Kafka Streams applications of this process by name (their client metrics go to {@code /prometheus}). */
    default Map<String, KafkaStreams> streamsApplications() {
        return Map.of();
    }

    /** Records of each Streams application's input topics not yet consumed, by application name. */
    default Map<String, Long> streamsLags() {
        Map<String, Long> lags = new LinkedHashMap<>();
        streamsApplications().forEach((app, streams) -> lags.put(app, StreamsLag.of(streams)));
        return lags;
    }
}
