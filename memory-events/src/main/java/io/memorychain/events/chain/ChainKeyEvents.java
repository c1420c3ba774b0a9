package io.memorychain.events.chain;

import io.memorychain.events.registry.SchemaRegistry;
import io.memorychain.events.registry.SchemaRegistryUnavailableException;
import io.memorychain.events.serde.AvroWireSerde;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.generic.IndexedRecord;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;

/**
 * The key events of every chain (docs/architecture.md §4): which key each space rotated to and which keys were marked
 * compromised where, read from the events topic, so the status of a key is a function of the log. Reads incrementally:
 * each {@link #refresh()} continues from the offsets the previous one reached. Thread-safe.
 */
public final class ChainKeyEvents {

    /** A space's current key by its last rotation. */
    public record Rotation(String space, long seq, String previousKeyId, String newKeyId) {}

    /** A compromise mark on a space's chain. */
    public record Compromise(String space, long markedAtSeq, String keyId, long trustedUpTo) {}

    /** What the log says so far. */
    public record Snapshot(Map<String, Rotation> currentBySpace, List<Compromise> compromises) {}

    private final Map<String, Object> consumerConfig;
    private final String topic;
    private final SchemaRegistry registry;
    private final Map<TopicPartition, Long> next = new HashMap<>();
    private final Map<String, Rotation> current = new TreeMap<>();
    private final List<Compromise> compromises = new ArrayList<>();

    public ChainKeyEvents(Map<String, Object> consumerConfig, String topic, SchemaRegistry registry) {
        this.consumerConfig = Map.copyOf(consumerConfig);
        this.topic = Objects.requireNonNull(topic, "topic");
        this.registry = Objects.requireNonNull(registry, "registry");
    }

    /** Reads the records appended since the last refresh and answers the key events so far. */
    public synchronized Snapshot refresh() {
        try (KafkaConsumer<byte[], byte[]> consumer = ChainConsumers.reader(consumerConfig, "memory-chain-keys-")) {
            List<PartitionInfo> infos = consumer.partitionsFor(topic);
            if (infos == null || infos.isEmpty()) {
                return snapshot();
            }
            List<TopicPartition> partitions = infos.stream()
                    .map(i -> new TopicPartition(topic, i.partition()))
                    .toList();
            consumer.assign(partitions);
            Map<TopicPartition, Long> ends = consumer.endOffsets(partitions);
            Map<TopicPartition, Long> begins = consumer.beginningOffsets(partitions);
            List<TopicPartition> behind = new ArrayList<>();
            for (TopicPartition tp : partitions) {
                long from = Math.max(next.getOrDefault(tp, 0L), begins.get(tp));
                if (from < ends.get(tp)) {
                    consumer.seek(tp, from);
                    behind.add(tp);
                } else {
                    next.put(tp, ends.get(tp));
                }
            }
            long deadline = System.nanoTime() + Duration.ofMinutes(1).toNanos();
            while (!behind.isEmpty() && System.nanoTime() < deadline) {
                for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(200))) {
                    apply(record);
                }
                behind.removeIf(tp -> {
                    long position = consumer.position(tp);
                    next.put(tp, position);
                    return position >= ends.get(tp);
                });
            }
        }
        return snapshot();
    }

    private void apply(ConsumerRecord<byte[], byte[]> record) {
        if (record.value() == null) {
            return;
        }
        GenericRecord event;
        try {
            event = AvroWireSerde.decodeAsWritten(registry, record.value());
        } catch (SchemaRegistryUnavailableException e) {
            throw e;
        } catch (RuntimeException e) {
            return; // not a chain event we can read: the verifiers report it
        }
        if (event.getSchema().getField("payload") == null || !(event.get("payload") instanceof IndexedRecord p)) {
            return;
        }
        GenericRecord payload = (GenericRecord) p;
        String space = String.valueOf(event.get("space"));
        long seq = (Long) event.get("seq");
        switch (payload.getSchema().getName()) {
            case "SigningKeyRotated" ->
                current.put(
                        space,
                        new Rotation(
                                space,
                                seq,
                                String.valueOf(payload.get("previous_key_id")),
                                String.valueOf(payload.get("new_key_id"))));
            case "SigningKeyCompromised" ->
                compromises.add(new Compromise(
                        space, seq, String.valueOf(payload.get("key_id")), (Long) payload.get("from_seq")));
            default -> {}
        }
    }

    private Snapshot snapshot() {
        return new Snapshot(Map.copyOf(current), List.copyOf(compromises));
    }
}
