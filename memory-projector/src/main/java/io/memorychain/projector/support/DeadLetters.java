package io.memorychain.projector.support;

import io.memorychain.events.registry.SchemaRegistryUnavailableException;
import io.memorychain.events.serde.AvroWireSerde;
import java.nio.charset.StandardCharsets;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.streams.errors.InvalidStateStoreException;
import org.apache.kafka.streams.errors.ProcessorStateException;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.processor.api.RecordMetadata;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Headers of a dead-letter record: where it came from and why it was set aside. */
public final class DeadLetters {

    public static final String TOPIC = "dlq.source.topic";
    public static final String PARTITION = "dlq.source.partition";
    public static final String OFFSET = "dlq.source.offset";
    public static final String ERROR = "dlq.error";
    public static final String STAGE = "dlq.stage";

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

    /**
     * The dead-letter record for a record a plain consumer could not decode (the jobs outside Kafka Streams): the
     * original key, value and timestamp, with the same headers as the Streams applications' dead letters.
     */
    public static ProducerRecord<byte[], byte[]> of(
            ConsumerRecord<byte[], byte[]> record, String deadLetterTopic, String stage, Throwable error) {
        return new ProducerRecord<>(
                deadLetterTopic,
                null,
                record.timestamp(),
                record.key(),
                record.value(),
                headers(record.headers(), record.topic(), record.partition(), record.offset(), stage, error));
    }

    static Headers headers(Headers original, RecordMetadata source, String stage, Throwable error) {
        return headers(original, source.topic(), source.partition(), source.offset(), stage, error);
    }

    private static Headers headers(
            Headers original, String topic, int partition, long offset, String stage, Throwable error) {
        Headers headers = new RecordHeaders(original.toArray());
        headers.add(TOPIC, bytes(topic));
        headers.add(PARTITION, bytes(String.valueOf(partition)));
        headers.add(OFFSET, bytes(String.valueOf(offset)));
        headers.add(STAGE, bytes(stage));
        String message = String.valueOf(error);
        headers.add(ERROR, bytes(message.length() > 2_000 ? message.substring(0, 2_000) : message));
        return headers;
    }

    public static String coordinates(RecordMetadata m) {
        return m.topic() + "-" + m.partition() + "@" + m.offset();
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
