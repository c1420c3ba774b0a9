package io.memorychain.api.backend;

import io.micrometer.core.instrument.config.MeterFilter;
import io.micronaut.context.annotation.Factory;
import jakarta.inject.Named;
import jakarta.inject.Singleton;

/**
 * Kafka Streams names the store of its RocksDB metrics {@code rocksdb.state.id} for key-value stores but
 * {@code rocksdb.window.state.id} / {@code rocksdb.session.state.id} for window and session stores, under the same
 * metric names. Prometheus needs one set of tag keys per name, so without these filters the window stores' meters
 * (the sequencer's request-id store) are refused with a warning. Applied to every registry (Micronaut adds
 * {@link MeterFilter} beans).
 */
@Factory
public class StreamsMeterFilters {

    static final String STATE_METRICS = "kafka.stream.state";

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
