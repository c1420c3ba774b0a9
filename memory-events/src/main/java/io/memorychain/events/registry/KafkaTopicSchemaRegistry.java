package io.memorychain.events.registry;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.memorychain.events.store.CompactedTopic;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Objects;
import java.util.TreeMap;
import org.apache.avro.Schema;
import org.apache.avro.SchemaCompatibility;
import org.apache.avro.SchemaNormalization;
import org.apache.avro.SchemaParseException;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The embedded default schema registry: registrations live in a compacted, single-partition Kafka topic (normally
 * {@code Topics.schemas()}), so a deployment needs nothing but Kafka. The topic is created if missing
 * ({@code cleanup.policy=compact}, 1 partition, the given replication factor); on start the registry reads it to its
 * end offset to load its state.
 *
 * <p><b>Semantics</b> (those of the Confluent registry, restricted to what the serde needs):
 *
 * <ul>
 *   <li>Global ids are stored in the topic, so they are stable across restarts; a new schema gets the highest id seen
 *       plus one (ids start at 1).
 *   <li>Schemas are compared by their Avro <em>parsing canonical form</em> ({@link SchemaNormalization}), which ignores
 *       docs, defaults, aliases and properties: {@link #register} is idempotent per subject, and the same schema under
 *       another subject gets the same global id.
 *   <li>Every subject is {@code BACKWARD}: a new version must be able to read data written with the subject's latest
 *       version ({@link SchemaCompatibility}); otherwise {@link #register} throws {@link SchemaRegistryException}
 *       naming the incompatibilities, and {@link #isCompatible} answers the same check.
 *   <li>A registration is written synchronously ({@code send().get()}) before its id is returned.
 * </ul>
 *
 * <p><b>Single writer.</b> This registry assumes that one process registers schemas on the topic (embedded, single-node
 * mode). Other processes may read through their own instance: an unknown id or a new registration first re-reads the
 * topic to its end, but two processes registering new schemas at the same moment could assign the same id to different
 * schemas. Deployments with several writing processes should run a real registry and use
 * {@link ConfluentRegistryClient}.
 *
 * <p><b>Record format.</b> One record per (subject, version), written to partition 0, key and value UTF-8 JSON (the
 * layout of Confluent's {@code _schemas} topic, so compaction keeps every version):
 *
 * <pre>
 * key:   {"keytype":"SCHEMA","subject":"memory.requests.v1-value","version":1}
 * value: {"subject":"memory.requests.v1-value","version":1,"id":1,"schema":"{\"type\":\"record\",...}"}
 * </pre>
 *
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

    private final String topic;
    private final CompactedTopic storage;

    // state, guarded by this
    private final Map<Integer, Schema> schemaById = new HashMap<>();
    private final Map<String, Integer> idByCanonicalForm = new HashMap<>();
    private final Map<String, NavigableMap<Integer, Registration>> versionsBySubject = new HashMap<>();
    private int maxId;
    private boolean closed;

    private record Registration(String subject, int version, int id, Schema schema, String canonicalForm) {}

    /**
     * A registry on {@code topic} of the cluster at {@code bootstrapServers}, with the {@linkplain #DEFAULT_TIMEOUT
     * default timeout}.
     */
    public KafkaTopicSchemaRegistry(String bootstrapServers, String topic, short replicationFactor) {
        this(
                Map.of(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers),
                topic,
                replicationFactor,
                DEFAULT_TIMEOUT);
    }

    /**
     * Creates the topic if missing and loads every registration in it.
     *
     * @param clientConfig common client settings ({@code bootstrap.servers}, security, ...) for the admin, producer and
     *     consumer this registry uses
     * @param topic the storage topic, normally {@code Topics.schemas()}
     * @param replicationFactor replication factor used when the topic has to be created
     * @param timeout bound on loading, on each write and on each catch-up read
     * @throws SchemaRegistryException if the topic cannot be created or read, or has more than one partition
     */
    public KafkaTopicSchemaRegistry(
            Map<String, Object> clientConfig, String topic, short replicationFactor, Duration timeout) {
        Objects.requireNonNull(clientConfig, "clientConfig");
        this.topic = Objects.requireNonNull(topic, "topic");
        Objects.requireNonNull(timeout, "timeout");
        if (replicationFactor < 1) {
            throw new IllegalArgumentException("replicationFactor must be at least 1: " + replicationFactor);
        }
        try {
            this.storage = new CompactedTopic(clientConfig, topic, replicationFactor, "schema registry topic", timeout);
        } catch (CompactedTopic.SetupException e) {
            throw new SchemaRegistryException(e.getMessage(), e.getCause());
        }
        try {
            synchronized (this) {
                catchUp();
                LOG.info(
                        "Schema registry on topic {} loaded {} schemas under {} subjects (highest id {})",
                        topic,
                        schemaById.size(),
                        versionsBySubject.size(),
                        maxId);
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
        Registration latest = versions == null || versions.isEmpty()
                ? null
                : versions.lastEntry().getValue();
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
        LOG.info(
                "Registered schema {} under subject {} as version {} with id {}",
                schema.getFullName(),
                subject,
                version,
                id);
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
            throw new SchemaRegistryException(
                    "Unknown schema id " + id + " in schema registry topic " + topic + " (highest id " + maxId + ")");
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
        storage.close();
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
        StringBuilder text = new StringBuilder("Schema ")
                .append(schema.getFullName())
                .append(" is not BACKWARD compatible with version ")
                .append(latest.version())
                .append(" (id ")
                .append(latest.id())
                .append(") of subject ")
                .append(latest.subject())
                .append(": it cannot read data written with that version:");
        for (SchemaCompatibility.Incompatibility incompatibility :
                result.getResult().getIncompatibilities()) {
            text.append(' ')
                    .append(incompatibility.getType())
                    .append(" at ")
                    .append(incompatibility.getLocation())
                    .append(" (")
                    .append(incompatibility.getMessage())
                    .append(");");
        }
        return text.toString();
    }

    private void ensureOpen() {
        if (closed) {
            throw new IllegalStateException("Schema registry on topic " + topic + " is closed");
        }
    }

    /** Reads the topic from this instance's position up to the current end offset. */
    private void catchUp() {
        try {
            storage.catchUp(this::apply);
        } catch (CompactedTopic.UnavailableException e) {
            throw new SchemaRegistryUnavailableException(e.getMessage(), e);
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
                LOG.debug(
                        "Skipping record of type {} at offset {} of {}",
                        key.path("keytype").asText(),
                        record.offset(),
                        topic);
                return;
            }
            JsonNode value = JSON.readTree(record.value());
            String subject = value.path("subject").asText(null);
            int version = value.path("version").asInt(-1);
            int id = value.path("id").asInt(-1);
            String schemaText = value.path("schema").asText(null);
            if (subject == null || version < 1 || id < 1 || schemaText == null) {
                throw new SchemaRegistryException("Malformed registration at offset " + record.offset() + " of " + topic
                        + ": " + new String(record.value(), StandardCharsets.UTF_8));
            }
            Schema schema = new Schema.Parser().parse(schemaText);
            apply(new Registration(subject, version, id, schema, SchemaNormalization.toParsingForm(schema)));
        } catch (IOException | SchemaParseException e) {
            throw new SchemaRegistryException(
                    "Unreadable registration at offset " + record.offset() + " of " + topic + ": " + e.getMessage(), e);
        }
    }

    /** Idempotent: reading back a registration this instance wrote changes nothing. */
    private void apply(Registration registration) {
        versionsBySubject
                .computeIfAbsent(registration.subject(), s -> new TreeMap<>())
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
        try {
            storage.write(
                    key.toString().getBytes(StandardCharsets.UTF_8),
                    value.toString().getBytes(StandardCharsets.UTF_8),
                    "the registration of " + registration.schema().getFullName() + " under subject "
                            + registration.subject());
        } catch (CompactedTopic.UnavailableException e) {
            throw new SchemaRegistryUnavailableException(e.getMessage(), e.getCause());
        }
    }
}
