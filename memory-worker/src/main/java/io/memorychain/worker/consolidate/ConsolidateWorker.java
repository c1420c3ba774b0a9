package io.memorychain.worker.consolidate;

import io.memorychain.avro.MemoryEmbedding;
import io.memorychain.avro.MemoryEvent;
import io.memorychain.avro.MemoryRequest;
import io.memorychain.events.Topics;
import io.memorychain.events.registry.SchemaRegistry;
import io.memorychain.events.registry.SchemaRegistryUnavailableException;
import io.memorychain.events.serde.AvroWireSerde;
import io.memorychain.projector.support.DeadLetters;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.apache.kafka.clients.consumer.CloseOptions;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The consolidation job's loop (docs/architecture.md §12), built like the ToM job's: a plain consumer group on
 * {@code memory.events.v1} and {@code memory.embeddings.v1} (co-partitioned by space) and a transactional producer of
 * requests, so the model is never called inside an open transaction.
 *
 * <p>Per poll: records update each space's {@link SpaceMemories}; an <em>event</em> whose chain time makes a run due
 * ({@link ConsolidatePlanner#due}) plans the space's run at that chain time; the runs' merges (model calls with no
 * transaction open) are then sent with the consumed offsets in one transaction. A crash before the commit aborts both;
 * the restarted job plans again from the chain and re-sends the same request ids, which the sequencer deduplicates.
 *
 * <p>State is rebuilt on every assignment by reading every assigned partition from its beginning; records below the
 * group's committed offset only rebuild state and plans (no model call, nothing published). A group with no committed
 * offset starts live at the end ({@link StartFrom#LATEST}) or at the beginning ({@link StartFrom#EARLIEST}).
 * Undecodable records are logged with their coordinates, skipped, and (when live) copied to the dead-letter topic in
 * the batch's transaction, with the Streams applications' headers (source coordinates, stage {@code consolidate}).
 */
public final class ConsolidateWorker implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(ConsolidateWorker.class);

    /** Where a partition without a committed offset starts publishing. */
    public enum StartFrom { EARLIEST, LATEST }

    /** Options of the loop; the transactional id is {@code <groupId>-<instanceId>}. */
    public record Options(String bootstrapServers, Topics topics, String groupId, String instanceId,
                          StartFrom startFrom, String modelId, Duration pollTimeout) {

        public Options {
            Objects.requireNonNull(bootstrapServers, "bootstrapServers");
            Objects.requireNonNull(topics, "topics");
            Objects.requireNonNull(groupId, "groupId");
            Objects.requireNonNull(instanceId, "instanceId");
            Objects.requireNonNull(startFrom, "startFrom");
            Objects.requireNonNull(modelId, "modelId");
            Objects.requireNonNull(pollTimeout, "pollTimeout");
        }

        public String transactionalId() {
            return groupId + "-" + instanceId;
        }
    }

    private final Options options;
    private final ConsolidateSettings settings;
    private final Consolidations consolidations;
    private final ConsolidateMetrics metrics;
    private final AvroWireSerde<MemoryEvent> eventSerde;
    private final AvroWireSerde<MemoryEmbedding> embeddingSerde;
    private final AvroWireSerde<MemoryRequest> requestSerde;
    private final KafkaConsumer<byte[], byte[]> consumer;
    private final KafkaProducer<byte[], byte[]> producer;
    private final Map<String, SpaceMemories> spaces = new HashMap<>();
    private final Map<String, ConsolidatePlanner> planners = new HashMap<>();
    private final Map<TopicPartition, Long> liveFrom = new HashMap<>();

    public ConsolidateWorker(Options options, SchemaRegistry registry, ConsolidateSettings settings,
                             Consolidations consolidations, ConsolidateMetrics metrics) {
        this.options = Objects.requireNonNull(options, "options");
        this.settings = Objects.requireNonNull(settings, "settings");
        this.consolidations = Objects.requireNonNull(consolidations, "consolidations");
        this.metrics = Objects.requireNonNull(metrics, "metrics");
        this.eventSerde = AvroWireSerde.forValues(registry, MemoryEvent.class);
        this.embeddingSerde = AvroWireSerde.forValues(registry, MemoryEmbedding.class);
        this.requestSerde = AvroWireSerde.forValues(registry, MemoryRequest.class);
        Map<String, Object> c = new HashMap<>();
        c.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, options.bootstrapServers());
        c.put(ConsumerConfig.GROUP_ID_CONFIG, options.groupId());
        c.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        c.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        c.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        c.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 500);
        c.put(ConsumerConfig.MAX_POLL_INTERVAL_MS_CONFIG, (int) Duration.ofMinutes(15).toMillis());
        c.put(ConsumerConfig.CLIENT_ID_CONFIG, options.transactionalId() + "-consumer");
        this.consumer = new KafkaConsumer<>(c, new ByteArrayDeserializer(), new ByteArrayDeserializer());
        Map<String, Object> p = new HashMap<>();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, options.bootstrapServers());
        p.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, options.transactionalId());
        p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        p.put(ProducerConfig.TRANSACTION_TIMEOUT_CONFIG, (int) Duration.ofMinutes(1).toMillis());
        p.put(ProducerConfig.CLIENT_ID_CONFIG, options.transactionalId() + "-producer");
        this.producer = new KafkaProducer<>(p, new ByteArraySerializer(), new ByteArraySerializer());
    }

    /** Runs until {@link #stop()} (from another thread) or a failure, which is thrown after the batch is aborted. */
    public void run() {
        producer.initTransactions();
        consumer.subscribe(List.of(options.topics().events(), options.topics().embeddings()), new Rebalance());
        log.info("consolidate: consuming {} and {} as group {} (transactional id {}), publishing to {}",
                options.topics().events(), options.topics().embeddings(), options.groupId(),
                options.transactionalId(), options.topics().requests());
        try {
            while (true) {
                ConsumerRecords<byte[], byte[]> records = consumer.poll(options.pollTimeout());
                if (!records.isEmpty()) {
                    batch(records);
                }
            }
        } catch (WakeupException e) {
            log.info("consolidate: stopping: {}", metrics.summary());
        }
    }

    /** Makes {@link #run()} return at its next poll (thread-safe). */
    public void stop() {
        consumer.wakeup();
    }

    private void batch(ConsumerRecords<byte[], byte[]> records) {
        List<ConsolidatePlanner.Plan> plans = new ArrayList<>();
        List<ProducerRecord<byte[], byte[]>> deadLetters = new ArrayList<>();
        Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>();
        for (TopicPartition tp : records.partitions()) {
            long live = liveFrom.getOrDefault(tp, 0L);
            for (ConsumerRecord<byte[], byte[]> record : records.records(tp)) {
                ConsolidatePlanner.Plan plan = onRecord(record, record.offset() >= live ? deadLetters : null);
                metrics.recordsRead.increment();
                if (record.offset() >= live) {
                    offsets.put(tp, new OffsetAndMetadata(record.offset() + 1));
                    if (plan != null) {
                        plans.add(plan);
                    }
                }
            }
        }
        if (offsets.isEmpty()) {
            return; // state rebuild only
        }
        offsets.replaceAll((tp, last) -> new OffsetAndMetadata(consumer.position(tp)));
        List<MemoryRequest> requests = new ArrayList<>();
        for (ConsolidatePlanner.Plan plan : plans) {
            List<MemoryRequest> merges = consolidations.requests(plan); // model calls: no transaction is open
            log.info("consolidate: run {} of space={} at {}: pool {}, considered {}, near-exact {}, checked {}, "
                    + "capped {}, remembered {}, merges {}", plan.period(), plan.space(), plan.at(), plan.pool(),
                    plan.considered(), plan.nearExact().size(), plan.toCheck().size(), plan.capped(),
                    plan.remembered(), merges.size());
            requests.addAll(merges);
        }
        producer.beginTransaction();
        try {
            deadLetters.forEach(producer::send);
            for (MemoryRequest request : requests) {
                String topic = options.topics().requests();
                producer.send(new ProducerRecord<>(topic, request.getSpace().getBytes(StandardCharsets.UTF_8),
                        requestSerde.serialize(topic, request)));
            }
            producer.sendOffsetsToTransaction(offsets, consumer.groupMetadata());
            producer.commitTransaction();
        } catch (RuntimeException e) {
            try {
                producer.abortTransaction();
            } catch (RuntimeException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw e;
        }
        metrics.published.add(requests.size());
    }

    /**
     * Updates state with one record; returns the plan of a run it makes due, else null. An undecodable record is
     * logged with its coordinates and skipped; when {@code deadLetters} is not null (a live record) it is also set
     * aside for the dead-letter topic, sent in the batch's transaction.
     */
    private ConsolidatePlanner.Plan onRecord(ConsumerRecord<byte[], byte[]> record,
                                             List<ProducerRecord<byte[], byte[]>> deadLetters) {
        try {
            if (record.topic().equals(options.topics().embeddings())) {
                MemoryEmbedding embedding = embeddingSerde.deserialize(record.topic(), record.value());
                space(embedding.getSpace()).onEmbedding(embedding);
                return null;
            }
            MemoryEvent event = eventSerde.deserialize(record.topic(), record.value());
            SpaceMemories space = space(event.getSpace());
            space.onEvent(event);
            ConsolidatePlanner planner = planners.computeIfAbsent(event.getSpace(),
                    s -> new ConsolidatePlanner(settings));
            return planner.plan(event.getSpace(), space.items(), space.chainTime()).orElse(null);
        } catch (SchemaRegistryUnavailableException e) {
            throw e; // not the record's fault: the batch fails and is read again
        } catch (RuntimeException e) {
            log.error("consolidate: skipping undecodable record at topic={} partition={} offset={}: {}",
                    record.topic(), record.partition(), record.offset(), e.toString());
            if (deadLetters != null) {
                deadLetters.add(DeadLetters.of(record, options.topics().deadLetters(), "consolidate", e));
            }
            return null;
        }
    }

    private SpaceMemories space(String space) {
        return spaces.computeIfAbsent(space, s -> new SpaceMemories(options.modelId()));
    }

    @Override
    public void close() {
        try {
            consumer.close(CloseOptions.timeout(Duration.ofSeconds(10)));
        } finally {
            producer.close(Duration.ofSeconds(10));
        }
    }

    /** Rebuilds all state from the beginning of every assigned partition. */
    private final class Rebalance implements ConsumerRebalanceListener {

        @Override
        public void onPartitionsAssigned(Collection<TopicPartition> partitions) {
            if (partitions.isEmpty()) {
                return;
            }
            Set<TopicPartition> assigned = new HashSet<>(consumer.assignment());
            Map<TopicPartition, OffsetAndMetadata> committed = consumer.committed(assigned);
            Map<TopicPartition, Long> ends = options.startFrom() == StartFrom.LATEST
                    ? consumer.endOffsets(assigned) : Map.of();
            spaces.clear();
            planners.clear();
            liveFrom.clear();
            for (TopicPartition tp : assigned) {
                OffsetAndMetadata c = committed.get(tp);
                long live = c != null ? c.offset() : options.startFrom() == StartFrom.LATEST ? ends.get(tp) : 0L;
                liveFrom.put(tp, live);
                log.info("consolidate: assigned {}: rebuilding state from the beginning, live from offset {}", tp,
                        live);
            }
            consumer.seekToBeginning(assigned);
        }

        @Override
        public void onPartitionsRevoked(Collection<TopicPartition> partitions) {
            partitions.forEach(liveFrom::remove);
        }
    }
}
