package io.memorychain.events;

import java.nio.charset.StandardCharsets;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;

/**
 * Headers of a dead-letter record, the same for the Streams applications and the plain-consumer jobs: where the record
 * came from (topic, partition, offset), the stage that set it aside and why.
 */
public final class DeadLetterHeaders {

    public static final String TOPIC = "dlq.source.topic";
    public static final String PARTITION = "dlq.source.partition";
    public static final String OFFSET = "dlq.source.offset";
    public static final String ERROR = "dlq.error";
    public static final String STAGE = "dlq.stage";

    private static final int MAX_ERROR_CHARS = 2_000;

    private DeadLetterHeaders() {}

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
                with(record.headers(), record.topic(), record.partition(), record.offset(), stage, error));
    }

    /** A copy of {@code original} with the source coordinates, the stage and the error (cut at 2,000 characters). */
    public static Headers with(
            Headers original, String topic, int partition, long offset, String stage, Throwable error) {
        Headers headers = new RecordHeaders(original.toArray());
        headers.add(TOPIC, bytes(topic));
        headers.add(PARTITION, bytes(String.valueOf(partition)));
        headers.add(OFFSET, bytes(String.valueOf(offset)));
        headers.add(STAGE, bytes(stage));
        String message = String.valueOf(error);
        headers.add(ERROR, bytes(message.length() > MAX_ERROR_CHARS ? message.substring(0, MAX_ERROR_CHARS) : message));
        return headers;
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
