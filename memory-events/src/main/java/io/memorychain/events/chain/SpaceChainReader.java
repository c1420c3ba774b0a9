package io.memorychain.events.chain;

import io.memorychain.avro.MemoryEvent;
import io.memorychain.events.registry.SchemaRegistry;
import io.memorychain.events.serde.AvroWireSerde;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Consumer;
import org.apache.kafka.clients.consumer.CloseOptions;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.utils.Utils;

/**
 * Reads one space's chain in seq order, decoded with the current schemas, for replays outside Kafka Streams (the
 * rollback planner, docs/architecture.md §17). Reads the space's partition (Kafka's default partitioner on the space
 * key) from its beginning up to the last stable offset taken at the start ({@code read_committed}), with manual
 * assignment and no group, so it commits nothing. Records of other spaces on the partition are skipped.
 */
public final class SpaceChainReader {

    private final Map<String, Object> consumerConfig;
    private final String topic;
    private final AvroWireSerde<MemoryEvent> serde;
    private final Duration stallTimeout;

    /**
     * Progress of a read: offsets of the space's partition read so far of those to read (all spaces of the partition,
     * and transaction markers).
     */
    @FunctionalInterface
    public interface Progress {
        void update(long read, long total);
    }

    public SpaceChainReader(Map<String, Object> consumerConfig, String topic, SchemaRegistry registry) {
        this(consumerConfig, topic, registry, Duration.ofMinutes(2));
    }

    public SpaceChainReader(
            Map<String, Object> consumerConfig, String topic, SchemaRegistry registry, Duration stallTimeout) {
        this(consumerConfig, topic, registry, stallTimeout, io.memorychain.events.content.ChainContent.PLAINTEXT);
    }

    /** @param content decrypts the events' texts (docs/architecture.md §12), e.g. for rollback plans */
    public SpaceChainReader(
            Map<String, Object> consumerConfig,
            String topic,
            SchemaRegistry registry,
            Duration stallTimeout,
            io.memorychain.events.content.ChainContent content) {
        this.consumerConfig = Map.copyOf(consumerConfig);
        this.topic = Objects.requireNonNull(topic, "topic");
        this.serde = content.eventSerde(registry);
        this.stallTimeout = stallTimeout;
    }

    /**
     * Feeds the space's events to {@code sink} in log order (which is seq order: one writer per chain).
     *
     * @return the events of the space read
     */
    public long read(String space, Consumer<MemoryEvent> sink, Progress progress) {
        byte[] key = space.getBytes(StandardCharsets.UTF_8);
        KafkaConsumer<byte[], byte[]> consumer = consumer();
        try {
            List<PartitionInfo> infos = consumer.partitionsFor(topic);
            if (infos == null || infos.isEmpty()) {
                throw new IllegalArgumentException("Topic " + topic + " does not exist");
            }
            TopicPartition tp = new TopicPartition(topic, Utils.toPositive(Utils.murmur2(key)) % infos.size());
            consumer.assign(List.of(tp));
            long begin = consumer.beginningOffsets(List.of(tp)).get(tp);
            long end = consumer.endOffsets(List.of(tp)).get(tp);
            consumer.seekToBeginning(List.of(tp));
            long total = end - begin;
            long events = 0;
            long lastRecordAt = System.nanoTime();
            progress.update(0, total);
            while (consumer.position(tp) < end) {
                ConsumerRecords<byte[], byte[]> records = consumer.poll(Duration.ofMillis(200));
                for (ConsumerRecord<byte[], byte[]> record : records) {
                    if (record.offset() >= end) {
                        continue;
                    }
                    if (record.key() != null && space.equals(new String(record.key(), StandardCharsets.UTF_8))) {
                        sink.accept(serde.deserialize(topic, record.value()));
                        events++;
                    }
                }
                if (!records.isEmpty()) {
                    lastRecordAt = System.nanoTime();
                    progress.update(Math.min(consumer.position(tp), end) - begin, total);
                } else if (System.nanoTime() - lastRecordAt > stallTimeout.toNanos()) {
                    throw new IllegalStateException("No records from " + tp + " for " + stallTimeout.toSeconds()
                            + " s before its end offset " + end);
                }
            }
            progress.update(total, total);
            return events;
        } finally {
            consumer.close(CloseOptions.timeout(Duration.ofSeconds(5)));
        }
    }

    private KafkaConsumer<byte[], byte[]> consumer() {
        return ChainConsumers.reader(consumerConfig, "memory-chain-space-reader-");
    }
}
