package io.memorychain.api.auth;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Key records in a compacted, single-partition Kafka topic (key = key id, value = JSON with the secret's hash), so
 * every API instance sees the same keys and they survive restarts. Reads are served from memory; the topic is read
 * again when a key id is unknown (a key another instance just issued) or the copy is older than {@code refresh} (so a
 * revocation reaches every instance within that time).
 */
public final class KafkaApiKeyStore implements ApiKeyStore {

    private static final Logger log = LoggerFactory.getLogger(KafkaApiKeyStore.class);
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration POLL = Duration.ofMillis(100);

    private final String topic;
    private final TopicPartition partition;
    private final Duration timeout;
    private final long refreshNanos;
    private final KafkaProducer<byte[], byte[]> producer;
    private final KafkaConsumer<byte[], byte[]> consumer;
    private final Map<String, ApiKeyRecord> records = new LinkedHashMap<>();
    private long readAt;

    public KafkaApiKeyStore(String bootstrapServers, String topic, short replicationFactor, Duration timeout, Duration refresh) {
        this.topic = topic;
        this.partition = new TopicPartition(topic, 0);
        this.timeout = timeout;
        this.refreshNanos = refresh.toNanos();
        Map<String, Object> client = Map.of(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        ensureTopic(client, replicationFactor);
        Map<String, Object> producerConfig = new HashMap<>(client);
        producerConfig.put(ProducerConfig.ACKS_CONFIG, "all");
        producerConfig.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        producerConfig.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, timeout.toMillis());
        producerConfig.put(ProducerConfig.CLIENT_ID_CONFIG, "api-keys-producer-" + topic);
        Map<String, Object> consumerConfig = new HashMap<>(client);
        consumerConfig.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        consumerConfig.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        consumerConfig.put(ConsumerConfig.CLIENT_ID_CONFIG, "api-keys-consumer-" + topic);
        this.producer = new KafkaProducer<>(producerConfig, new ByteArraySerializer(), new ByteArraySerializer());
        this.consumer = new KafkaConsumer<>(consumerConfig, new ByteArrayDeserializer(), new ByteArrayDeserializer());
        consumer.assign(List.of(partition));
        consumer.seekToBeginning(List.of(partition));
        synchronized (this) {
            catchUp();
        }
        log.info("API keys: {} on topic {}", records.size(), topic);
    }

    @Override
    public synchronized Optional<ApiKeyRecord> find(String keyId) {
        if (!records.containsKey(keyId) || System.nanoTime() - readAt > refreshNanos) {
            catchUp();
        }
        return Optional.ofNullable(records.get(keyId));
    }

    @Override
    public synchronized List<ApiKeyRecord> all() {
        catchUp();
        List<ApiKeyRecord> all = new ArrayList<>(records.values());
        all.sort(Comparator.comparing(ApiKeyRecord::createdAt));
        return all;
    }

    @Override
    public synchronized void save(ApiKeyRecord record) {
        ProducerRecord<byte[], byte[]> out = new ProducerRecord<>(topic, 0, record.keyId().getBytes(StandardCharsets.UTF_8),
                toJson(record));
        try {
            producer.send(out).get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            throw new KeyStoreUnavailableException("cannot write key " + record.keyId() + " to " + topic + ": " + e.getCause(), e);
        } catch (TimeoutException e) {
            throw new KeyStoreUnavailableException("timed out after " + timeout + " writing key " + record.keyId() + " to " + topic, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new KeyStoreUnavailableException("interrupted writing key " + record.keyId(), e);
        }
        records.put(record.keyId(), record);
    }

    @Override
    public synchronized void close() {
        producer.close(timeout);
        consumer.close(timeout);
    }

    private void catchUp() {
        long deadline = System.nanoTime() + timeout.toNanos();
        try {
            long end = consumer.endOffsets(List.of(partition), timeout).get(partition);
            while (consumer.position(partition, timeout) < end) {
                if (System.nanoTime() - deadline > 0) {
                    throw new KeyStoreUnavailableException("timed out after " + timeout + " reading " + topic, null);
                }
                for (ConsumerRecord<byte[], byte[]> record : consumer.poll(POLL)) {
                    apply(record);
                }
            }
            readAt = System.nanoTime();
        } catch (KafkaException e) {
            throw new KeyStoreUnavailableException("cannot read " + topic + ": " + e.getMessage(), e);
        }
    }

    private void apply(ConsumerRecord<byte[], byte[]> record) {
        String keyId = record.key() == null ? null : new String(record.key(), StandardCharsets.UTF_8);
        if (keyId == null) {
            return;
        }
        if (record.value() == null) {
            records.remove(keyId);
            return;
        }
        try {
            records.put(keyId, fromJson(JSON.readTree(record.value())));
        } catch (IOException | RuntimeException e) {
            // one unreadable record must not lock everyone out: skip it, loudly
            log.error("Skipping unreadable key record {} at offset {} of {}: {}", keyId, record.offset(), topic, e.toString());
        }
    }

    static byte[] toJson(ApiKeyRecord r) {
        ObjectNode node = JSON.createObjectNode()
                .put("key_id", r.keyId())
                .put("secret_sha256", r.secretHash())
                .put("principal_id", r.principal().id())
                .put("role", r.principal().role().wireName())
                .put("agent_id", r.principal().agentId())
                .put("created_at", r.createdAt().toString())
                .put("created_by", r.createdBy())
                .put("revoked", r.revoked());
        r.principal().spaces().forEach(node.putArray("spaces")::add);
        return node.toString().getBytes(StandardCharsets.UTF_8);
    }

    static ApiKeyRecord fromJson(JsonNode n) {
        List<String> spaces = new ArrayList<>();
        n.path("spaces").forEach(s -> spaces.add(s.asText()));
        Role role = Role.parse(n.path("role").asText());
        if (role == null) {
            throw new IllegalArgumentException("unknown role " + n.path("role"));
        }
        Principal principal = new Principal(n.path("principal_id").asText(), role, n.path("agent_id").asText(), spaces);
        return new ApiKeyRecord(n.path("key_id").asText(), n.path("secret_sha256").asText(), principal,
                Instant.parse(n.path("created_at").asText()), n.path("created_by").asText(), n.path("revoked").asBoolean());
    }

    private void ensureTopic(Map<String, Object> client, short replicationFactor) {
        try (Admin admin = Admin.create(new HashMap<>(client))) {
            NewTopic newTopic = new NewTopic(topic, 1, replicationFactor)
                    .configs(Map.of(TopicConfig.CLEANUP_POLICY_CONFIG, TopicConfig.CLEANUP_POLICY_COMPACT));
            admin.createTopics(List.of(newTopic)).all().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            log.info("Created API key topic {} (compacted, 1 partition)", topic);
        } catch (ExecutionException e) {
            if (!(e.getCause() instanceof TopicExistsException)) {
                throw new KeyStoreUnavailableException("cannot create " + topic + ": " + e.getCause(), e);
            }
        } catch (TimeoutException e) {
            throw new KeyStoreUnavailableException("timed out after " + timeout + " creating " + topic, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new KeyStoreUnavailableException("interrupted creating " + topic, e);
        }
    }
}
