package io.memorychain.events.registry;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Objects;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.avro.Schema;
import org.apache.avro.SchemaCompatibility;
import org.apache.avro.SchemaNormalization;
import org.apache.avro.SchemaParseException;
import org.apache.kafka.clients.CommonClientConfigs;
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
 * The embedded default schema registry: registrations live in a compacted, single-partition Kafka topic (normally
 * {@code Topics.schemas()}), so a deployment needs nothing but Kafka. The topic is created if missing
 * ({@code cleanup.policy=compact}, 1 partition, the given replication factor); on start the registry reads it to its
 * end offset to load its state.
 *
 * <p><b>Semantics</b> (those of the Confluent registry, restricted to what the serde needs):
 * <ul>
 *   <li>Global ids are stored in the topic, so they are stable across restarts; a new schema gets the highest id
 *       seen plus one (ids start at 1).</li>
 *   <li>Schemas are compared by their Avro <em>parsing canonical form</em> ({@link SchemaNormalization}), which
 *       ignores docs, defaults, aliases and properties: {@link #register} is idempotent per subject, and the same
 *       schema under another subject gets the same global id.</li>
 *   <li>Every subject is {@code BACKWARD}: a new version must be able to read data written with the subject's latest
 *       version ({@link SchemaCompatibility}); otherwise {@link #register} throws {@link SchemaRegistryException}
 *       naming the incompatibilities, and {@link #isCompatible} answers the same check.</li>
 *   <li>A registration is written synchronously ({@code send().get()}) before its id is returned.</li>
 * </ul>
 *
 * <p><b>Single writer.</b> This registry assumes that one process registers schemas on the topic (embedded,
 * single-node mode). Other processes may read through their own instance: an unknown id or a new registration
 * first re-reads the topic to its end, but two processes registering new schemas at the same moment could assign the
 * same id to different schemas. Deployments with several writing processes should run a real registry and use
 * {@link ConfluentRegistryClient}.
 *
 * <p><b>Record format.</b> One record per (subject, version), written to partition 0, key and value UTF-8 JSON
 * (the layout of Confluent's {@code _schemas} topic, so compaction keeps every version):
 * <pre>
 * key:   {"keytype":"SCHEMA","subject":"memory.requests.v1-value","version":1}
 * value: {"subject":"memory.requests.v1-value","version":1,"id":1,"schema":"{\"type\":\"record\",...}"}
 * </pre>
 * {@code schema} is the schema's full JSON as registered. Records with another {@code keytype} are skipped (room for
 * future record types such as configuration); tombstones are ignored.
 *
 * <p>Thread-safe (all operations are synchronized). {@link #close()} closes the Kafka clients.
 */
public final class KafkaTopicSchemaRegistry implements SchemaRegistry {

    /** Bound on loading, on each write and on each catch-up read when none is given. */
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(30);
    static final String KEYTYPE_SCHEMA = "SCHEMA";

    private static final Logger LOG = LoggerFactory.getLogger(KafkaTopicSchemaRegistry.class);
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration POLL = Duration.ofMillis(100);

    private final String topic;
    private final TopicPartition partition;
    private final Duration timeout;
    private final KafkaProducer<byte[], byte[]> producer;
    private final KafkaConsumer<byte[], byte[]> consumer;

    // state, guarded by this
    private final Map<Integer, Schema> schemaById = new HashMap<>();
    private final Map<String, Integer> idByCanonicalForm = new HashMap<>();
    private final Map<String, NavigableMap<Integer, Registration>> versionsBySubject = new HashMap<>();
    private int maxId;
    private boolean closed;

    private record Registration(String subject, int version, int id, Schema schema, String canonicalForm) {
    }

    /**
     * A registry on {@code topic} of the cluster at {@code bootstrapServers}, with the
     * {@linkplain #DEFAULT_TIMEOUT default timeout}.
     */
    public KafkaTopicSchemaRegistry(String bootstrapServers, String topic, short replicationFactor) {
        this(Map.of(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers), topic, replicationFactor,
                DEFAULT_TIMEOUT);
    }

    /**
     * Creates the topic if missing and loads every registration in it.
     *
     * @param clientConfig      common client settings ({@code bootstrap.servers}, security, ...) for the admin,
     *                          producer and consumer this registry uses
     * @param topic             the storage topic, normally {@code Topics.schemas()}
     * @param replicationFactor replication factor used when the topic has to be created
     * @param timeout           bound on loading, on each write and on each catch-up read
     * @throws SchemaRegistryException if the topic cannot be created or read, or has more than one partition
     */
    public KafkaTopicSchemaRegistry(Map<String, Object> clientConfig, String topic, short replicationFactor,
                                    Duration timeout) {
        Objects.requireNonNull(clientConfig, "clientConfig");
        this.topic = Objects.requireNonNull(topic, "topic");
        this.timeout = Objects.requireNonNull(timeout, "timeout");
        if (replicationFactor < 1) {
            throw new IllegalArgumentException("replicationFactor must be at least 1: " + replicationFactor);
        }
        this.partition = new TopicPartition(topic, 0);
        ensureTopic(clientConfig, replicationFactor);
        this.producer = new KafkaProducer<>(producerConfig(clientConfig), new ByteArraySerializer(),
                new ByteArraySerializer());
        try {
            this.consumer = new KafkaConsumer<>(consumerConfig(clientConfig), new ByteArrayDeserializer(),
                    new ByteArrayDeserializer());
        } catch (RuntimeException e) {
            producer.close(Duration.ZERO);
            throw e;
        }
        try {
            consumer.assign(List.of(partition));
            consumer.seekToBeginning(List.of(partition));
            synchronized (this) {
                catchUp();
                LOG.info("Schema registry on topic {} loaded {} schemas under {} subjects (highest id {})",
                        topic, schemaById.size(), versionsBySubject.size(), maxId);
            }
        } catch (RuntimeException e) {
            close();
            throw e;
        }
    }

    /** The storage topic. */
    public String topic() {
        return topic;
    }

    @Override
    public synchronized int register(String subject, Schema schema) {
        Objects.requireNonNull(subject, "subject");
        Objects.requireNonNull(schema, "schema");
        ensureOpen();
        String canonicalForm = SchemaNormalization.toParsingForm(schema);
        Integer existing = idUnderSubject(subject, canonicalForm);
        if (existing != null) {
            return existing;
        }
        catchUp();
        existing = idUnderSubject(subject, canonicalForm);
        if (existing != null) {
            return existing;
        }
        NavigableMap<Integer, Registration> versions = versionsBySubject.get(subject);
        Registration latest = versions == null || versions.isEmpty() ? null : versions.lastEntry().getValue();
        if (latest != null) {
            String problem = incompatibility(schema, latest);
            if (problem != null) {
                throw new SchemaRegistryException(problem);
            }
        }
        Integer knownId = idByCanonicalForm.get(canonicalForm);
        int id = knownId != null ? knownId : maxId + 1;
        int version = latest == null ? 1 : latest.version() + 1;
        Registration registration = new Registration(subject, version, id, schema, canonicalForm);
        write(registration);
        apply(registration);
        LOG.info("Registered schema {} under subject {} as version {} with id {}", schema.getFullName(), subject,
                version, id);
        return id;
    }

    @Override
    public synchronized Schema byId(int id) {
        ensureOpen();
        Schema schema = schemaById.get(id);
        if (schema == null) {
            catchUp();
            schema = schemaById.get(id);
        }
        if (schema == null) {
            throw new SchemaRegistryException("Unknown schema id " + id + " in schema registry topic " + topic
                    + " (highest id " + maxId + ")");
        }
        return schema;
    }

    @Override
    public synchronized boolean isCompatible(String subject, Schema schema) {
        Objects.requireNonNull(subject, "subject");
        Objects.requireNonNull(schema, "schema");
        ensureOpen();
        catchUp();
        NavigableMap<Integer, Registration> versions = versionsBySubject.get(subject);
        if (versions == null || versions.isEmpty()) {
            return true;
        }
        return incompatibility(schema, versions.lastEntry().getValue()) == null;
    }

    /** Closes the producer and the consumer; later calls throw {@link IllegalStateException}. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            producer.close(timeout);
        } catch (RuntimeException e) {
            LOG.warn("Closing the schema registry producer for {} failed", topic, e);
        }
        if (consumer != null) {
            try {
                consumer.close(CloseOptions.timeout(timeout));
            } catch (RuntimeException e) {
                LOG.warn("Closing the schema registry consumer for {} failed", topic, e);
            }
        }
    }

    private Integer idUnderSubject(String subject, String canonicalForm) {
        NavigableMap<Integer, Registration> versions = versionsBySubject.get(subject);
        if (versions == null) {
            return null;
        }
        for (Registration registration : versions.values()) {
            if (registration.canonicalForm().equals(canonicalForm)) {
                return registration.id();
            }
        }
        return null;
    }

    /** Null when {@code schema} can read data written with {@code latest} (BACKWARD), else a description. */
    private static String incompatibility(Schema schema, Registration latest) {
        SchemaCompatibility.SchemaPairCompatibility result =
                SchemaCompatibility.checkReaderWriterCompatibility(schema, latest.schema());
        if (result.getType() == SchemaCompatibility.SchemaCompatibilityType.COMPATIBLE) {
            return null;
        }
        StringBuilder text = new StringBuilder("Schema ").append(schema.getFullName())
                .append(" is not BACKWARD compatible with version ").append(latest.version())
                .append(" (id ").append(latest.id()).append(") of subject ").append(latest.subject())
                .append(": it cannot read data written with that version:");
        for (SchemaCompatibility.Incompatibility incompatibility : result.getResult().getIncompatibilities()) {
            text.append(' ').append(incompatibility.getType()).append(" at ").append(incompatibility.getLocation())
                    .append(" (").append(incompatibility.getMessage()).append(");");
        }
        return text.toString();
    }

    private void ensureOpen() {
        if (closed) {
            throw new IllegalStateException("Schema registry on topic " + topic + " is closed");
        }
    }

    /** Reads the topic from the consumer's position up to the current end offset. */
    private void catchUp() {
        long deadline = System.nanoTime() + timeout.toNanos();
        try {
            long end = consumer.endOffsets(List.of(partition), timeout).get(partition);
            while (consumer.position(partition, timeout) < end) {
                if (System.nanoTime() - deadline > 0) {
                    throw new SchemaRegistryUnavailableException("Timed out after " + timeout + " reading schema registry topic "
                            + topic + " up to offset " + end, null);
                }
                for (ConsumerRecord<byte[], byte[]> record : consumer.poll(POLL)) {
                    try {
                        apply(record);
                    } catch (RuntimeException e) {
                        // rewind so that the records after it are not lost: the next catch-up fails here again
                        consumer.seek(partition, record.offset());
                        throw e;
                    }
                }
            }
        } catch (KafkaException e) {
            throw new SchemaRegistryUnavailableException("Cannot read schema registry topic " + topic + ": " + e.getMessage(), e);
        }
    }

    private void apply(ConsumerRecord<byte[], byte[]> record) {
        if (record.key() == null || record.value() == null) {
            LOG.debug("Skipping tombstone at offset {} of {}", record.offset(), topic);
            return;
        }
        try {
            JsonNode key = JSON.readTree(record.key());
            if (!KEYTYPE_SCHEMA.equals(key.path("keytype").asText())) {
                LOG.debug("Skipping record of type {} at offset {} of {}", key.path("keytype").asText(),
                        record.offset(), topic);
                return;
            }
            JsonNode value = JSON.readTree(record.value());
            String subject = value.path("subject").asText(null);
            int version = value.path("version").asInt(-1);
            int id = value.path("id").asInt(-1);
            String schemaText = value.path("schema").asText(null);
            if (subject == null || version < 1 || id < 1 || schemaText == null) {
                throw new SchemaRegistryException("Malformed registration at offset " + record.offset() + " of "
                        + topic + ": " + new String(record.value(), StandardCharsets.UTF_8));
            }
            Schema schema = new Schema.Parser().parse(schemaText);
            apply(new Registration(subject, version, id, schema, SchemaNormalization.toParsingForm(schema)));
        } catch (IOException | SchemaParseException e) {
            throw new SchemaRegistryException("Unreadable registration at offset " + record.offset() + " of " + topic
                    + ": " + e.getMessage(), e);
        }
    }

    /** Idempotent: reading back a registration this instance wrote changes nothing. */
    private void apply(Registration registration) {
        versionsBySubject.computeIfAbsent(registration.subject(), s -> new TreeMap<>())
                .put(registration.version(), registration);
        schemaById.putIfAbsent(registration.id(), registration.schema());
        idByCanonicalForm.putIfAbsent(registration.canonicalForm(), registration.id());
        maxId = Math.max(maxId, registration.id());
    }

    private void write(Registration registration) {
        ObjectNode key = JSON.createObjectNode()
                .put("keytype", KEYTYPE_SCHEMA)
                .put("subject", registration.subject())
                .put("version", registration.version());
        ObjectNode value = JSON.createObjectNode()
                .put("subject", registration.subject())
                .put("version", registration.version())
                .put("id", registration.id())
                .put("schema", registration.schema().toString());
        ProducerRecord<byte[], byte[]> record = new ProducerRecord<>(topic, partition.partition(),
                key.toString().getBytes(StandardCharsets.UTF_8), value.toString().getBytes(StandardCharsets.UTF_8));
        try {
            producer.send(record).get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            throw new SchemaRegistryUnavailableException("Cannot write the registration of " + registration.schema().getFullName()
                    + " under subject " + registration.subject() + " to " + topic + ": " + e.getCause(), e.getCause());
        } catch (TimeoutException e) {
            throw new SchemaRegistryUnavailableException("Timed out after " + timeout + " writing the registration of "
                    + registration.schema().getFullName() + " under subject " + registration.subject() + " to "
                    + topic, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new SchemaRegistryUnavailableException("Interrupted while writing a registration to " + topic, e);
        } catch (KafkaException e) {
            throw new SchemaRegistryUnavailableException("Cannot write a registration to " + topic + ": " + e.getMessage(), e);
        }
    }

    private void ensureTopic(Map<String, Object> clientConfig, short replicationFactor) {
        try (Admin admin = Admin.create(new HashMap<>(clientConfig))) {
            NewTopic newTopic = new NewTopic(topic, 1, replicationFactor)
                    .configs(Map.of(TopicConfig.CLEANUP_POLICY_CONFIG, TopicConfig.CLEANUP_POLICY_COMPACT));
            try {
                admin.createTopics(List.of(newTopic)).all().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
                LOG.info("Created schema registry topic {} (compacted, 1 partition, replication factor {})", topic,
                        replicationFactor);
                return;
            } catch (ExecutionException e) {
                if (!(e.getCause() instanceof TopicExistsException)) {
                    throw new SchemaRegistryException("Cannot create schema registry topic " + topic + ": "
                            + e.getCause(), e.getCause());
                }
            }
            TopicDescription description = admin.describeTopics(List.of(topic)).allTopicNames()
                    .get(timeout.toMillis(), TimeUnit.MILLISECONDS).get(topic);
            if (description.partitions().size() != 1) {
                throw new SchemaRegistryException("Schema registry topic " + topic + " must have exactly 1 partition,"
                        + " it has " + description.partitions().size());
            }
            ConfigResource resource = new ConfigResource(ConfigResource.Type.TOPIC, topic);
            Config config = admin.describeConfigs(List.of(resource)).all()
                    .get(timeout.toMillis(), TimeUnit.MILLISECONDS).get(resource);
            ConfigEntry policy = config == null ? null : config.get(TopicConfig.CLEANUP_POLICY_CONFIG);
            if (policy == null || !policy.value().contains(TopicConfig.CLEANUP_POLICY_COMPACT)) {
                LOG.warn("Schema registry topic {} is not compacted (cleanup.policy={}): registrations may expire",
                        topic, policy == null ? "?" : policy.value());
            }
        } catch (ExecutionException e) {
            throw new SchemaRegistryException("Cannot inspect schema registry topic " + topic + ": " + e.getCause(),
                    e.getCause());
        } catch (TimeoutException e) {
            throw new SchemaRegistryException("Timed out after " + timeout + " preparing schema registry topic "
                    + topic, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new SchemaRegistryException("Interrupted while preparing schema registry topic " + topic, e);
        } catch (KafkaException e) {
            throw new SchemaRegistryException("Cannot prepare schema registry topic " + topic + ": " + e.getMessage(),
                    e);
        }
    }

    private Map<String, Object> producerConfig(Map<String, Object> clientConfig) {
        Map<String, Object> config = new HashMap<>(clientConfig);
        config.put(ProducerConfig.ACKS_CONFIG, "all");
        config.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        config.put(ProducerConfig.LINGER_MS_CONFIG, 0);
        config.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, timeout.toMillis());
        config.putIfAbsent(ProducerConfig.CLIENT_ID_CONFIG, "schema-registry-producer-" + topic);
        return config;
    }

    private Map<String, Object> consumerConfig(Map<String, Object> clientConfig) {
        Map<String, Object> config = new HashMap<>(clientConfig);
        config.remove(ConsumerConfig.GROUP_ID_CONFIG);
        config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        config.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        config.putIfAbsent(ConsumerConfig.CLIENT_ID_CONFIG, "schema-registry-consumer-" + topic);
        return config;
    }
}
