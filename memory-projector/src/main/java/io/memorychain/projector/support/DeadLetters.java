package io.memorychain.projector.support;

import io.memorychain.events.DeadLetterHeaders;
import io.memorychain.events.registry.SchemaRegistryUnavailableException;
import io.memorychain.events.serde.AvroWireSerde;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.streams.errors.InvalidStateStoreException;
import org.apache.kafka.streams.errors.ProcessorStateException;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.processor.api.RecordMetadata;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Setting a bad record aside in a Streams application, with {@link DeadLetterHeaders}: it never stops a partition. */
public final class DeadLetters {

    private static final Logger log = LoggerFactory.getLogger(DeadLetters.class);

    private DeadLetters() {}

    /**
     * The record's value decoded, or null after the record was forwarded to {@code sink} with its coordinates (a bad
     * record never stops the partition). A registry outage is not the record's fault: it propagates, the task fails and
     * the record is retried.
     */
    public static <T extends SpecificRecord> T decodeOrSetAside(
            AvroWireSerde<T> serde,
            Record<byte[], byte[]> record,
            ProcessorContext<Object, Object> context,
            String sink,
            String stage) {
        RecordMetadata source = context.recordMetadata().orElseThrow();
        try {
            return serde.deserialize(source.topic(), record.value());
        } catch (SchemaRegistryUnavailableException e) {
            throw e;
        } catch (RuntimeException e) {
            log.error(
                    "Undecodable record at {} ({}): {}; moved to the dead-letter topic",
                    coordinates(source),
                    stage,
                    e.toString());
            context.forward(record(record, source, stage, e), sink);
            return null;
        }
    }

    /**
     * Rethrows {@code e} when a state store failed (a full disk, a broken or closed RocksDB store): that is not the
     * record's fault, so it must not be set aside and marked done. The task fails, exactly-once aborts its transaction
     * (store writes included), the replaced thread restores the stores and processes the record again
     * (docs/architecture.md §19, "Faults").
     */
    public static void rethrowIfStoreFailure(RuntimeException e) {
        if (e instanceof ProcessorStateException || e instanceof InvalidStateStoreException) {
            throw e;
        }
    }

    /** The dead-letter record for a source record: the original key and value, the coordinates and error in headers. */
    public static Record<Object, Object> record(
            Record<byte[], byte[]> record, RecordMetadata source, String stage, Throwable error) {
        return new Record<>(
                record.key(), record.value(), record.timestamp(), headers(record.headers(), source, stage, error));
    }

    static Headers headers(Headers original, RecordMetadata source, String stage, Throwable error) {
        return DeadLetterHeaders.with(original, source.topic(), source.partition(), source.offset(), stage, error);
    }

    public static String coordinates(RecordMetadata m) {
        return m.topic() + "-" + m.partition() + "@" + m.offset();
    }
}
