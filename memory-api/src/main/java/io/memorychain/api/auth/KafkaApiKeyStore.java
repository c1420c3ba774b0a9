package io.memorychain.api.auth;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.memorychain.events.store.CompactedTopic;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Key records in a compacted, single-partition Kafka topic (key = key id, value = JSON with the secret's hash), so
 * every API instance sees the same keys and they survive restarts. Reads are served from memory; the topic is read
 * again when a key id is unknown (a key another instance just issued) or the copy is older than {@code refresh} (so a
 * revocation reaches every instance within that time).
 */
final class KafkaApiKeyStore implements ApiKeyStore {

    private boolean closed;
    private static final Logger log = LoggerFactory.getLogger(KafkaApiKeyStore.class);
    private static final ObjectMapper JSON = new ObjectMapper();

    private final CompactedTopic topic;
    private final long refreshNanos;
    private final Map<String, ApiKeyRecord> records = new LinkedHashMap<>();
    private long readAt;

    public KafkaApiKeyStore(
            String bootstrapServers, String topic, short replicationFactor, Duration timeout, Duration refresh) {
        this.refreshNanos = refresh.toNanos();
        try {
            this.topic = new CompactedTopic(
                    Map.of(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers),
                    topic,
                    replicationFactor,
                    "API key topic",
                    timeout);
        } catch (CompactedTopic.SetupException e) {
            throw new KeyStoreUnavailableException(e.getMessage(), e);
        }
        try {
            synchronized (this) {
                catchUp();
            }
        } catch (RuntimeException e) {
            this.topic.close();
            throw e;
        }
        log.info("API keys: {} on topic {}", records.size(), topic);
    }

    @Override
    public synchronized Optional<ApiKeyRecord> find(String keyId) {
        ensureOpen();
        if (!records.containsKey(keyId) || System.nanoTime() - readAt > refreshNanos) {
            catchUp();
        }
        return Optional.ofNullable(records.get(keyId));
    }

    @Override
    public synchronized List<ApiKeyRecord> all() {
        ensureOpen();
        catchUp();
        List<ApiKeyRecord> all = new ArrayList<>(records.values());
        all.sort(Comparator.comparing(ApiKeyRecord::createdAt));
        return all;
    }

    @Override
    public synchronized void save(ApiKeyRecord record) {
        ensureOpen();
        try {
            topic.write(record.keyId().getBytes(StandardCharsets.UTF_8), toJson(record), "key " + record.keyId());
        } catch (CompactedTopic.UnavailableException e) {
            throw new KeyStoreUnavailableException(e.getMessage(), e);
        }
        records.put(record.keyId(), record);
    }

    @Override
    public synchronized void close() {
        closed = true;
        topic.close();
    }

    /**
     * A call racing the service's shutdown gets 503 (the caller retries elsewhere), not a 500 from a closed consumer.
     */
    private void ensureOpen() {
        if (closed) {
            throw new KeyStoreUnavailableException("the service is shutting down", null);
        }
    }

    private void catchUp() {
        try {
            topic.catchUp(this::apply);
        } catch (CompactedTopic.UnavailableException e) {
            throw new KeyStoreUnavailableException(e.getMessage(), e);
        }
        readAt = System.nanoTime();
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
            log.error(
                    "Skipping unreadable key record {} at offset {} of {}: {}",
                    keyId,
                    record.offset(),
                    topic.name(),
                    e.toString());
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
        Principal principal = new Principal(
                n.path("principal_id").asText(), role, n.path("agent_id").asText(), spaces);
        return new ApiKeyRecord(
                n.path("key_id").asText(),
                n.path("secret_sha256").asText(),
                principal,
                Instant.parse(n.path("created_at").asText()),
                n.path("created_by").asText(),
                n.path("revoked").asBoolean());
    }
}
