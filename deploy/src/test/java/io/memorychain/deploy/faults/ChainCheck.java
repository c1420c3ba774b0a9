package io.memorychain.deploy.faults;

import io.memorychain.events.chain.KafkaChainReader;
import io.memorychain.events.chain.KeyRing;
import io.memorychain.events.chain.SignatureMode;
import io.memorychain.events.chain.VerificationResult;
import io.memorychain.events.registry.SchemaRegistry;
import io.memorychain.events.serde.AvroWireSerde;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.avro.generic.GenericRecord;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * The checks on the chains after the faults: the events topic read from its beginning ({@code read_committed}, as every
 * reader of the chain), every chain verified with the Java verifier of {@code memory-worker verify}
 * ({@link KafkaChainReader}: signatures, hash links, contiguous seqs), and the history's writes matched against the
 * events by request id: each acknowledged write exactly once, as the event, memory and seq it was acknowledged with; no
 * write of the run (acknowledged or not) more than once.
 */
final class ChainCheck {

    /** What the check needs of one event. */
    record Event(String space, long seq, String requestId, String payload, String memoryId) {}

    private final Map<String, Object> consumerConfig;
    private final String topic;
    private final SchemaRegistry registry;
    private final KeyRing keys;

    ChainCheck(String bootstrap, String topic, SchemaRegistry registry, KeyRing keys) {
        this.consumerConfig = Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        this.topic = topic;
        this.registry = registry;
        this.keys = keys;
    }

    /** Verifies every chain of the topic; returns how many events were verified. */
    long verifyAll(History history) {
        Map<String, VerificationResult> results = new KafkaChainReader(
                        consumerConfig, topic, registry, keys, SignatureMode.ALL, Duration.ofSeconds(30))
                .verifyAll();
        long events = 0;
        for (Map.Entry<String, VerificationResult> e : results.entrySet()) {
            events += e.getValue().events();
            if (!e.getValue().ok()) {
                history.anomaly("chain of " + e.getKey() + " does not verify: seq "
                        + e.getValue().firstBadSeq() + " " + e.getValue().problem() + " "
                        + e.getValue().message());
            }
        }
        history.note("chains verified: " + results.size() + " spaces, " + events + " events, "
                + results.values().stream().filter(VerificationResult::ok).count() + " intact");
        return events;
    }

    /** Every event of the topic, in partition order. */
    List<Event> events() {
        Map<String, Object> config = new HashMap<>(consumerConfig);
        config.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        List<Event> events = new ArrayList<>();
        try (KafkaConsumer<byte[], byte[]> consumer =
                new KafkaConsumer<>(config, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            List<TopicPartition> partitions = consumer.partitionsFor(topic, Duration.ofSeconds(20)).stream()
                    .map(p -> new TopicPartition(topic, p.partition()))
                    .toList();
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> end = consumer.endOffsets(partitions, Duration.ofSeconds(20));
            long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            while (partitions.stream().anyMatch(tp -> consumer.position(tp) < end.get(tp))) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("the events topic was not read to its end within 60 s");
                }
                for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(500))) {
                    if (r.value() != null) {
                        events.add(event(r));
                    }
                }
            }
        }
        return events;
    }

    private Event event(ConsumerRecord<byte[], byte[]> r) {
        GenericRecord e = AvroWireSerde.decodeAsWritten(registry, r.value());
        GenericRecord payload = (GenericRecord) e.get("payload");
        String memoryId = null;
        Object memory = payload.getSchema().getField("memory") != null
                ? payload.get("memory")
                : payload.getSchema().getField("after") != null ? payload.get("after") : null;
        if (memory instanceof GenericRecord m) {
            memoryId = String.valueOf(m.get("id"));
        }
        String space = r.key() == null ? String.valueOf(e.get("space")) : new String(r.key(), StandardCharsets.UTF_8);
        return new Event(
                space,
                (Long) e.get("seq"),
                String.valueOf(e.get("request_id")),
                payload.getSchema().getName(),
                memoryId);
    }

    /** Matches the history's writes against the events; returns how many unacknowledged writes were applied. */
    static int matchWrites(History history, List<Event> events) {
        Map<String, List<Event>> byRequest = new HashMap<>();
        for (Event e : events) {
            if (e.requestId().startsWith("fh-")) {
                byRequest.computeIfAbsent(e.requestId(), k -> new ArrayList<>()).add(e);
            }
        }
        byRequest.forEach((id, found) -> {
            if (found.size() > 1) {
                history.anomaly("request " + id + " is on the chain " + found.size() + " times: " + found);
            }
        });
        Set<String> acknowledged = new HashSet<>();
        for (History.Ack ack : history.acks()) {
            acknowledged.add(ack.requestId());
            List<Event> found = byRequest.getOrDefault(ack.requestId(), List.of());
            if (found.isEmpty()) {
                history.anomaly("acknowledged " + ack.kind() + " " + ack.requestId() + " (" + ack.space() + " seq "
                        + ack.seq() + ", memory " + ack.memoryId() + ") is not on the chain");
                continue;
            }
            Event e = found.get(0);
            String expected = ack.kind() == Operation.Kind.CREATE ? "MemoryCreated" : "MemoryUpdated";
            if (!e.space().equals(ack.space())
                    || e.seq() != ack.seq()
                    || !expected.equals(e.payload())
                    || !ack.memoryId().equals(e.memoryId())) {
                history.anomaly("acknowledged " + ack.kind() + " " + ack.requestId() + " was answered as " + ack.space()
                        + " seq " + ack.seq() + " memory " + ack.memoryId() + ", but the chain has " + e);
            }
        }
        int applied = 0;
        for (String id : new HashSet<>(history.unacknowledgedRequestIds())) {
            if (!acknowledged.contains(id) && byRequest.containsKey(id)) {
                applied++;
            }
        }
        return applied;
    }
}
