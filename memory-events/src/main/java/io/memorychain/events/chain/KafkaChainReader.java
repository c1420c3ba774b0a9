package io.memorychain.events.chain;

import io.memorychain.events.registry.SchemaRegistry;
import io.memorychain.events.registry.SchemaRegistryException;
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
import java.util.Set;
import java.util.TreeMap;
import org.apache.avro.generic.GenericRecord;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.utils.Utils;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads an events topic and verifies its chains. Each call takes the end offsets (last stable offsets, as the consumer
 * reads {@code read_committed}) at its start and reads from the beginning of the log up to them, with manual assignment
 * and no consumer group, so it commits nothing and disturbs no one. Values are decoded with their own writer schema
 * ({@link AvroWireSerde#decodeAsWritten}); a record that cannot be decoded breaks its space's chain as
 * {@link VerificationResult.Problem#UNDECODABLE} at the position it occupies. Messages of broken results end with the
 * topic coordinates of the record where the problem was found ({@code [topic-partition@offset]}).
 *
 * <p>Records with a null key are attributed to the space named in the event (they would not be on the space's
 * partition, so they show up as gaps or duplicates if they ever claim a seq); null-key records that cannot be decoded
 * cannot be attributed to any chain and are only logged.
 */
public final class KafkaChainReader {

    private static final Logger log = LoggerFactory.getLogger(KafkaChainReader.class);
    private static final long PROGRESS_EVERY = 100_000;

    private final Map<String, Object> consumerConfig;
    private final String topic;
    private final SchemaRegistry registry;
    private final KeyRing keys;
    private final SignatureMode mode;
    private final Duration stallTimeout;

    /**
     * @param consumerConfig at least {@code bootstrap.servers}; plus security settings as needed. Deserializers,
     *     isolation level, group and commit settings are set by the reader.
     * @param topic the events topic
     * @param registry resolves the writer schema ids of the records
     * @param keys public keys for the signatures
     * @param mode which signatures to check
     */
    public KafkaChainReader(
            Map<String, Object> consumerConfig,
            String topic,
            SchemaRegistry registry,
            KeyRing keys,
            SignatureMode mode) {
        this(consumerConfig, topic, registry, keys, mode, Duration.ofMinutes(2));
    }

    /** As above, failing when no record arrives for {@code stallTimeout} while records remain below the end offsets. */
    public KafkaChainReader(
            Map<String, Object> consumerConfig,
            String topic,
            SchemaRegistry registry,
            KeyRing keys,
            SignatureMode mode,
            Duration stallTimeout) {
        this.consumerConfig = Map.copyOf(consumerConfig);
        this.topic = Objects.requireNonNull(topic, "topic");
        this.registry = Objects.requireNonNull(registry, "registry");
        this.keys = Objects.requireNonNull(keys, "keys");
        this.mode = Objects.requireNonNull(mode, "mode");
        this.stallTimeout = Objects.requireNonNull(stallTimeout, "stallTimeout");
    }

    /**
     * Verifies one space's chain, reading only the partition its key maps to under Kafka's default partitioner and
     * stopping early at the first problem.
     */
    public VerificationResult verifySpace(String space) {
        return headOf(space).result();
    }

    /** As {@link #verifySpace}, with the head verified: the last good seq and its hash. */
    public ChainHead headOf(String space) {
        return headAfter(space, null).head();
    }

    /**
     * Where a verification of one space's chain ended, to resume the next one there: the partition, the offset up to
     * which it was read, and the verified head ({@code events} records, the last {@code seq} and its {@code hash}).
     */
    public record Position(int partition, long nextOffset, long events, long seq, byte[] hash, ChainKeyState keys) {

        public Position {
            hash = hash.clone();
            keys = keys == null ? ChainKeyState.EMPTY : keys;
        }

        public Position(int partition, long nextOffset, long events, long seq, byte[] hash) {
            this(partition, nextOffset, events, seq, hash, ChainKeyState.EMPTY);
        }

        @Override
        public byte[] hash() {
            return hash.clone();
        }
    }

    /** A verdict and, when the chain is intact, where the next verification may resume. */
    public record Resumable(ChainHead head, Position next) {}

    /**
     * As {@link #headOf}, reading only the records after {@code from} (null: from the beginning) and continuing its
     * verified head. The events topic is append-only (the sequencer alone writes it, its retention is unlimited), so
     * the records below {@code from.nextOffset()} are those that were verified; a full verification ({@code from} null,
     * or {@code memory-worker verify}) reads them again. Falls back to the beginning when the partition count changed
     * or the log no longer starts at or before the resumed offset.
     */
    public Resumable headAfter(String space, Position from) {
        Objects.requireNonNull(space, "space");
        byte[] keyBytes = space.getBytes(StandardCharsets.UTF_8);
        try (KafkaConsumer<byte[], byte[]> consumer = consumer()) {
            int partitions = partitionCount(consumer);
            TopicPartition tp = new TopicPartition(topic, Utils.toPositive(Utils.murmur2(keyBytes)) % partitions);
            boolean resume = from != null
                    && from.partition() == tp.partition()
                    && consumer.beginningOffsets(List.of(tp)).get(tp) <= from.nextOffset();
            ChainVerifier chain = resume
                    ? ChainVerifier.resuming(space, keys, mode, from.events(), from.seq(), from.hash(), from.keys())
                    : new ChainVerifier(space, keys, mode);
            String[] where = new String[1];
            long end = scan(
                            consumer,
                            List.of(tp),
                            resume ? Map.of(tp, from.nextOffset()) : Map.of(),
                            record -> {
                                if (record.key() == null
                                        || !space.equals(new String(record.key(), StandardCharsets.UTF_8))) {
                                    return true;
                                }
                                boolean intact = feed(record, space, chain::accept, chain::acceptUndecodable);
                                if (!intact) {
                                    where[0] = coordinates(record);
                                }
                                return intact;
                            },
                            () -> chain.isBroken() ? 1 : 0)
                    .getOrDefault(tp, 0L);
            ChainHead head = chain.head();
            if (where[0] != null || !head.result().ok()) {
                ChainHead broken = where[0] == null
                        ? head
                        : new ChainHead(
                                head.result().withMessageSuffix(where[0]), head.seq(), head.hash(), head.keys());
                return new Resumable(broken, null);
            }
            return new Resumable(
                    head,
                    new Position(tp.partition(), end, head.result().events(), head.seq(), head.hash(), head.keys()));
        }
    }

    /** Verifies every space found in the topic; the map is sorted by space. */
    public Map<String, VerificationResult> verifyAll() {
        try (KafkaConsumer<byte[], byte[]> consumer = consumer()) {
            int partitions = partitionCount(consumer);
            List<TopicPartition> all = new ArrayList<>(partitions);
            for (int p = 0; p < partitions; p++) {
                all.add(new TopicPartition(topic, p));
            }
            TopicChainVerifier chains = new TopicChainVerifier(keys, mode);
            Map<String, String> locations = new HashMap<>();
            Set<String> broken = new HashSet<>();
            scan(
                    consumer,
                    all,
                    Map.of(),
                    record -> {
                        String space = record.key() == null ? null : new String(record.key(), StandardCharsets.UTF_8);
                        if (space != null && chains.isBroken(space)) {
                            return true;
                        }
                        if (space == null) {
                            GenericRecord event = decodeOrNull(record);
                            if (event == null || event.getSchema().getField("space") == null) {
                                log.warn("Skipping an undecodable record without key at {}", coordinates(record));
                                return true;
                            }
                            space = String.valueOf(event.get("space"));
                            if (chains.isBroken(space)) {
                                return true;
                            }
                        }
                        String key = space;
                        boolean intact = feed(
                                record,
                                key,
                                event -> chains.accept(key, event),
                                reason -> chains.acceptUndecodable(key, reason));
                        if (!intact) {
                            locations.put(key, coordinates(record));
                            broken.add(key);
                        }
                        return true;
                    },
                    broken::size);
            Map<String, VerificationResult> results = new TreeMap<>(chains.results());
            locations.forEach((space, where) -> results.computeIfPresent(space, (s, r) -> r.withMessageSuffix(where)));
            return results;
        }
    }

    private boolean feed(
            ConsumerRecord<byte[], byte[]> record,
            String space,
            java.util.function.Predicate<GenericRecord> accept,
            java.util.function.Predicate<String> undecodable) {
        if (record.value() == null) {
            return undecodable.test("null value (tombstone)");
        }
        GenericRecord event;
        try {
            event = AvroWireSerde.decodeAsWritten(registry, record.value());
        } catch (SchemaRegistryUnavailableException e) {
            throw e;
        } catch (SerializationException | SchemaRegistryException e) {
            return undecodable.test(describe(e));
        }
        return accept.test(event);
    }

    private GenericRecord decodeOrNull(ConsumerRecord<byte[], byte[]> record) {
        if (record.value() == null) {
            return null;
        }
        try {
            return AvroWireSerde.decodeAsWritten(registry, record.value());
        } catch (SchemaRegistryUnavailableException e) {
            throw e;
        } catch (SerializationException | SchemaRegistryException e) {
            return null;
        }
    }

    /**
     * Reads the partitions from their beginning (or the offset {@code from} gives) up to their end offsets at start, or
     * until the sink says stop; returns those end offsets.
     */
    private Map<TopicPartition, Long> scan(
            KafkaConsumer<byte[], byte[]> consumer,
            Collection<TopicPartition> partitions,
            Map<TopicPartition, Long> from,
            RecordSink sink,
            BrokenCount brokenCount) {
        long started = System.nanoTime();
        consumer.assign(partitions);
        Map<TopicPartition, Long> end = consumer.endOffsets(partitions);
        Map<TopicPartition, Long> begin = new HashMap<>(consumer.beginningOffsets(partitions));
        consumer.seekToBeginning(partitions);
        from.forEach((tp, offset) -> {
            consumer.seek(tp, offset);
            begin.put(tp, offset);
        });
        Set<TopicPartition> remaining = new HashSet<>();
        for (TopicPartition tp : partitions) {
            if (end.get(tp) > begin.get(tp)) {
                remaining.add(tp);
            }
        }
        log.info(
                "Verifying {} ({} partition(s), {} record offset(s) to read, signatures {})",
                topic,
                partitions.size(),
                remaining.stream().mapToLong(tp -> end.get(tp) - begin.get(tp)).sum(),
                mode);
        long read = 0;
        long nextProgress = PROGRESS_EVERY;
        long lastProgressAt = System.nanoTime();
        boolean stop = false;
        while (!remaining.isEmpty() && !stop) {
            ConsumerRecords<byte[], byte[]> records = consumer.poll(Duration.ofMillis(200));
            for (ConsumerRecord<byte[], byte[]> record : records) {
                TopicPartition tp = new TopicPartition(record.topic(), record.partition());
                if (record.offset() >= end.get(tp)) {
                    continue;
                }
                read++;
                if (!sink.accept(record)) {
                    stop = true;
                    break;
                }
            }
            if (!records.isEmpty()) {
                lastProgressAt = System.nanoTime();
            }
            List<TopicPartition> done = new ArrayList<>();
            for (TopicPartition tp : remaining) {
                if (consumer.position(tp) >= end.get(tp)) {
                    done.add(tp);
                }
            }
            if (!done.isEmpty()) {
                done.forEach(remaining::remove);
                consumer.pause(done);
                lastProgressAt = System.nanoTime();
            }
            if (read >= nextProgress) {
                long seconds = Math.max(1, (System.nanoTime() - started) / 1_000_000_000L);
                log.info(
                        "{}: {} records read ({} /s), {} of {} partition(s) done, {} broken space(s) so far",
                        topic,
                        read,
                        read / seconds,
                        partitions.size() - remaining.size(),
                        partitions.size(),
                        brokenCount.get());
                nextProgress = (read / PROGRESS_EVERY + 1) * PROGRESS_EVERY;
            }
            if (!remaining.isEmpty() && System.nanoTime() - lastProgressAt > stallTimeout.toNanos()) {
                throw new IllegalStateException("No records from " + remaining + " for " + stallTimeout.toSeconds()
                        + " s while their end offsets have not been reached");
            }
        }
        long millis = Math.max(1, (System.nanoTime() - started) / 1_000_000);
        log.info(
                "{}: {} records read in {} ms ({} /s), {} broken space(s)",
                topic,
                read,
                millis,
                read * 1000 / millis,
                brokenCount.get());
        return end;
    }

    private int partitionCount(KafkaConsumer<byte[], byte[]> consumer) {
        List<PartitionInfo> infos = consumer.partitionsFor(topic);
        if (infos == null || infos.isEmpty()) {
            throw new IllegalArgumentException("Topic " + topic + " does not exist");
        }
        return infos.size();
    }

    private KafkaConsumer<byte[], byte[]> consumer() {
        return ChainConsumers.reader(consumerConfig, "memory-chain-verifier-");
    }

    private static String coordinates(ConsumerRecord<?, ?> record) {
        return " [" + record.topic() + "-" + record.partition() + "@" + record.offset() + "]";
    }

    private static String describe(Exception e) {
        StringBuilder message = new StringBuilder(String.valueOf(e.getMessage()));
        Throwable cause = e.getCause();
        for (int depth = 0; cause != null && depth < 5; depth++, cause = cause.getCause()) {
            message.append(": ").append(cause.getMessage());
        }
        return message.toString();
    }

    @FunctionalInterface
    private interface RecordSink {
        boolean accept(ConsumerRecord<byte[], byte[]> record);
    }

    @FunctionalInterface
    private interface BrokenCount {
        int get();
    }
}
