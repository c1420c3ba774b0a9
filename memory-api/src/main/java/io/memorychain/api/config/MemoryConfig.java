package io.memorychain.api.config;

import io.memorychain.domain.Rules;
import io.memorychain.domain.governance.GovernancePolicy;
import io.micronaut.context.annotation.ConfigurationProperties;
import io.micronaut.core.annotation.Nullable;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotEmpty;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Everything under {@code memory.*} in application.yml (or MEMORY_* environment variables). Absent
 * {@code memory.kafka.bootstrap-servers} means: start the embedded single-node broker. Absent
 * {@code memory.registry.url} means: the embedded registry stored in a compacted Kafka topic.
 */
@ConfigurationProperties("memory")
public class MemoryConfig {

    /** Root of everything this instance writes: kafka/, streams/, keys/. */
    @NotNull
    private Path dataDir = Path.of("data");

    /** Prefix of every topic name (and of the Streams application ids): gives tests their own topics. */
    @NotNull
    @Pattern(regexp = "[A-Za-z0-9._-]*")
    private String topicPrefix = "";

    /**
     * Base of the two Streams application ids ({@code -sequencer}, {@code -projector}); the topic prefix is prepended.
     */
    @NotBlank
    @Pattern(regexp = "[A-Za-z0-9._-]+")
    private String applicationId = "memory-chain";

    /**
     * This instance's stable name within the application, for Kafka static group membership (a restarted instance takes
     * its partitions back at once). Absent: the host name. Set it when several instances run on one host.
     */
    @Nullable
    @Pattern(regexp = "[A-Za-z0-9._-]+")
    private String instanceId;

    /**
     * Encrypt the memories' texts on the chain under per-memory data keys (docs/architecture.md §12, erasure), so an
     * erasure makes them unreadable everywhere. On by default; off keeps them plain (erasure then only tombstones).
     */
    private boolean contentEncryption = true;

    /**
     * The master key wrapping the data keys; absent: {@code <data-dir>/keys/content-master.key} (created if missing).
     */
    @Nullable
    private Path contentKeyFile;

    /** Largest memory or block content, in UTF-8 bytes; larger is 413 TOO_LARGE. */
    @Min(1)
    @Max(10 * 1024 * 1024)
    private int maxContentBytes = Rules.DEFAULT_MAX_CONTENT_BYTES;

    /** Most memories one consolidation may supersede. */
    @Min(1)
    @Max(10_000)
    private int maxConsolidationInputs = Rules.DEFAULT_MAX_CONSOLIDATION_INPUTS;

    /** How long a write waits for its outcome and for the projection to apply it before answering 503 TIMEOUT. */
    @NotNull
    private Duration writeTimeout = Duration.ofSeconds(10);

    /** How long startup waits for the broker and the Streams applications. */
    @NotNull
    private Duration startupTimeout = Duration.ofMinutes(2);

    /** The block labels that exist (PUT /blocks/{label} with another label is UNKNOWN_BLOCK_LABEL). */
    @NotEmpty
    private List<String> blockLabels = List.of("persona", "user_profile", "goals", "knowledge", "critical");

    /**
     * Profile fields whose change needs the user's consent (docs/architecture.md §21, seed 004 §10). Any field not
     * listed in {@code consent-benign-fields} is treated as sensitive; this list documents the intent.
     */
    @NotNull
    private List<String> consentSensitiveFields =
            List.copyOf(new java.util.TreeSet<>(GovernancePolicy.DEFAULT_SENSITIVE));

    /** Profile fields that apply without consent when corroborated (two distinct signals, or worker:tom HIGH). */
    @NotNull
    private List<String> consentBenignFields = List.copyOf(new java.util.TreeSet<>(GovernancePolicy.DEFAULT_BENIGN));

    /** How long a consent request can be granted (chain time). */
    @NotNull
    private Duration consentWindow = GovernancePolicy.DEFAULT_CONSENT_WINDOW;

    /**
     * Block labels whose change by an actor that is neither a user, an admin nor an approved reflection raises a
     * critical-change alert (seed 001 §12.5). Labels that are not block labels are ignored.
     */
    @NotNull
    private List<String> criticalLabels =
            List.copyOf(new java.util.TreeSet<>(GovernancePolicy.DEFAULT_CRITICAL_LABELS));

    /**
     * The categories and per-agent allowlists file (docs/architecture.md §13, see categories.yaml). Absent: the
     * {@code categories.yaml} shipped with memory-api.
     */
    @Nullable
    private Path categoriesFile;

    private final Kafka kafka;
    private final Registry registry;
    private final Embedded embedded;

    public MemoryConfig(Kafka kafka, Registry registry, Embedded embedded) {
        this.kafka = kafka;
        this.registry = registry;
        this.embedded = embedded;
    }

    public Path getDataDir() {
        return dataDir;
    }

    public void setDataDir(Path dataDir) {
        this.dataDir = dataDir;
    }

    public String getTopicPrefix() {
        return topicPrefix;
    }

    public void setTopicPrefix(String topicPrefix) {
        this.topicPrefix = topicPrefix;
    }

    public String getApplicationId() {
        return applicationId;
    }

    public void setApplicationId(String applicationId) {
        this.applicationId = applicationId;
    }

    public java.util.Optional<String> getInstanceId() {
        return java.util.Optional.ofNullable(instanceId);
    }

    public void setInstanceId(@Nullable String instanceId) {
        this.instanceId = instanceId;
    }

    /** The instance id in effect: {@code memory.instance-id}, else the host name. */
    public String instanceName() {
        return getInstanceId().orElseGet(io.memorychain.projector.MemoryChainRuntime.Settings::defaultInstanceId);
    }

    public boolean isContentEncryption() {
        return contentEncryption;
    }

    public void setContentEncryption(boolean contentEncryption) {
        this.contentEncryption = contentEncryption;
    }

    public java.util.Optional<Path> getContentKeyFile() {
        return java.util.Optional.ofNullable(contentKeyFile);
    }

    public void setContentKeyFile(@Nullable Path contentKeyFile) {
        this.contentKeyFile = contentKeyFile;
    }

    public int getMaxContentBytes() {
        return maxContentBytes;
    }

    public void setMaxContentBytes(int maxContentBytes) {
        this.maxContentBytes = maxContentBytes;
    }

    public int getMaxConsolidationInputs() {
        return maxConsolidationInputs;
    }

    public void setMaxConsolidationInputs(int maxConsolidationInputs) {
        this.maxConsolidationInputs = maxConsolidationInputs;
    }

    public Duration getWriteTimeout() {
        return writeTimeout;
    }

    public void setWriteTimeout(Duration writeTimeout) {
        this.writeTimeout = writeTimeout;
    }

    public Duration getStartupTimeout() {
        return startupTimeout;
    }

    public void setStartupTimeout(Duration startupTimeout) {
        this.startupTimeout = startupTimeout;
    }

    public List<String> getConsentSensitiveFields() {
        return consentSensitiveFields;
    }

    public void setConsentSensitiveFields(List<String> fields) {
        this.consentSensitiveFields = List.copyOf(fields);
    }

    public List<String> getConsentBenignFields() {
        return consentBenignFields;
    }

    public void setConsentBenignFields(List<String> fields) {
        this.consentBenignFields = List.copyOf(fields);
    }

    public Duration getConsentWindow() {
        return consentWindow;
    }

    public void setConsentWindow(Duration consentWindow) {
        this.consentWindow = consentWindow;
    }

    public List<String> getCriticalLabels() {
        return criticalLabels;
    }

    public void setCriticalLabels(List<String> criticalLabels) {
        this.criticalLabels = List.copyOf(criticalLabels);
    }

    /** The consent policy and critical labels these settings describe (the sequencer's and the API's). */
    public GovernancePolicy governancePolicy() {
        List<String> unknown =
                criticalLabels.stream().filter(l -> !blockLabels.contains(l)).toList();
        if (!unknown.isEmpty()) {
            throw new IllegalArgumentException("memory.critical-labels " + unknown + " are not block labels ("
                    + "memory.block-labels: " + String.join(", ", blockLabels) + "): a change to them could never "
                    + "raise an alert");
        }
        return new GovernancePolicy(
                Set.copyOf(consentSensitiveFields),
                Set.copyOf(consentBenignFields),
                Set.copyOf(criticalLabels),
                consentWindow);
    }

    /** In configured order, without duplicates. */
    public Set<String> getBlockLabels() {
        return new LinkedHashSet<>(blockLabels);
    }

    public void setBlockLabels(List<String> blockLabels) {
        this.blockLabels = List.copyOf(blockLabels);
    }

    public Optional<Path> getCategoriesFile() {
        return Optional.ofNullable(categoriesFile);
    }

    public void setCategoriesFile(@Nullable Path categoriesFile) {
        this.categoriesFile = categoriesFile;
    }

    public Kafka getKafka() {
        return kafka;
    }

    public Registry getRegistry() {
        return registry;
    }

    public Embedded getEmbedded() {
        return embedded;
    }

    /** {@code memory.kafka.*}: an external cluster, or nothing for the embedded broker. */
    @ConfigurationProperties("kafka")
    public static class Kafka {

        @Nullable
        private String bootstrapServers;

        /** The partitions of new data topics with an external cluster, unless {@code partitions} says otherwise. */
        public static final int CLUSTER_PARTITIONS = 3;

        /**
         * Partitions of new data topics (requests and events are co-partitioned by space). Absent: 1 with the embedded
         * broker (one process runs every task anyway, and each partition costs each Streams application a task with its
         * stores, index and metrics), {@value #CLUSTER_PARTITIONS} with an external cluster.
         */
        @Nullable
        @Min(1)
        @Max(1000)
        private Integer partitions;

        /**
         * Replication factor of new topics. Absent: 1 with the embedded broker, the broker's
         * {@code default.replication.factor} (sent as -1) with an external cluster.
         */
        @Nullable
        @Min(-1)
        @Max(32)
        private Short replicationFactor;

        public Optional<String> bootstrapServers() {
            return Optional.ofNullable(bootstrapServers).map(String::trim).filter(s -> !s.isEmpty());
        }

        public String getBootstrapServers() {
            return bootstrapServers;
        }

        public void setBootstrapServers(@Nullable String bootstrapServers) {
            this.bootstrapServers = bootstrapServers;
        }

        public Integer getPartitions() {
            return partitions;
        }

        public void setPartitions(@Nullable Integer partitions) {
            this.partitions = partitions;
        }

        /** The partitions of new data topics: as set, else 1 embedded and {@value #CLUSTER_PARTITIONS} otherwise. */
        public int partitions() {
            return partitions != null ? partitions : bootstrapServers().isPresent() ? CLUSTER_PARTITIONS : 1;
        }

        public Short getReplicationFactor() {
            return replicationFactor;
        }

        public void setReplicationFactor(@Nullable Short replicationFactor) {
            this.replicationFactor = replicationFactor;
        }
    }

    /** {@code memory.registry.*}: a Confluent-API schema registry, or nothing for the embedded topic registry. */
    @ConfigurationProperties("registry")
    public static class Registry {

        @Nullable
        private String url;

        public Optional<String> url() {
            return Optional.ofNullable(url).map(String::trim).filter(s -> !s.isEmpty());
        }

        public String getUrl() {
            return url;
        }

        public void setUrl(@Nullable String url) {
            this.url = url;
        }
    }

    /** {@code memory.embedded.*}: the in-process KRaft broker used when no bootstrap servers are configured. */
    @ConfigurationProperties("embedded")
    public static class Embedded {

        @NotBlank
        private String host = "127.0.0.1";

        @Min(1)
        @Max(65535)
        private int brokerPort = 19092;

        @Min(1)
        @Max(65535)
        private int controllerPort = 19093;

        public String getHost() {
            return host;
        }

        public void setHost(String host) {
            this.host = host;
        }

        public int getBrokerPort() {
            return brokerPort;
        }

        public void setBrokerPort(int brokerPort) {
            this.brokerPort = brokerPort;
        }

        public int getControllerPort() {
            return controllerPort;
        }

        public void setControllerPort(int controllerPort) {
            this.controllerPort = controllerPort;
        }
    }
}
