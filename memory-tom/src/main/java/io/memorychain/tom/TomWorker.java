package io.memorychain.tom;

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
import java.util.Optional;
import java.util.OptionalLong;
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
 * The ToM job's loop: a plain consumer group on the events topic and a transactional producer of requests, so the
 * model is never called from a Kafka Streams thread or inside an open transaction.
 *
 * <p>Per poll: feed the events, in order, to one {@link TomPlanner} per partition; execute the runs it plans (model
 * calls, no transaction open; at most {@code maxRunsPerBatch}, the rest of the poll is re-read next time); then in one
 * transaction publish the runs' {@code CreateMemory} requests and commit the consumed offsets
 * ({@code sendOffsetsToTransaction}). A crash before the commit aborts both: the restarted job re-reads the same
 * events, plans the same runs and publishes the same request ids; the sequencer (read_committed) never saw the aborted
 * ones and deduplicates repeated ids anyway.
 *
 * <p>State: the planners are rebuilt when partitions are assigned by reading each partition from its beginning; events
 * below the group's committed offset only rebuild state (no model call, nothing published). A partition the group
 * never committed starts live at its end ({@link StartFrom#LATEST}, the default: no backfill of old history) or at its
 * beginning ({@link StartFrom#EARLIEST}). Startup cost is therefore one read of the events topic; a state snapshot
 * would remove it.
 */
public final class TomWorker implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(TomWorker.class);

    /** Where a partition without a committed offset starts publishing. */
    public enum StartFrom { EARLIEST, LATEST }

    /**
     * @param groupId         consumer group (one per job: the ToM job's own)
     * @param instanceId      names the transactional id {@code <groupId>-<instanceId>}; unique per running instance,
     *                        stable across restarts of that instance (so a restart fences its predecessor)
     * @param maxRunsPerBatch runs (model calls) per transaction; bounds the time between polls
     */
    public record Options(String bootstrapServers, Topics topics, String groupId, String instanceId,
                          StartFrom startFrom, int maxRunsPerBatch, Duration pollTimeout) {

        public Options {
            Objects.requireNonNull(bootstrapServers, "bootstrapServers");
            Objects.requireNonNull(topics, "topics");
            Objects.requireNonNull(groupId, "groupId");
            Objects.requireNonNull(instanceId, "instanceId");
            Objects.requireNonNull(startFrom, "startFrom");
            Objects.requireNonNull(pollTimeout, "pollTimeout");
            if (maxRunsPerBatch < 1) {
                throw new IllegalArgumentException("maxRunsPerBatch must be >= 1");
            }
        }

        public String transactionalId() {
            return groupId + "-" + instanceId;
        }
    }

    /** Called after a batch's requests are sent and before its transaction commits (a seam for crash tests). */
    @FunctionalInterface
    public interface BeforeCommit {
        BeforeCommit NONE = requests -> { };

        void beforeCommit(List<MemoryRequest> requests);
    }

    private final Options options;
    private final TomSettings settings;
    private final TomInsights insights;
    private final TomMetrics metrics;
    private final BeforeCommit beforeCommit;
    private final AvroWireSerde<MemoryEvent> eventSerde;
    private final KafkaConsumer<byte[], byte[]> consumer;
    private final AvroWireSerde<MemoryRequest> requestSerde;
    private final KafkaProducer<byte[], byte[]> producer;
    private final Map<TopicPartition, TomPlanner> planners = new HashMap<>();
    /** First offset per partition whose runs are executed (below it: state only). */
    private final Map<TopicPartition, Long> liveFrom = new HashMap<>();

    public TomWorker(Options options, SchemaRegistry registry, TomSettings settings, TomInsights insights,
                     TomMetrics metrics, BeforeCommit beforeCommit) {
        this.options = Objects.requireNonNull(options, "options");
        this.settings = Objects.requireNonNull(settings, "settings");
        this.insights = Objects.requireNonNull(insights, "insights");
        this.metrics = Objects.requireNonNull(metrics, "metrics");
        this.beforeCommit = Objects.requireNonNull(beforeCommit, "beforeCommit");
        this.eventSerde = AvroWireSerde.forValues(registry, MemoryEvent.class);
        Map<String, Object> c = new HashMap<>();
        c.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, options.bootstrapServers());
        c.put(ConsumerConfig.GROUP_ID_CONFIG, options.groupId());
        c.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        c.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        c.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        c.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 500);
        // a batch makes at most maxRunsPerBatch model calls (each bounded by the LLM timeouts and retries)
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
        this.requestSerde = AvroWireSerde.forValues(registry, MemoryRequest.class);
        this.producer = new KafkaProducer<>(p, new ByteArraySerializer(), new ByteArraySerializer());
    }

    /** Runs until {@link #stop()} (from another thread) or a failure, which is thrown after the batch is aborted. */
    public void run() {
        producer.initTransactions();
        consumer.subscribe(List.of(options.topics().events()), new Rebalance());
        log.info("tom: consuming {} as group {} (transactional id {}), publishing to {}", options.topics().events(),
                options.groupId(), options.transactionalId(), options.topics().requests());
        try {
            while (true) {
                ConsumerRecords<byte[], byte[]> records = consumer.poll(options.pollTimeout());
                if (!records.isEmpty()) {
                    batch(records);
                }
                recordLag();
            }
        } catch (WakeupException e) {
            log.info("tom: stopping: {}", metrics.summary());
        }
    }

    /** The figures for operators: lag of the assigned partitions (from the consumer's cached positions) and poll time. */
    private void recordLag() {
        long total = 0;
        for (TopicPartition tp : consumer.assignment()) {
            OptionalLong lag = consumer.currentLag(tp);
            if (lag.isPresent()) {
                total += lag.getAsLong();
            }
        }
        metrics.lag.set(total);
        metrics.lastPollMillis.set(System.currentTimeMillis());
    }

    /** Makes {@link #run()} return at its next poll (thread-safe). */
    public void stop() {
        consumer.wakeup();
    }

    private void batch(ConsumerRecords<byte[], byte[]> records) {
        List<TomRun> runs = new ArrayList<>();
        List<ProducerRecord<byte[], byte[]>> deadLetters = new ArrayList<>();
        Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>();
        boolean full = false;
        for (TopicPartition tp : records.partitions()) {
            List<ConsumerRecord<byte[], byte[]>> partition = records.records(tp);
            if (full) {
                consumer.seek(tp, partition.get(0).offset()); // not read: next poll returns it again
                continue;
            }
            TomPlanner planner = planners.get(tp);
            long live = liveFrom.getOrDefault(tp, 0L);
            for (ConsumerRecord<byte[], byte[]> record : partition) {
                Optional<TomRun> run = plan(planner, record, record.offset() >= live ? deadLetters : null);
                if (record.offset() >= live) {
                    offsets.put(tp, new OffsetAndMetadata(record.offset() + 1));
                    run.ifPresent(runs::add);
                }
                if (runs.size() >= options.maxRunsPerBatch()) {
                    full = true;
                    consumer.seek(tp, record.offset() + 1);
                    break;
                }
            }
        }
        if (offsets.isEmpty()) {
            return; // state rebuild only
        }
        // the position, not the last record + 1: it is past the transaction markers of the (transactional) events
        // topic too, so a caught-up group has no lag
        offsets.replaceAll((tp, last) -> new OffsetAndMetadata(consumer.position(tp)));
        List<MemoryRequest> requests = new ArrayList<>();
        for (TomRun run : runs) {
            requests.addAll(insights.requests(run)); // model calls: no transaction is open
        }
        producer.beginTransaction();
        try {
            for (MemoryRequest request : requests) {
                String topic = options.topics().requests();
                producer.send(new ProducerRecord<>(topic, request.getSpace().getBytes(StandardCharsets.UTF_8),
                        requestSerde.serialize(topic, request)));
            }
            deadLetters.forEach(producer::send);
            producer.flush(); // what the commit would do first: the requests are on the broker, not yet committed
            beforeCommit.beforeCommit(requests);
            producer.sendOffsetsToTransaction(offsets, consumer.groupMetadata());
            producer.commitTransaction();
        } catch (RuntimeException e) {
            abortQuietly(e);
            throw e;
        }
        metrics.published.add(requests.size());
        if (!runs.isEmpty()) {
            metrics.lastRunMillis.set(System.currentTimeMillis());
        }
        if (!requests.isEmpty()) {
            log.info("tom: published {} insight request(s) from {} run(s)", requests.size(), runs.size());
        }
    }

    /**
     * Feeds one record to the planner. An undecodable record is logged with its coordinates, counted and skipped; when
     * {@code deadLetters} is not null (a live record) it is also set aside for the dead-letter topic, in the batch's
     * transaction, with the same headers as the Streams applications' (source topic/partition/offset, stage, error).
     */
    private Optional<TomRun> plan(TomPlanner planner, ConsumerRecord<byte[], byte[]> record,
                                  List<ProducerRecord<byte[], byte[]>> deadLetters) {
        MemoryEvent event;
        try {
            event = eventSerde.deserialize(record.topic(), record.value());
        } catch (SchemaRegistryUnavailableException e) {
            throw e; // not the record's fault: the batch fails and is read again
        } catch (RuntimeException e) {
            log.error("tom: skipping undecodable event at topic={} partition={} offset={}: {}", record.topic(),
                    record.partition(), record.offset(), e.toString());
            if (deadLetters != null) {
                metrics.undecodable.increment();
                deadLetters.add(DeadLetters.of(record, options.topics().deadLetters(), "tom", e));
            }
            return Optional.empty();
        }
        return planner.onEvent(event);
    }

    private void abortQuietly(RuntimeException cause) {
        try {
            producer.abortTransaction();
        } catch (RuntimeException e) {
            cause.addSuppressed(e);
        }
    }

    @Override
    public void close() {
        try {
            consumer.close(CloseOptions.timeout(Duration.ofSeconds(10)));
        } finally {
            producer.close(Duration.ofSeconds(10));
        }
    }

    /** Rebuilds a partition's planner from the partition's beginning on assignment. */
    private final class Rebalance implements ConsumerRebalanceListener {

        @Override
        public void onPartitionsAssigned(Collection<TopicPartition> partitions) {
            if (partitions.isEmpty()) {
                return;
            }
            Set<TopicPartition> assigned = new HashSet<>(partitions);
            Map<TopicPartition, OffsetAndMetadata> committed = consumer.committed(assigned);
            Map<TopicPartition, Long> ends = options.startFrom() == StartFrom.LATEST
                    ? consumer.endOffsets(assigned) : Map.of();
            for (TopicPartition tp : assigned) {
                OffsetAndMetadata c = committed.get(tp);
                long live = c != null ? c.offset() : options.startFrom() == StartFrom.LATEST ? ends.get(tp) : 0L;
                liveFrom.put(tp, live);
                planners.put(tp, new TomPlanner(settings));
                log.info("tom: assigned {}: rebuilding state from the beginning, live from offset {}", tp, live);
            }
            consumer.seekToBeginning(assigned);
            metrics.partitions.addAndGet(assigned.size());
        }

        @Override
        public void onPartitionsRevoked(Collection<TopicPartition> partitions) {
            partitions.forEach(tp -> {
                if (planners.remove(tp) != null) {
                    metrics.partitions.decrementAndGet();
                }
                liveFrom.remove(tp);
            });
        }
    }
}
