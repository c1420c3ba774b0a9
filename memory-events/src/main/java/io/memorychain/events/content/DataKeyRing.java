package io.memorychain.events.content;

import io.memorychain.avro.DataKeyRecord;
import io.memorychain.events.registry.SchemaRegistry;
import io.memorychain.events.serde.AvroWireSerde;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.kafka.clients.consumer.CloseOptions;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The data keys of the compacted key topic ({@code memory.keys.v1}, docs/architecture.md §12), read committed into
 * memory and unwrapped with the master key. A key asked for and not known yet makes the ring read the topic up to its
 * current end offsets first: the sequencer commits a key in the transaction of the first event that uses it, so a
 * reader that has that event finds the key. A destroyed key (a record without key material) answers "erased".
 * Thread-safe: reads of known keys take no lock; catching up is serialized.
 */
public final class DataKeyRing implements DataKeys, AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(DataKeyRing.class);
    private static final Duration POLL = Duration.ofMillis(100);
    /**
     * How long the broker may hold the ring's empty fetches. A poll leaves a fetch in flight, and the broker answers a
     * connection's requests in order: at Kafka's default (500 ms) the next catch-up's end-offset look-up waited behind
     * that parked fetch, so every new memory's key (the projection decrypting it for a write's read-back) took ~500 ms.
     * The ring fetches only while it catches up, so a short wait costs nothing while idle.
     */
    static final int FETCH_MAX_WAIT_MS = 5;

    private final String topic;
    private final MasterKey master;
    private final AvroWireSerde<DataKeyRecord> serde;
    private final KafkaConsumer<byte[], byte[]> consumer;
    private final Duration timeout;
    private final Map<String, DataKey> keys = new ConcurrentHashMap<>();
    private List<TopicPartition> partitions = List.of();
    private volatile long lastCatchUp = System.nanoTime();

    /**
     * @param clientConfig common client settings ({@code bootstrap.servers}, security, ...)
     * @param topic the key topic (from {@code Topics})
     * @param master the master key the data keys are wrapped with
     * @param timeout bound on each catch-up
     */
    public DataKeyRing(
            Map<String, Object> clientConfig,
            String topic,
            SchemaRegistry registry,
            MasterKey master,
            Duration timeout) {
        this.topic = topic;
        this.master = master;
        this.timeout = timeout;
        this.serde = AvroWireSerde.forValues(registry, DataKeyRecord.class);
        Map<String, Object> config = new HashMap<>(clientConfig);
        config.put(
                ConsumerConfig.ISOLATION_LEVEL_CONFIG,
                IsolationLevel.READ_COMMITTED.name().toLowerCase(Locale.ROOT));
        config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        config.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        config.put(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, FETCH_MAX_WAIT_MS);
        config.remove(ConsumerConfig.GROUP_ID_CONFIG);
        config.putIfAbsent(
                ConsumerConfig.CLIENT_ID_CONFIG, "data-key-ring-" + topic + "-" + System.identityHashCode(this));
        this.consumer = new KafkaConsumer<>(config, new ByteArrayDeserializer(), new ByteArrayDeserializer());
    }

    /** The map key of a memory's data key, also the record key on the topic. */
    public static String recordKey(String space, String memoryId) {
        return space + "\0" + memoryId;
    }

    @Override
    public DataKey find(String space, String memoryId) {
        String key = recordKey(space, memoryId);
        DataKey known = keys.get(key);
        if (known != null && !known.erased()) {
            catchUpIfStale(); // a live key may have been destroyed since: erasure must show at once
            return keys.get(key);
        }
        if (known != null) {
            return known;
        }
        catchUp();
        DataKey found = keys.get(key);
        return found != null ? found : awaitCommitted(key);
    }

    /**
     * Waits, at most the ring's timeout, for a key that is not on the topic's committed part yet. The sequencer commits
     * a key in the transaction of the event that uses it, but the transaction's commit markers reach the partitions one
     * by one: a reader can see the event committed a moment before the key topic's last stable offset passes the key
     * (seen under heavy load: the event went to the dead-letter topic, and its write was lost to the views). Null when
     * it never comes (a broken invariant, or a key topic that is not the chain's).
     */
    private synchronized DataKey awaitCommitted(String key) {
        if (partitions.isEmpty()) {
            return null; // no key topic: nothing will come
        }
        long started = System.nanoTime();
        long deadline = started + timeout.toNanos();
        try {
            while (System.nanoTime() - deadline < 0) {
                for (ConsumerRecord<byte[], byte[]> record : consumer.poll(POLL)) {
                    apply(record); // poll returns what became committed meanwhile, waiting up to POLL for it
                }
                DataKey found = keys.get(key);
                if (found != null) {
                    log.debug(
                            "Data key {} of {} committed {} ms after its event was read",
                            key.replace('\0', '/'),
                            topic,
                            (System.nanoTime() - started) / 1_000_000);
                    return found;
                }
            }
        } catch (KafkaException e) {
            throw new KeysUnavailableException("Cannot read the key topic " + topic + ": " + e.getMessage(), e);
        }
        log.warn("No data key {} on {} within {}", key.replace('\0', '/'), topic, timeout);
        return null;
    }

    /** Reads the topic up to its current end offsets. */
    public synchronized void catchUp() {
        long deadline = System.nanoTime() + timeout.toNanos();
        try {
            assignNewPartitions();
            Map<TopicPartition, Long> end = consumer.endOffsets(partitions, timeout);
            while (behind(end)) {
                if (System.nanoTime() - deadline > 0) {
                    throw new KeysUnavailableException(
                            "Timed out after " + timeout + " reading the key topic " + topic, null);
                }
                for (ConsumerRecord<byte[], byte[]> record : consumer.poll(POLL)) {
                    apply(record);
                }
            }
            lastCatchUp = System.nanoTime();
        } catch (KafkaException e) {
            throw new KeysUnavailableException("Cannot read the key topic " + topic + ": " + e.getMessage(), e);
        }
    }

    /**
     * A live key is re-checked against the topic at most every 200 ms, so an erasure reaches readers quickly. The check
     * takes no lock while the ring is fresh (the readers' hot path); the threads that find it stale catch up one after
     * the other, and the later ones find it fresh again.
     */
    private void catchUpIfStale() {
        if (stale()) {
            synchronized (this) {
                if (stale()) {
                    catchUp();
                }
            }
        }
    }

    private boolean stale() {
        return System.nanoTime() - lastCatchUp > 200_000_000L;
    }

    private void assignNewPartitions() {
        List<PartitionInfo> infos = consumer.partitionsFor(topic, timeout);
        if (infos == null || infos.size() == partitions.size()) {
            return;
        }
        List<TopicPartition> all = infos.stream()
                .map(p -> new TopicPartition(topic, p.partition()))
                .toList();
        List<TopicPartition> added =
                all.stream().filter(p -> !partitions.contains(p)).toList();
        consumer.assign(all);
        consumer.seekToBeginning(added);
        partitions = all;
    }

    private boolean behind(Map<TopicPartition, Long> end) {
        for (Map.Entry<TopicPartition, Long> e : end.entrySet()) {
            if (consumer.position(e.getKey(), timeout) < e.getValue()) {
                return true;
            }
        }
        return false;
    }

    private void apply(ConsumerRecord<byte[], byte[]> record) {
        if (record.value() == null) {
            return;
        }
        DataKeyRecord value;
        try {
            value = serde.deserialize(record.topic(), record.value());
        } catch (RuntimeException e) {
            log.warn(
                    "Undecodable data key record at {}-{}@{}: {}; skipped",
                    record.topic(),
                    record.partition(),
                    record.offset(),
                    e.toString());
            return;
        }
        keys.put(recordKey(value.getSpace(), value.getMemoryId()), toKey(value, master));
    }

    /** The reader's view of a key record: unwrapped with the master key, or erased. */
    public static DataKey toKey(DataKeyRecord value, MasterKey master) {
        if (value.getWrappedKey() == null) {
            return new DataKey(
                    value.getKeyId(),
                    value.getCreatedSeq(),
                    null,
                    value.getDestroyedSeq() == null ? Long.valueOf(-1) : value.getDestroyedSeq());
        }
        if (!master.id().equals(value.getMasterKeyId())) {
            // a process configured with another master key: not the event's fault, so never a dead letter; the task
            // fails (health names it) until the process gets the deployment's key (docs/architecture.md §19)
            throw new KeysUnavailableException(
                    "data key " + value.getKeyId() + " is wrapped by master key "
                            + value.getMasterKeyId() + ", this process has " + master.id()
                            + ": every process that reads the chain's texts needs the same content master key file",
                    null);
        }
        byte[] raw = master.unwrap(value.getSpace(), value.getMemoryId(), ContentCipher.bytes(value.getWrappedKey()));
        return new DataKey(value.getKeyId(), value.getCreatedSeq(), raw, null);
    }

    /**
     * The key topic could not be read: not the event's fault. It extends the registry's "unavailable" so every reader
     * of the chain already treats it right: no dead letter, the task fails and the record is retried.
     */
    public static final class KeysUnavailableException
            extends io.memorychain.events.registry.SchemaRegistryUnavailableException {

        private static final long serialVersionUID = 1L;

        KeysUnavailableException(String message, Throwable cause) {
            super(message, cause);
        }
    }

    @Override
    public void close() {
        try {
            consumer.close(CloseOptions.timeout(timeout));
        } catch (RuntimeException e) {
            log.warn("Closing the key ring's consumer of {} failed", topic, e);
        }
    }
}
