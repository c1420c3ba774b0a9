package io.memorychain.projector.support;

import static org.assertj.core.api.Assertions.assertThat;

import io.memorychain.projector.MovableClock;
import java.time.Duration;
import java.time.Instant;
import org.apache.kafka.streams.errors.ProcessorStateException;
import org.apache.kafka.streams.errors.StreamsException;
import org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse;
import org.junit.jupiter.api.Test;
import org.rocksdb.RocksDBException;

class StreamFailuresTest {

    private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

    private static RuntimeException fullDisk(String store) {
        ProcessorStateException state = new ProcessorStateException(
                "Error while putting key/value into store " + store,
                new RocksDBException("Max allowed space was reached"));
        return new StreamsException(
                "Exception caught in process. taskId=0_1, processor=projection, topic=t.events, "
                        + "partition=1, offset=7",
                state);
    }

    @Test
    void aFullDiskUnderAStoreIsStorageFullNamingTheStoreAndTheInnermostError() {
        StreamFailures.Failure f = StreamFailures.classify(fullDisk("view-memories"), T0, 1);

        assertThat(f.code()).isEqualTo(StreamFailures.STORAGE_FULL);
        assertThat(f.store()).isEqualTo("view-memories");
        assertThat(f.error()).isEqualTo("RocksDBException: Max allowed space was reached");
        assertThat(f.details())
                .containsEntry("code", "STORAGE_FULL")
                .containsEntry("store", "view-memories")
                .containsEntry("at", "2026-01-01T00:00:00Z")
                .containsEntry("count", 1L);
    }

    @Test
    void anotherRocksDbErrorIsAStateStoreFailureAndAnythingElseAThreadFailureWithoutStore() {
        StreamFailures.Failure corrupt = StreamFailures.classify(
                new ProcessorStateException(
                        "Error while getting value for key from store sequencer-heads",
                        new RocksDBException("Corruption: block checksum mismatch")),
                T0,
                1);
        StreamFailures.Failure other = StreamFailures.classify(new IllegalStateException("the store was fine"), T0, 1);

        assertThat(corrupt.code()).isEqualTo(StreamFailures.STATE_STORE_FAILURE);
        assertThat(corrupt.store()).isEqualTo("sequencer-heads");
        assertThat(other.code()).isEqualTo(StreamFailures.STREAM_THREAD_FAILED);
        assertThat(other.store()).isNull();
        assertThat(other.details()).doesNotContainKey("store");
    }

    @Test
    void aFailureIsCurrentForTheWindowAfterItsLastOccurrenceAndCounted() {
        MovableClock clock = new MovableClock(T0);
        StreamFailures failures = new StreamFailures(clock, Duration.ofSeconds(60));
        assertThat(failures.current()).isEmpty();

        assertThat(failures.handler("projection").handle(fullDisk("view-memories")))
                .isEqualTo(StreamThreadExceptionResponse.REPLACE_THREAD);
        clock.now = T0.plusSeconds(50);
        failures.record("projection", fullDisk("view-memories"));
        clock.now = T0.plusSeconds(100);

        assertThat(failures.current()).containsOnlyKeys("projection");
        assertThat(failures.current().get("projection").count()).isEqualTo(2);
        clock.now = T0.plusSeconds(111);
        assertThat(failures.current()).as("60 s after the last failure").isEmpty();
    }
}
