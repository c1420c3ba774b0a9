package io.memorychain.projector.projection;

import io.memorychain.events.registry.SchemaRegistryUnavailableException;
import io.memorychain.events.serde.AvroWireSerde;
import io.memorychain.projector.support.DeadLetters;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.processor.api.RecordMetadata;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Decodes a source record of the projection, or sets it aside on the dead-letter topic with its coordinates so that a
 * bad record never stops the partition. A registry outage is not the record's fault: it propagates, the task fails, the
 * thread is replaced and the record retried.
 */
final class RecordDecoder<T extends SpecificRecord> {

    private static final Logger log = LoggerFactory.getLogger(RecordDecoder.class);

    private final AvroWireSerde<T> serde;

    RecordDecoder(AvroWireSerde<T> serde) {
        this.serde = serde;
    }

    /** The decoded value, or null when the record went to the dead-letter topic. */
    T decode(Record<byte[], byte[]> record, ProcessorContext<Object, Object> context) {
        RecordMetadata source = context.recordMetadata().orElseThrow();
        try {
            return serde.deserialize(source.topic(), record.value());
        } catch (SchemaRegistryUnavailableException e) {
            throw e;
        } catch (RuntimeException e) {
            log.error(
                    "Undecodable record at {}: {}; moved to the dead-letter topic",
                    DeadLetters.coordinates(source),
                    e.toString());
            deadLetter(record, context, e);
            return null;
        }
    }

    /** Moves a record the projection cannot apply to the dead-letter topic. */
    static void deadLetter(Record<byte[], byte[]> record, ProcessorContext<Object, Object> context, Throwable error) {
        RecordMetadata source = context.recordMetadata().orElseThrow();
        context.forward(DeadLetters.record(record, source, "project", error), ProjectionTopology.DLQ_SINK);
    }
}
