package io.memorychain.jobs;

import io.memorychain.avro.MemoryRequest;
import io.memorychain.events.DeadLetterHeaders;
import io.memorychain.events.Topics;
import io.memorychain.events.registry.SchemaRegistry;
import io.memorychain.events.registry.SchemaRegistryUnavailableException;
import io.memorychain.events.serde.AvroWireSerde;
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
 * The loop of a background job that reads the chain (and derived topics co-partitioned with it) and publishes requests
 * (docs/architecture.md §12): a plain consumer group and a transactional producer, so a model is never called from a
 * Kafka Streams thread or inside an open transaction. The job's own decisions live in its {@link Logic}.
 *
 * <p>Per poll: feed the records, in partition order, to the logic, which returns the work they make due; execute at
 * most {@link Options#maxWorkPerBatch()} pieces of work (model calls, no transaction open; the rest of the poll is read
 * again next time); then in one transaction publish the requests, the dead letters of undecodable records, and the
 * consumed offsets ({@code sendOffsetsToTransaction}). A crash before the commit aborts all of it: the restarted job
 * reads the same records, plans the same work and publishes the same request ids, which the sequencer deduplicates
 * (and, reading committed records only, never saw the aborted ones).
 *
 * <p>State: on every assignment the logic is {@linkplain Logic#reset reset} and every assigned partition is read from
 * its beginning; records below the group's committed offset only rebuild state (their work is dropped, nothing is
 * published), unless the logic says the work depends on a live record too ({@link Logic#onRecord(ConsumerRecord,
 * boolean)}). A partition the group never committed starts live at its end ({@link StartFrom#LATEST}: no backfill of
 * old history) or at its beginning ({@link StartFrom#EARLIEST}). Startup costs one read of the input topics; a state
 * snapshot would remove it.
 *
 * @param <W> the job's unit of work (a ToM run, a consolidation run)
 */
public final class ChainJob<W> implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(ChainJob.class);

    /** Where a partition without a committed offset starts publishing. */
    public enum StartFrom {
        EARLIEST,
        LATEST
    }

    /**
     * @param name the job's name, in logs and as the dead-letter stage
     * @param inputs the topics read (co-partitioned by space)
     * @param groupId consumer group (one per job)
     * @param instanceId names the transactional id {@code <groupId>-<instanceId>}; unique per running instance, stable
     *     across restarts of that instance (so a restart fences its predecessor)
     * @param maxWorkPerBatch pieces of work (model calls) per transaction; bounds the time between polls
     */
    public record Options(
            String name,
            String bootstrapServers,
            Topics topics,
            List<String> inputs,
            String groupId,
            String instanceId,
            StartFrom startFrom,
            int maxWorkPerBatch,
            Duration pollTimeout) {

        public Options {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(bootstrapServers, "bootstrapServers");
            Objects.requireNonNull(topics, "topics");
            inputs = List.copyOf(inputs);
            Objects.requireNonNull(groupId, "groupId");
            Objects.requireNonNull(instanceId, "instanceId");
            Objects.requireNonNull(startFrom, "startFrom");
            Objects.requireNonNull(pollTimeout, "pollTimeout");
            if (inputs.isEmpty() || maxWorkPerBatch < 1) {
                throw new IllegalArgumentException(
                        "a job reads at least one topic and does at least one piece of work per batch");
            }
        }

        public String transactionalId() {
            return groupId + "-" + instanceId;
        }
    }

    /** What a job decides; called from the job's thread only. */
    public interface Logic<W> {

        /** Forgets all state: every assigned partition is read again from its beginning. */
        void reset();

        /**
         * Feeds one record, in partition order; returns the work it makes due. Records below the group's committed
         * offset are fed too (to rebuild state), their work dropped.
         *
         * @throws RuntimeException when the record cannot be decoded (it is logged, skipped and, when live, sent to the
         *     dead-letter topic); a {@link SchemaRegistryUnavailableException} fails the batch
         */
        Optional<W> onRecord(ConsumerRecord<byte[], byte[]> record);

        /**
         * Feeds one record and says whether it is live (at or above the group's committed offset when the partition was
         * assigned); returns the work to execute now. By default the work of a live record only. A job whose piece of
         * work depends on records of several partitions overrides it: such work was done before a restart only if every
         * record it depends on was below the committed offsets, so it is live as soon as one of them is, whichever
         * record completes it.
         */
        default Optional<W> onRecord(ConsumerRecord<byte[], byte[]> record, boolean live) {
            Optional<W> work = onRecord(record);
            return live ? work : Optional.empty();
        }

        /** Executes one piece of work (model calls: no transaction is open) and returns the requests to publish. */
        List<MemoryRequest> execute(W work);

        /** Releases what the logic holds outside the heap (called once, when the job closes). */
        default void close() {}
    }

    /** Called after a batch's requests are sent and before its transaction commits (a seam for crash tests). */
    @FunctionalInterface
    public interface BeforeCommit {
        BeforeCommit NONE = requests -> {};

        void beforeCommit(List<MemoryRequest> requests);
    }

    private final Options options;
    private final Logic<W> logic;
    private final JobFigures figures;
    private final BeforeCommit beforeCommit;
    private final AvroWireSerde<MemoryRequest> requestSerde;
    private final KafkaConsumer<byte[], byte[]> consumer;
    private final KafkaProducer<byte[], byte[]> producer;
    /** First offset per partition whose work is executed (below it: state only). */
    private final Map<TopicPartition, Long> liveFrom = new HashMap<>();

    public ChainJob(
            Options options, SchemaRegistry registry, Logic<W> logic, JobFigures figures, BeforeCommit beforeCommit) {
        this.options = Objects.requireNonNull(options, "options");
        this.logic = Objects.requireNonNull(logic, "logic");
        this.figures = Objects.requireNonNull(figures, "figures");
        this.beforeCommit = Objects.requireNonNull(beforeCommit, "beforeCommit");
        this.requestSerde = AvroWireSerde.forValues(registry, MemoryRequest.class);
        Map<String, Object> c = new HashMap<>();
        c.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, options.bootstrapServers());
        c.put(ConsumerConfig.GROUP_ID_CONFIG, options.groupId());
        c.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        c.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        c.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        c.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 500);
        // a batch does at most maxWorkPerBatch pieces of work (each bounded by the LLM timeouts and retries)
        c.put(ConsumerConfig.MAX_POLL_INTERVAL_MS_CONFIG, (int)
                Duration.ofMinutes(15).toMillis());
        c.put(ConsumerConfig.CLIENT_ID_CONFIG, options.transactionalId() + "-consumer");
        this.consumer = new KafkaConsumer<>(c, new ByteArrayDeserializer(), new ByteArrayDeserializer());
        Map<String, Object> p = new HashMap<>();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, options.bootstrapServers());
        p.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, options.transactionalId());
        p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        p.put(ProducerConfig.TRANSACTION_TIMEOUT_CONFIG, (int)
                Duration.ofMinutes(1).toMillis());
        p.put(ProducerConfig.CLIENT_ID_CONFIG, options.transactionalId() + "-producer");
        this.producer = new KafkaProducer<>(p, new ByteArraySerializer(), new ByteArraySerializer());
    }

    /** Runs until {@link #stop()} (from another thread) or a failure, which is thrown after the batch is aborted. */
    public void run() {
        producer.initTransactions();
        consumer.subscribe(options.inputs(), new Rebalance());
        log.info(
                "{}: consuming {} as group {} (transactional id {}), publishing to {}",
                options.name(),
                options.inputs(),
                options.groupId(),
                options.transactionalId(),
                options.topics().requests());
        try {
            while (true) {
                ConsumerRecords<byte[], byte[]> records = consumer.poll(options.pollTimeout());
                if (!records.isEmpty()) {
                    batch(records);
                }
                recordLag();
            }
        } catch (WakeupException e) {
            log.info("{}: stopping", options.name());
        }
    }

    /** Makes {@link #run()} return at its next poll (thread-safe). */
    public void stop() {
        consumer.wakeup();
    }

    /** Lag of the assigned partitions (from the consumer's cached positions) and the time of this check. */
    private void recordLag() {
        long total = 0;
        for (TopicPartition tp : consumer.assignment()) {
            OptionalLong lag = consumer.currentLag(tp);
            if (lag.isPresent()) {
                total += lag.getAsLong();
            }
        }
        figures.lag.set(total);
        figures.lastPollMillis.set(System.currentTimeMillis());
    }

    private void batch(ConsumerRecords<byte[], byte[]> records) {
        List<W> work = new ArrayList<>();
        List<ProducerRecord<byte[], byte[]>> deadLetters = new ArrayList<>();
        Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>();
        boolean full = false;
        for (TopicPartition tp : records.partitions()) {
            List<ConsumerRecord<byte[], byte[]>> partition = records.records(tp);
            if (full) {
                consumer.seek(tp, partition.get(0).offset()); // not read: the next poll returns it again
                continue;
            }
            long live = liveFrom.getOrDefault(tp, 0L);
            for (ConsumerRecord<byte[], byte[]> record : partition) {
                boolean isLive = record.offset() >= live;
                Optional<W> due = feed(record, isLive, deadLetters);
                figures.recordsRead.increment();
                if (isLive) {
                    offsets.put(tp, new OffsetAndMetadata(record.offset() + 1));
                }
                due.ifPresent(work::add);
                if (work.size() >= options.maxWorkPerBatch()) {
                    full = true;
                    consumer.seek(tp, record.offset() + 1);
                    break;
                }
            }
        }
        if (offsets.isEmpty() && work.isEmpty()) {
            return; // state rebuild only
        }
        // the position, not the last record + 1: it is past the transaction markers of the (transactional) input
        // topics too, so a caught-up group has no lag
        offsets.replaceAll((tp, last) -> new OffsetAndMetadata(consumer.position(tp)));
        List<MemoryRequest> requests = new ArrayList<>();
        for (W w : work) {
            requests.addAll(logic.execute(w)); // model calls: no transaction is open
        }
        commit(requests, deadLetters, offsets);
        figures.published.add(requests.size());
        if (!work.isEmpty()) {
            figures.lastRunMillis.set(System.currentTimeMillis());
        }
        if (!requests.isEmpty()) {
            log.info(
                    "{}: published {} request(s) from {} piece(s) of work",
                    options.name(),
                    requests.size(),
                    work.size());
        }
    }

    private void commit(
            List<MemoryRequest> requests,
            List<ProducerRecord<byte[], byte[]>> deadLetters,
            Map<TopicPartition, OffsetAndMetadata> offsets) {
        producer.beginTransaction();
        try {
            String topic = options.topics().requests();
            for (MemoryRequest request : requests) {
                producer.send(new ProducerRecord<>(
                        topic,
                        request.getSpace().getBytes(StandardCharsets.UTF_8),
                        requestSerde.serialize(topic, request)));
            }
            deadLetters.forEach(producer::send);
            producer.flush(); // what the commit would do first: the records are on the broker, not yet committed
            beforeCommit.beforeCommit(requests);
            if (!offsets.isEmpty()) {
                producer.sendOffsetsToTransaction(offsets, consumer.groupMetadata());
            }
            producer.commitTransaction();
        } catch (RuntimeException e) {
            try {
                producer.abortTransaction();
            } catch (RuntimeException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw e;
        }
    }

    /**
     * Feeds one record to the logic. An undecodable record is logged with its coordinates and skipped; a live one is
     * also counted and set aside for the dead-letter topic, in the batch's transaction, with the Streams applications'
     * headers (source coordinates, stage = the job's name).
     */
    private Optional<W> feed(
            ConsumerRecord<byte[], byte[]> record, boolean live, List<ProducerRecord<byte[], byte[]>> deadLetters) {
        try {
            return logic.onRecord(record, live);
        } catch (SchemaRegistryUnavailableException e) {
            throw e; // not the record's fault: the batch fails and is read again
        } catch (RuntimeException e) {
            log.error(
                    "{}: skipping undecodable record at topic={} partition={} offset={}: {}",
                    options.name(),
                    record.topic(),
                    record.partition(),
                    record.offset(),
                    e.toString());
            if (live) {
                figures.undecodable.increment();
                deadLetters.add(DeadLetterHeaders.of(record, options.topics().deadLetters(), options.name(), e));
            }
            return Optional.empty();
        }
    }

    @Override
    public void close() {
        try {
            consumer.close(CloseOptions.timeout(Duration.ofSeconds(10)));
        } finally {
            try {
                producer.close(Duration.ofSeconds(10));
            } finally {
                logic.close();
            }
        }
    }

    /** Resets the logic and reads every assigned partition from its beginning. */
    private final class Rebalance implements ConsumerRebalanceListener {

        @Override
        public void onPartitionsAssigned(Collection<TopicPartition> partitions) {
            if (partitions.isEmpty()) {
                return;
            }
            Set<TopicPartition> assigned = new HashSet<>(consumer.assignment());
            Map<TopicPartition, OffsetAndMetadata> committed = consumer.committed(assigned);
            Map<TopicPartition, Long> ends =
                    options.startFrom() == StartFrom.LATEST ? consumer.endOffsets(assigned) : Map.of();
            logic.reset();
            liveFrom.clear();
            for (TopicPartition tp : assigned) {
                OffsetAndMetadata c = committed.get(tp);
                long live = c != null ? c.offset() : options.startFrom() == StartFrom.LATEST ? ends.get(tp) : 0L;
                liveFrom.put(tp, live);
                log.info(
                        "{}: assigned {}: rebuilding state from the beginning, live from offset {}",
                        options.name(),
                        tp,
                        live);
            }
            consumer.seekToBeginning(assigned);
            figures.partitions.set(assigned.size());
        }

        @Override
        public void onPartitionsRevoked(Collection<TopicPartition> partitions) {
            partitions.forEach(liveFrom::remove);
            figures.partitions.set(Math.max(0, figures.partitions.get() - partitions.size()));
        }
    }
}
