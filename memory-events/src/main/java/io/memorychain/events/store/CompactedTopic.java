package io.memorychain.events.store;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.CloseOptions;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A compacted, single-partition topic that a process keeps in memory: the state stores of the embedded schema registry
 * and of the API keys. The topic is created if missing ({@code cleanup.policy=compact}, 1 partition) and checked if it
 * exists (exactly 1 partition; a warning when not compacted); {@link #catchUp} reads it from where this instance is to
 * the current end offset, {@link #write} appends synchronously. Not thread-safe: its owner synchronizes.
 */
public final class CompactedTopic implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(CompactedTopic.class);
    private static final Duration POLL = Duration.ofMillis(100);

    private final String name;
    private final String purpose;
    private final TopicPartition partition;
    private final Duration timeout;
    private final KafkaProducer<byte[], byte[]> producer;
    private final KafkaConsumer<byte[], byte[]> consumer;

    /**
     * Creates the topic if missing, then the producer and the consumer (at the start of the topic).
     *
     * @param clientConfig common client settings ({@code bootstrap.servers}, security, ...)
     * @param replicationFactor when the topic has to be created; -1 for the broker's default
     * @param purpose what the topic is, for messages: "schema registry topic", "API key topic"
     * @param timeout bound on preparing the topic, on each catch-up read and on each write
     * @throws SetupException if the topic cannot be created, inspected or has more than one partition
     */
    public CompactedTopic(
            Map<String, Object> clientConfig, String name, short replicationFactor, String purpose, Duration timeout) {
        this.name = name;
        this.purpose = purpose;
        this.timeout = timeout;
        this.partition = new TopicPartition(name, 0);
        ensure(clientConfig, replicationFactor);
        this.producer =
                new KafkaProducer<>(producerConfig(clientConfig), new ByteArraySerializer(), new ByteArraySerializer());
        try {
            this.consumer = new KafkaConsumer<>(
                    consumerConfig(clientConfig), new ByteArrayDeserializer(), new ByteArrayDeserializer());
            consumer.assign(List.of(partition));
            consumer.seekToBeginning(List.of(partition));
        } catch (RuntimeException e) {
            producer.close(Duration.ZERO);
            throw e;
        }
    }

    public String name() {
        return name;
    }

    /**
     * Hands every record from this instance's position to the current end offset to {@code apply}. When {@code apply}
     * throws, the position goes back to that record (the records after it are not lost: the next catch-up fails there
     * again) and the exception propagates.
     *
     * @throws UnavailableException when the topic cannot be read, or not to its end within the timeout
     */
    public void catchUp(Consumer<ConsumerRecord<byte[], byte[]>> apply) {
        long deadline = System.nanoTime() + timeout.toNanos();
        try {
            long end = consumer.endOffsets(List.of(partition), timeout).get(partition);
            while (consumer.position(partition, timeout) < end) {
                if (System.nanoTime() - deadline > 0) {
                    throw new UnavailableException(
                            "Timed out after " + timeout + " reading " + purpose + " " + name + " up to offset " + end,
                            null);
                }
                for (ConsumerRecord<byte[], byte[]> record : consumer.poll(POLL)) {
                    try {
                        apply.accept(record);
                    } catch (RuntimeException e) {
                        consumer.seek(partition, record.offset());
                        throw e;
                    }
                }
            }
        } catch (KafkaException e) {
            throw new UnavailableException("Cannot read " + purpose + " " + name + ": " + e.getMessage(), e);
        }
    }

    /**
     * Appends a record and waits until it is acknowledged by all in-sync replicas.
     *
     * @param what the record, for messages: "key k1", "the registration of X under subject S"
     * @throws UnavailableException when the write fails or times out
     */
    public void write(byte[] key, byte[] value, String what) {
        try {
            producer.send(new ProducerRecord<>(name, partition.partition(), key, value))
                    .get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            throw new UnavailableException("Cannot write " + what + " to " + name + ": " + e.getCause(), e.getCause());
        } catch (TimeoutException e) {
            throw new UnavailableException("Timed out after " + timeout + " writing " + what + " to " + name, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new UnavailableException("Interrupted while writing " + what + " to " + name, e);
        } catch (KafkaException e) {
            throw new UnavailableException("Cannot write " + what + " to " + name + ": " + e.getMessage(), e);
        }
    }

    /** Closes the producer and the consumer, logging (not throwing) what fails. */
    @Override
    public void close() {
        try {
            producer.close(timeout);
        } catch (RuntimeException e) {
            LOG.warn("Closing the producer of {} {} failed", purpose, name, e);
        }
        try {
            consumer.close(CloseOptions.timeout(timeout));
        } catch (RuntimeException e) {
            LOG.warn("Closing the consumer of {} {} failed", purpose, name, e);
        }
    }

    private void ensure(Map<String, Object> clientConfig, short replicationFactor) {
        try (Admin admin = Admin.create(new HashMap<>(clientConfig))) {
            NewTopic newTopic = new NewTopic(name, 1, replicationFactor)
                    .configs(Map.of(TopicConfig.CLEANUP_POLICY_CONFIG, TopicConfig.CLEANUP_POLICY_COMPACT));
            try {
                admin.createTopics(List.of(newTopic)).all().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
                LOG.info(
                        "Created {} {} (compacted, 1 partition, replication factor {})",
                        purpose,
                        name,
                        replicationFactor < 1 ? "broker default" : replicationFactor);
                return;
            } catch (ExecutionException e) {
                if (!(e.getCause() instanceof TopicExistsException)) {
                    throw new SetupException(
                            "Cannot create " + purpose + " " + name + ": " + e.getCause(), e.getCause());
                }
            }
            TopicDescription description = admin.describeTopics(List.of(name))
                    .allTopicNames()
                    .get(timeout.toMillis(), TimeUnit.MILLISECONDS)
                    .get(name);
            if (description.partitions().size() != 1) {
                throw new SetupException(
                        purpose + " " + name + " must have exactly 1 partition, it has "
                                + description.partitions().size(),
                        null);
            }
            ConfigResource resource = new ConfigResource(ConfigResource.Type.TOPIC, name);
            Config config = admin.describeConfigs(List.of(resource))
                    .all()
                    .get(timeout.toMillis(), TimeUnit.MILLISECONDS)
                    .get(resource);
            ConfigEntry policy = config == null ? null : config.get(TopicConfig.CLEANUP_POLICY_CONFIG);
            if (policy == null || !policy.value().contains(TopicConfig.CLEANUP_POLICY_COMPACT)) {
                LOG.warn(
                        "{} {} is not compacted (cleanup.policy={}): its records may expire",
                        purpose,
                        name,
                        policy == null ? "?" : policy.value());
            }
        } catch (ExecutionException e) {
            throw new SetupException("Cannot inspect " + purpose + " " + name + ": " + e.getCause(), e.getCause());
        } catch (TimeoutException e) {
            throw new SetupException("Timed out after " + timeout + " preparing " + purpose + " " + name, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new SetupException("Interrupted while preparing " + purpose + " " + name, e);
        } catch (KafkaException e) {
            throw new SetupException("Cannot prepare " + purpose + " " + name + ": " + e.getMessage(), e);
        }
    }

    private Map<String, Object> producerConfig(Map<String, Object> clientConfig) {
        Map<String, Object> config = new HashMap<>(clientConfig);
        config.put(ProducerConfig.ACKS_CONFIG, "all");
        config.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        config.put(ProducerConfig.LINGER_MS_CONFIG, 0);
        config.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, timeout.toMillis());
        config.putIfAbsent(ProducerConfig.CLIENT_ID_CONFIG, purpose.replace(' ', '-') + "-producer-" + name);
        return config;
    }

    private Map<String, Object> consumerConfig(Map<String, Object> clientConfig) {
        Map<String, Object> config = new HashMap<>(clientConfig);
        config.remove(ConsumerConfig.GROUP_ID_CONFIG);
        config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        config.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        config.putIfAbsent(ConsumerConfig.CLIENT_ID_CONFIG, purpose.replace(' ', '-') + "-consumer-" + name);
        return config;
    }

    /** The topic could not be created or inspected, or is not usable (more than one partition). */
    public static final class SetupException extends RuntimeException {

        private static final long serialVersionUID = 1L;

        public SetupException(String message, Throwable cause) {
            super(message, cause);
        }
    }

    /** The topic could not be read or written (in time). */
    public static final class UnavailableException extends RuntimeException {

        private static final long serialVersionUID = 1L;

        public UnavailableException(String message, Throwable cause) {
            super(message, cause);
        }
    }
}
