package io.memorychain.api.backend;

import io.micrometer.core.instrument.config.MeterFilter;
import io.micronaut.context.annotation.Factory;
import jakarta.inject.Named;
import jakarta.inject.Singleton;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Kafka Streams names the store of its RocksDB metrics {@code rocksdb.state.id} for key-value stores but
 * {@code rocksdb.window.state.id} / {@code rocksdb.session.state.id} for window and session stores, under the same
 * metric names. Prometheus needs one set of tag keys per name, so without these filters the window stores' meters (the
 * sequencer's request-id store) are refused with a warning. Applied to every registry (Micronaut adds
 * {@link MeterFilter} beans).
 *
 * <p>Of the ~20 RocksDB figures Streams reports per store and task, only {@link #STATE_FIGURES} are kept: the others
 * (memtable entry and delete counts, flush and version counters, ...) made 11,680 of the 16,777 series of a scrape of
 * the embedded service, each a meter on the heap (docs/benchmarks.md, "Memory of the embedded service").
 */
@Factory
class StreamsMeterFilters {

    static final String STATE_METRICS = "kafka.stream.state";

    /** The RocksDB figures kept per store: memory, size on disk, keys, compaction backlog and errors. */
    static final Set<String> STATE_FIGURES = Set.of(
            "size-all-mem-tables",
            "block-cache-usage",
            "block-cache-pinned-usage",
            "estimate-table-readers-mem",
            "total-sst-files-size",
            "live-sst-files-size",
            "estimate-num-keys",
            "estimate-pending-compaction-bytes",
            "num-running-compactions",
            "background-errors");

    @Singleton
    @Named("rocksdb-figures")
    MeterFilter rocksDbFigures() {
        Set<String> kept = STATE_FIGURES.stream()
                .map(f -> STATE_METRICS + "." + f.replace('-', '.'))
                .collect(Collectors.toSet());
        return MeterFilter.deny(id -> id.getName().startsWith(STATE_METRICS + ".") && !kept.contains(id.getName()));
    }

    @Singleton
    @Named("rocksdb-window-store-tag")
    MeterFilter windowStoreTag() {
        return MeterFilter.renameTag(STATE_METRICS, "rocksdb.window.state.id", "rocksdb.state.id");
    }

    @Singleton
    @Named("rocksdb-session-store-tag")
    MeterFilter sessionStoreTag() {
        return MeterFilter.renameTag(STATE_METRICS, "rocksdb.session.state.id", "rocksdb.state.id");
    }
}
