package io.memorychain.api.checkpoints;

import io.memorychain.api.error.ApiException;
import io.memorychain.api.error.ErrorCodes;
import io.memorychain.avro.AgentCheckpoint;
import io.memorychain.events.content.MasterKey;
import io.memorychain.events.registry.SchemaRegistry;
import io.memorychain.events.serde.AvroWireSerde;
import io.memorychain.events.store.CompactedTopic;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.consumer.CloseOptions;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.rocksdb.RocksDBException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Checkpoints on their compacted, single-partition topic ({@code memory.checkpoints.v1}) with a RocksDB view that one
 * consumer thread of this instance builds from the topic's start (so the view survives restarts: it is rebuilt from the
 * topic). Saves and deletes are acknowledged by all in-sync replicas, then wait until this instance's view has applied
 * them (read-your-write); loads answer from the view alone.
 */
public final class KafkaCheckpointStore implements CheckpointStore {

    private static final Logger log = LoggerFactory.getLogger(KafkaCheckpointStore.class);
    private static final Duration POLL = Duration.ofMillis(200);

    private final String topic;
    private final TopicPartition partition;
    private final Duration timeout;
    private final Clock clock;
    private final CheckpointCodec codec;
    private final AvroWireSerde<AgentCheckpoint> serde;
    private final CheckpointView view;
    private final KafkaProducer<byte[], byte[]> producer;
    private final KafkaConsumer<byte[], byte[]> consumer;
    private final Thread applier;
    private final Object appliedLock = new Object();
    /** The next offset the view has not applied (the consumer's position after its last applied batch). */
    private long appliedUpTo;

    private volatile boolean closed;
    private volatile RuntimeException failure;

    /**
     * Creates the topic when missing, then reads it into a fresh view at {@code viewDir} before returning.
     *
     * @param master null: state and metadata are written plain
     */
    public KafkaCheckpointStore(
            String bootstrapServers,
            String topic,
            short replicationFactor,
            SchemaRegistry registry,
            MasterKey master,
            Path viewDir,
            Duration timeout,
            Clock clock) {
        this.topic = topic;
        this.partition = new TopicPartition(topic, 0);
        this.timeout = timeout;
        this.clock = clock;
        this.codec = new CheckpointCodec(master);
        this.serde = AvroWireSerde.forValues(registry, AgentCheckpoint.class);
        Map<String, Object> client = Map.of(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        // the topic is created (compacted, 1 partition) or checked as the key topic is; its own clients are closed
        new CompactedTopic(client, topic, replicationFactor, "checkpoint topic", timeout).close();
        this.view = new CheckpointView(viewDir);
        this.producer =
                new KafkaProducer<>(producerConfig(client), new ByteArraySerializer(), new ByteArraySerializer());
        this.consumer =
                new KafkaConsumer<>(consumerConfig(client), new ByteArrayDeserializer(), new ByteArrayDeserializer());
        consumer.assign(List.of(partition));
        consumer.seekToBeginning(List.of(partition));
        long end = consumer.endOffsets(List.of(partition), timeout).get(partition);
        this.applier = new Thread(this::run, "checkpoint-view-" + topic);
        applier.setDaemon(true);
        applier.start();
        awaitApplied(end);
        log.info("Checkpoints: topic {} read up to offset {} into {}", topic, end, viewDir);
    }

    @Override
    public Checkpoint save(Checkpoint draft) {
        Instant now = clock.instant().truncatedTo(ChronoUnit.MILLIS);
        Optional<Checkpoint> existing = get(draft.thread(), draft.id());
        long position = existing.map(Checkpoint::position).orElseGet(() -> nextPosition(draft.thread()));
        Checkpoint stored = new Checkpoint(
                draft.thread(),
                draft.id(),
                draft.parentId(),
                position,
                existing.map(Checkpoint::createdAt).orElse(now),
                now,
                draft.savedBy(),
                draft.state(),
                draft.metadata());
        AgentCheckpoint record =
                codec.encode(stored, CheckpointCodec.json(draft.state()), CheckpointCodec.json(draft.metadata()));
        long offset = send(
                CheckpointKeys.topicKey(draft.thread(), draft.id()),
                serde.serialize(topic, record),
                "checkpoint " + draft.id());
        awaitApplied(offset + 1);
        return stored;
    }

    @Override
    public Optional<Checkpoint> latest(Checkpoint.ThreadRef thread) {
        checkOpen();
        return view.list(thread, null, 1).stream().findFirst().map(this::decode);
    }

    @Override
    public Optional<Checkpoint> get(Checkpoint.ThreadRef thread, String id) {
        checkOpen();
        return view.get(thread, id).map(this::decode);
    }

    @Override
    public List<Checkpoint> list(Checkpoint.ThreadRef thread, Long before, int limit) {
        checkOpen();
        return view.list(thread, before, limit).stream().map(this::decode).toList();
    }

    @Override
    public int deleteThread(Checkpoint.ThreadRef thread) {
        checkOpen();
        List<String> ids = view.ids(thread);
        List<Future<RecordMetadata>> sent = new ArrayList<>();
        try {
            for (String id : ids) {
                sent.add(producer.send(new ProducerRecord<>(topic, 0, CheckpointKeys.topicKey(thread, id), null)));
            }
            producer.flush();
            long last = -1;
            for (Future<RecordMetadata> f : sent) {
                last = Math.max(
                        last, f.get(timeout.toMillis(), TimeUnit.MILLISECONDS).offset());
            }
            if (last >= 0) {
                awaitApplied(last + 1);
            }
        } catch (ExecutionException | TimeoutException | KafkaException e) {
            throw unavailable("Cannot delete the checkpoints of thread " + thread.threadId(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw unavailable("Interrupted deleting the checkpoints of thread " + thread.threadId(), e);
        }
        return ids.size();
    }

    @Override
    public void close() {
        closed = true;
        consumer.wakeup();
        try {
            applier.join(timeout.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        producer.close(timeout);
        view.close();
    }

    /** Newer than the thread's newest: microseconds now, or one past the newest when the clock has not moved on. */
    private long nextPosition(Checkpoint.ThreadRef thread) {
        Instant now = clock.instant();
        long micros = now.getEpochSecond() * 1_000_000L + now.getNano() / 1_000;
        long newest = view.list(thread, null, 1).stream()
                .findFirst()
                .map(v -> serde.deserialize(topic, v).getPosition())
                .orElse(Long.MIN_VALUE);
        return Math.max(micros, newest + 1);
    }

    private Checkpoint decode(byte[] value) {
        return codec.decode(serde.deserialize(topic, value));
    }

    private long send(byte[] key, byte[] value, String what) {
        checkOpen();
        try {
            return producer.send(new ProducerRecord<>(topic, 0, key, value))
                    .get(timeout.toMillis(), TimeUnit.MILLISECONDS)
                    .offset();
        } catch (ExecutionException | TimeoutException | KafkaException e) {
            throw unavailable("Cannot write " + what + " to " + topic, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw unavailable("Interrupted writing " + what, e);
        }
    }

    /** Waits until the view has applied every record before {@code offset}. */
    private void awaitApplied(long offset) {
        long deadline = System.nanoTime() + timeout.toNanos();
        synchronized (appliedLock) {
            while (appliedUpTo < offset) {
                checkOpen();
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    throw new ApiException(
                            ErrorCodes.TIMEOUT,
                            "the checkpoint view did not reach offset " + offset + " of " + topic + " within "
                                    + timeout);
                }
                try {
                    appliedLock.wait(Math.max(1, TimeUnit.NANOSECONDS.toMillis(left)));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw unavailable("Interrupted waiting for the checkpoint view", e);
                }
            }
        }
    }

    private void run() {
        try {
            while (!closed) {
                for (ConsumerRecord<byte[], byte[]> record : consumer.poll(POLL)) {
                    apply(record);
                }
                long position = consumer.position(partition);
                synchronized (appliedLock) {
                    if (position > appliedUpTo) {
                        appliedUpTo = position;
                        appliedLock.notifyAll();
                    }
                }
            }
        } catch (WakeupException e) {
            if (!closed) {
                failure = new IllegalStateException("the checkpoint view's consumer was woken up", e);
            }
        } catch (RuntimeException | RocksDBException e) {
            failure = new IllegalStateException("the checkpoint view stopped: " + e.getMessage(), e);
            log.error("The checkpoint view of {} stopped", topic, e);
        } finally {
            try {
                consumer.close(CloseOptions.timeout(timeout));
            } catch (RuntimeException e) {
                log.warn("Closing the checkpoint consumer of {} failed", topic, e);
            }
            synchronized (appliedLock) {
                appliedLock.notifyAll();
            }
        }
    }

    private void apply(ConsumerRecord<byte[], byte[]> record) throws RocksDBException {
        CheckpointKeys.Parsed key = record.key() == null ? null : CheckpointKeys.parse(record.key());
        if (key == null) {
            log.warn("Skipping a record without a checkpoint key at offset {} of {}", record.offset(), topic);
            return;
        }
        long position = 0;
        if (record.value() != null) {
            try {
                position = serde.deserialize(topic, record.value()).getPosition();
            } catch (RuntimeException e) {
                // one unreadable record must not stop every thread's checkpoints: skip it, loudly
                log.error(
                        "Skipping an unreadable checkpoint at offset {} of {}: {}",
                        record.offset(),
                        topic,
                        e.toString());
                return;
            }
        }
        view.apply(key.thread(), key.id(), position, record.value());
    }

    private void checkOpen() {
        if (closed) {
            throw new ApiException(ErrorCodes.UNAVAILABLE, "the service is shutting down");
        }
        RuntimeException failed = failure;
        if (failed != null) {
            throw new ApiException(ErrorCodes.UNAVAILABLE, failed.getMessage());
        }
    }

    private static ApiException unavailable(String message, Exception cause) {
        log.warn("{}: {}", message, cause.toString());
        return new ApiException(ErrorCodes.UNAVAILABLE, message + ": " + cause.getMessage());
    }

    private Map<String, Object> producerConfig(Map<String, Object> client) {
        Map<String, Object> config = new HashMap<>(client);
        config.put(ProducerConfig.ACKS_CONFIG, "all");
        config.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        config.put(ProducerConfig.LINGER_MS_CONFIG, 0);
        config.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, timeout.toMillis());
        config.put(ProducerConfig.CLIENT_ID_CONFIG, "checkpoint-producer-" + topic);
        return config;
    }

    private Map<String, Object> consumerConfig(Map<String, Object> client) {
        Map<String, Object> config = new HashMap<>(client);
        config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        config.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        config.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        config.put(ConsumerConfig.CLIENT_ID_CONFIG, "checkpoint-view-" + topic);
        return config;
    }
}
