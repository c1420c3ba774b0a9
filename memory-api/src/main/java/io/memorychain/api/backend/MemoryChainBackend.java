package io.memorychain.api.backend;

import io.memorychain.api.config.MemoryConfig;
import io.memorychain.avro.MemoryAccess;
import io.memorychain.avro.MemoryOutcome;
import io.memorychain.avro.MemoryRequest;
import io.memorychain.avro.OperationalEvent;
import io.memorychain.embeddings.Embedder;
import io.memorychain.events.AvroTrust;
import io.memorychain.events.Topics;
import io.memorychain.events.chain.Checkpoint;
import io.memorychain.events.chain.KeyRing;
import io.memorychain.events.chain.PublicKeyInfo;
import io.memorychain.events.content.ChainContent;
import io.memorychain.events.registry.SchemaRegistry;
import io.memorychain.llm.UsageCounters;
import io.memorychain.projector.MemoryChainRuntime;
import io.memorychain.projector.ops.OpsCounts;
import io.memorychain.projector.ops.OpsTotals;
import io.memorychain.projector.view.MemoryViews;
import io.memorychain.projector.view.SpaceOwner;
import jakarta.annotation.PreDestroy;
import jakarta.inject.Singleton;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.streams.KafkaStreams;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The running chain, assembled at start-up from one factory per subsystem, in this order: the Kafka cluster
 * ({@link KafkaClusterFactory}: the embedded broker only when {@code memory.kafka.bootstrap-servers} is absent) -> the
 * schema registry ({@link SchemaRegistryFactory}) -> the signing keys ({@link SigningKeysFactory}) -> the Kafka Streams
 * applications ({@link ChainRuntimeFactory}) -> the in-process workers ({@link InProcessWorkersFactory}) -> the
 * publishers. Closed in the reverse order. If a step fails, what was started is closed and start-up fails with the
 * step's message. Started eagerly ({@link BackendBootstrap}).
 */
@Singleton
public class MemoryChainBackend implements MemoryBackend, AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(MemoryChainBackend.class);

    private final Path dataDir;
    private final Topics topics;
    private final Embedder embedder;
    private KafkaCluster cluster;
    private SchemaRegistry registry;
    private SigningKeyFiles keys;
    private ChainRuntime chain;
    /** The ops, refinement and lifecycle apps and the model jobs beside the runtime. */
    private InProcessWorkers workers;

    private ChainPublishers publishers;
    /** The cluster as the features with topics of their own see it (API keys, checkpoints). */
    private KafkaLog kafkaLog;

    private volatile boolean closed;

    MemoryChainBackend(
            MemoryConfig config,
            KafkaClusterFactory clusters,
            SchemaRegistryFactory registries,
            SigningKeysFactory signing,
            ChainRuntimeFactory runtimes,
            InProcessWorkersFactory inProcess,
            Embedder embedder) {
        AvroTrust.install();
        this.embedder = embedder;
        this.dataDir = config.getDataDir().toAbsolutePath().normalize();
        this.topics = Topics.withPrefix(config.getTopicPrefix());
        try {
            createDirectories(dataDir);
            cluster = clusters.open(config, dataDir);
            registry = registries.create(config, cluster.bootstrapServers(), topics, cluster.replicationFactor());
            keys = signing.load(dataDir);
            chain = runtimes.start(cluster, topics, registry, keys, dataDir);
            workers = inProcess.start(new InProcessWorkers.Chain(
                    chain.runtime(), chain.settings(), registry, embedder, dataDir, cluster.embedded()));
            publishers = new ChainPublishers(cluster.bootstrapServers(), topics, registry);
            kafkaLog = new KafkaLog(
                    cluster.bootstrapServers(),
                    topics,
                    cluster.replicationFactor(),
                    registry,
                    chain.contentKey(),
                    dataDir,
                    config.getStartupTimeout());
        } catch (RuntimeException | Error e) {
            log.error("Memory Chain could not start: {}", e.getMessage());
            close();
            throw e;
        }
    }

    private MemoryChainRuntime runtime() {
        return chain.runtime();
    }

    private static void createDirectories(Path dir) {
        try {
            Files.createDirectories(dir);
        } catch (java.io.IOException e) {
            throw new IllegalStateException(
                    "Cannot create the data directory " + dir + " (memory.data-dir): " + e.getMessage(), e);
        }
    }

    @Override
    public CompletableFuture<MemoryOutcome> publish(MemoryRequest request) {
        if (closed || publishers == null) {
            return CompletableFuture.failedFuture(new IllegalStateException("Memory Chain is shutting down"));
        }
        return publishers.publish(request);
    }

    @Override
    public void recordAccess(MemoryAccess access) {
        if (!closed && publishers != null) {
            publishers.recordAccess(access);
        }
    }

    @Override
    public void recordOp(OperationalEvent op) {
        if (!closed && publishers != null) {
            publishers.recordOp(op);
        }
    }

    @Override
    public Optional<OpsCounts> opsCounts() {
        return workers.opsCounts();
    }

    @Override
    public OpsTotals opsTotals() {
        return workers.opsTotals();
    }

    @Override
    public Embedder embedder() {
        return embedder;
    }

    @Override
    public SpaceOwner ownerOf(String space) {
        return runtime().owners().ownerOf(space);
    }

    @Override
    public Optional<URI> advertisedUrl() {
        return chain.advertised();
    }

    @Override
    public java.util.OptionalLong standbyAppliedSeq(String space, SpaceOwner owner) {
        return runtime().owners().copyAppliedSeq(space, owner.partition());
    }

    /** The active views, or for a read the routing answers from a standby copy here, the views including it. */
    @Override
    public MemoryViews views() {
        return StandbyReads.requested() ? runtime().staleViews() : runtime().views();
    }

    @Override
    public String bootstrapServers() {
        return cluster.bootstrapServers();
    }

    @Override
    public Topics topics() {
        return topics;
    }

    @Override
    public SchemaRegistry registry() {
        return registry;
    }

    @Override
    public ChainContent content() {
        return chain == null ? ChainContent.PLAINTEXT : runtime().content();
    }

    @Override
    public Optional<io.memorychain.events.content.DataKey> dataKey(String space, String memoryId) {
        return chain == null ? Optional.empty() : runtime().dataKeys().map(ring -> ring.find(space, memoryId));
    }

    @Override
    public KeyRing publicKeys() {
        return keys.publicKeys();
    }

    @Override
    public Optional<io.memorychain.events.chain.SigningKeys> signingKeys() {
        return keys.signingKeys();
    }

    /** The default key (active: it signs every space that never rotated), then the keys spaces rotated to. */
    @Override
    public List<PublicKeyInfo> publishedKeys() {
        return keys.publishedKeys();
    }

    @Override
    public Checkpoint signCheckpoint(String space, long seq, byte[] hash) {
        return keys.signCheckpoint(space, seq, hash);
    }

    @Override
    public Optional<KafkaLog> kafkaLog() {
        return Optional.ofNullable(kafkaLog);
    }

    public Path dataDir() {
        return dataDir;
    }

    public boolean embedded() {
        return cluster.embedded();
    }

    @PreDestroy
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        closeQuietly("publishers", publishers);
        closeQuietly("workers", workers);
        closeQuietly("Kafka Streams runtime", chain);
        closeQuietly("schema registry", registry);
        closeQuietly("embedded Kafka broker", cluster);
        log.info("Memory Chain stopped");
    }

    static void closeQuietly(String what, AutoCloseable closeable) {
        if (closeable == null) {
            return;
        }
        try {
            closeable.close();
        } catch (Exception e) {
            log.warn("Closing the {} failed: {}", what, e.toString());
        }
    }

    @Override
    public Map<String, String> streamStates() {
        Map<String, String> states = new java.util.LinkedHashMap<>();
        streamsApplications()
                .forEach((name, streams) -> states.put(name, streams.state().name()));
        return states;
    }

    @Override
    public Map<String, Map<String, Object>> streamFailures() {
        Map<String, Map<String, Object>> failures = new java.util.LinkedHashMap<>();
        runtime().failures().current().forEach((app, failure) -> failures.put(app, failure.details()));
        return failures;
    }

    @Override
    public Map<String, Object> workerFigures() {
        return workers.figures();
    }

    @Override
    public UsageCounters llmUsage() {
        return workers.llmUsage();
    }

    @Override
    public Map<String, Long> searchIndexFigures() {
        io.memorychain.projector.search.SearchIndexes indexes = runtime().searchIndexes();
        return Map.of("rebuilds", indexes.rebuilds(), "reuses", indexes.reuses(), "building_graphs", (long)
                indexes.buildingGraphs());
    }

    /** The Kafka Streams applications of this process by name, in start order. */
    @Override
    public Map<String, KafkaStreams> streamsApplications() {
        Map<String, KafkaStreams> apps = new java.util.LinkedHashMap<>();
        MemoryChainRuntime runtime = runtime();
        apps.put("sequencer", runtime.sequencerStreams());
        apps.put("projection", runtime.projectorStreams());
        if (runtime.embedderStreams() != null) {
            apps.put("embedder", runtime.embedderStreams());
        }
        if (runtime.linkerStreams() != null) {
            apps.put("linker", runtime.linkerStreams());
        }
        apps.putAll(workers.applications());
        return apps;
    }
}
