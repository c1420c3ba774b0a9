package io.memorychain.api.backend;

import io.memorychain.api.config.ConsolidateConfig;
import io.memorychain.api.config.CoreConfig;
import io.memorychain.api.config.EmbeddingsConfig;
import io.memorychain.api.config.InstanceConfig;
import io.memorychain.api.config.LifecycleConfig;
import io.memorychain.api.config.LlmModelConfig;
import io.memorychain.api.config.MemoryConfig;
import io.memorychain.api.config.ProposalConfig;
import io.memorychain.api.config.RefinementConfig;
import io.memorychain.api.config.ReflectConfig;
import io.memorychain.api.config.RetrievalConfig;
import io.memorychain.api.config.TomConfig;
import io.memorychain.api.embedded.EmbeddedKafka;
import io.memorychain.avro.MemoryAccess;
import io.memorychain.avro.MemoryOutcome;
import io.memorychain.avro.MemoryRequest;
import io.memorychain.avro.OperationalEvent;
import io.memorychain.domain.category.CategoryPolicy;
import io.memorychain.domain.decide.WriteSettings;
import io.memorychain.embeddings.Embedder;
import io.memorychain.events.AvroTrust;
import io.memorychain.events.Topics;
import io.memorychain.events.chain.ChainKeys;
import io.memorychain.events.chain.Checkpoint;
import io.memorychain.events.chain.KeyRing;
import io.memorychain.events.chain.PublicKeyInfo;
import io.memorychain.events.content.ChainContent;
import io.memorychain.events.content.MasterKey;
import io.memorychain.events.publish.AccessPublisher;
import io.memorychain.events.publish.MemoryPublisher;
import io.memorychain.events.publish.OffChainPublisher;
import io.memorychain.events.registry.SchemaRegistry;
import io.memorychain.llm.UsageCounters;
import io.memorychain.projector.MemoryChainRuntime;
import io.memorychain.projector.ops.OpsCounts;
import io.memorychain.projector.ops.OpsTotals;
import io.memorychain.projector.view.MemoryViews;
import io.memorychain.projector.view.SpaceOwner;
import io.micronaut.context.annotation.Value;
import jakarta.annotation.PreDestroy;
import jakarta.inject.Singleton;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.streams.KafkaStreams;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The ONE lifecycle bean of the running chain. Started eagerly ({@link BackendBootstrap}), in this order:
 * embedded broker (only when {@code memory.kafka.bootstrap-servers} is absent) -> schema registry -> signing key
 * ({@code <data-dir>/keys/chain-signing.key}) -> {@link MemoryChainRuntime} (sequencer + projection, state in
 * {@code <data-dir>/streams}) -> {@link MemoryPublisher}. Closed in the reverse order: publisher -> runtime (Streams)
 * -> registry -> broker. If any step fails, what was started is closed and startup fails with the step's message.
 */
@Singleton
public class MemoryChainBackend implements MemoryBackend, AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(MemoryChainBackend.class);

    private final MemoryConfig config;
    private final CategoryPolicy categories;
    private final Path dataDir;
    private final Topics topics;
    private EmbeddedKafka broker;
    private String bootstrapServers;
    private SchemaRegistry registry;
    private ChainKeys keys;
    private io.memorychain.events.chain.SigningKeys signingKeys;
    /** The master key of the memories' data keys (docs/architecture.md §12); null with encryption off. */
    private MasterKey contentKey;

    private List<PublicKeyInfo> publishedKeys = List.of();
    /** The cluster as the features with topics of their own see it (API keys, checkpoints). */
    private KafkaLog kafkaLog;

    private MemoryChainRuntime runtime;
    /** The ops, refinement and lifecycle apps and the model jobs beside the runtime. */
    private final InProcessWorkers workers = new InProcessWorkers();

    private final InProcessWorkers.Config workersConfig;
    private OffChainPublisher<OperationalEvent> opsPublisher;
    private MemoryPublisher publisher;
    private AccessPublisher accessPublisher;
    private final Embedder embedder;
    private final RetrievalConfig retrieval;
    /** The core-memory cap the sequencer enforces ({@code memory.core.*}). */
    private final io.memorychain.domain.core.CoreCapPolicy coreCap;
    /** The review modes of sub-agent proposals the sequencer applies ({@code memory.proposals.*}). */
    private final io.memorychain.domain.review.ReviewPolicy reviews;

    private volatile boolean closed;
    private final InstanceConfig instance;
    /** Stream threads of the embedder application ({@code memory.embeddings.stream-threads}). */
    private final int embedderThreads;

    private final int httpPort;
    /** Whether the HTTP listener serves TLS ({@code memory.tls.enabled}): the advertised URL is https then. */
    private final boolean tls;
    /** This instance's advertised REST base URL, when it routes (docs/architecture.md §19). */
    private Optional<URI> advertised = Optional.empty();

    public MemoryChainBackend(
            io.memorychain.api.tls.TlsContexts tls,
            MemoryConfig config,
            RetrievalConfig retrieval,
            RefinementConfig refinement,
            LifecycleConfig lifecycle,
            TomConfig tom,
            ConsolidateConfig consolidate,
            ReflectConfig reflect,
            LlmModelConfig llm,
            SchemaRegistryFactory registries,
            CategoryPolicy categories,
            Embedder embedder,
            EmbeddingsConfig embeddings,
            InstanceConfig instance,
            CoreConfig core,
            ProposalConfig proposals,
            @Value("${micronaut.server.port:-1}") int httpPort) {
        this.instance = instance;
        this.tls = tls.enabled(); // first: bad TLS configuration fails start-up before anything starts
        this.coreCap = core.policy();
        this.reviews = proposals.reviewPolicy();
        this.embedderThreads = embeddings.getStreamThreads();
        this.httpPort = httpPort;
        this.workersConfig = new InProcessWorkers.Config(
                refinement, lifecycle, tom, consolidate, reflect, llm, retrieval, categories, config.getBlockLabels());
        AvroTrust.install();
        this.config = config;
        this.categories = categories;
        this.embedder = embedder;
        this.retrieval = retrieval;
        this.dataDir = config.getDataDir().toAbsolutePath().normalize();
        this.topics = Topics.withPrefix(config.getTopicPrefix());
        try {
            start(registries);
        } catch (RuntimeException | Error e) {
            log.error("Memory Chain could not start: {}", e.getMessage());
            close();
            throw e;
        }
    }

    private void start(SchemaRegistryFactory registries) {
        Duration timeout = config.getStartupTimeout();
        createDirectories(dataDir);
        Optional<String> external = config.getKafka().bootstrapServers();
        short replicationFactor;
        if (external.isPresent()) {
            bootstrapServers = external.get();
            replicationFactor = Optional.ofNullable(config.getKafka().getReplicationFactor())
                    .orElse((short) -1);
            log.info("Using the Kafka cluster at {}", bootstrapServers);
        } else {
            MemoryConfig.Embedded e = config.getEmbedded();
            broker = EmbeddedKafka.start(
                    new EmbeddedKafka.Settings(
                            e.getHost(), e.getBrokerPort(), e.getControllerPort(), dataDir.resolve("kafka")),
                    timeout);
            bootstrapServers = broker.bootstrapServers();
            replicationFactor = 1;
        }
        registry = registries.create(config, bootstrapServers, topics, replicationFactor);
        Path keyFile = dataDir.resolve("keys").resolve("chain-signing.key");
        keys = ChainKeys.loadOrCreate(keyFile);
        signingKeys = io.memorychain.events.chain.SigningKeys.inDirectory(keys, keyFile.getParent());
        publishedKeys = List.of(PublicKeyInfo.of(keys, keyCreatedAt(keyFile), true));
        PublicKeyInfo.write(dataDir.resolve("keys").resolve("public-keys.json"), publishedKeys);
        log.info("Chain signing key {} ({}, public keys in public-keys.json)", keys.keyId(), dataDir.resolve("keys"));
        WriteSettings sequencer = new WriteSettings(
                        config.getMaxContentBytes(), config.getBlockLabels(), config.getMaxConsolidationInputs())
                .withCategories(categories)
                .withGovernance(config.governancePolicy())
                .withCoreCap(coreCap)
                .withReviews(reviews);
        String hostName = MemoryChainRuntime.Settings.defaultInstanceId();
        advertised = instance.advertised(external.isEmpty(), httpPort, hostName, tls);
        MemoryChainRuntime.Routing routing = instance.routing(external.isEmpty(), httpPort, hostName, tls);
        if (advertised.isPresent()) {
            log.info(
                    "Routing spaces by owner: this instance is {} ({} standby replicas)",
                    advertised.get(),
                    routing.standbyReplicas());
        } else if (external.isPresent()) {
            log.warn("No advertised address (memory.instance.advertised-url, or a fixed micronaut.server.port): this "
                    + "instance answers only for the spaces it owns; run a single instance or set the address");
        }
        MemoryChainRuntime.Settings settings = new MemoryChainRuntime.Settings(
                bootstrapServers,
                topics,
                dataDir.resolve("streams"),
                config.getTopicPrefix() + config.getApplicationId(),
                config.getKafka().partitions(),
                replicationFactor,
                sequencer,
                config.instanceName(),
                routing);
        contentKey = config.isContentEncryption()
                ? MasterKey.loadOrCreate(config.getContentKeyFile()
                        .orElseGet(() -> dataDir.resolve("keys").resolve(MasterKey.FILE_NAME)))
                : null;
        log.info(
                "Content encryption {}",
                contentKey == null
                        ? "off: memory texts are plain on the chain"
                        : "on (master key " + contentKey.id() + ")");
        runtime = MemoryChainRuntime.start(
                settings,
                registry,
                signingKeys,
                embedder,
                retrieval.linker(embedder.modelId()),
                timeout,
                contentKey,
                embedderThreads);
        workers.start(
                new InProcessWorkers.Chain(runtime, settings, registry, embedder, dataDir, external.isEmpty()),
                workersConfig);
        publisher = new MemoryPublisher(bootstrapServers, topics, registry);
        accessPublisher = new AccessPublisher(bootstrapServers, topics, registry);
        kafkaLog = new KafkaLog(
                bootstrapServers,
                topics,
                replicationFactor,
                registry,
                Optional.ofNullable(contentKey),
                dataDir,
                timeout);
        opsPublisher = new OffChainPublisher<>(
                bootstrapServers, topics.ops(), registry, OperationalEvent.class, OperationalEvent::getSpace);
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
        if (closed || publisher == null) {
            return CompletableFuture.failedFuture(new IllegalStateException("Memory Chain is shutting down"));
        }
        return publisher.publish(request);
    }

    @Override
    public void recordAccess(MemoryAccess access) {
        if (!closed && accessPublisher != null) {
            accessPublisher.publish(access);
        }
    }

    @Override
    public void recordOp(OperationalEvent op) {
        if (!closed && opsPublisher != null) {
            opsPublisher.publish(op);
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
        return runtime.owners().ownerOf(space);
    }

    @Override
    public Optional<URI> advertisedUrl() {
        return advertised;
    }

    @Override
    public java.util.OptionalLong standbyAppliedSeq(String space, SpaceOwner owner) {
        return runtime.owners().copyAppliedSeq(space, owner.partition());
    }

    /** The active views, or for a read the routing answers from a standby copy here, the views including it. */
    @Override
    public MemoryViews views() {
        return StandbyReads.requested() ? runtime.staleViews() : runtime.views();
    }

    @Override
    public String bootstrapServers() {
        return bootstrapServers;
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
        return runtime == null ? ChainContent.PLAINTEXT : runtime.content();
    }

    @Override
    public Optional<io.memorychain.events.content.DataKey> dataKey(String space, String memoryId) {
        return runtime == null ? Optional.empty() : runtime.dataKeys().map(ring -> ring.find(space, memoryId));
    }

    @Override
    public KeyRing publicKeys() {
        return signingKeys == null ? keys.publicRing() : signingKeys.publicRing();
    }

    @Override
    public Optional<io.memorychain.events.chain.SigningKeys> signingKeys() {
        return Optional.ofNullable(signingKeys);
    }

    /** The default key (active: it signs every space that never rotated), then the keys spaces rotated to. */
    @Override
    public List<PublicKeyInfo> publishedKeys() {
        if (signingKeys == null) {
            return publishedKeys;
        }
        List<PublicKeyInfo> all = new java.util.ArrayList<>(publishedKeys);
        for (ChainKeys key : signingKeys.all()) {
            if (!key.keyId().equals(keys.keyId())) {
                all.add(PublicKeyInfo.of(key, keyCreatedAt(signingKeys.fileOf(key.keyId())), false));
            }
        }
        return all;
    }

    @Override
    public Checkpoint signCheckpoint(String space, long seq, byte[] hash) {
        return Checkpoint.sign(keys, space, seq, hash, Instant.now());
    }

    /** When the signing key was created: its file is written once and never rewritten (docs/chain-format.md §5). */
    private static Instant keyCreatedAt(Path keyFile) {
        try {
            return Files.getLastModifiedTime(keyFile).toInstant().truncatedTo(java.time.temporal.ChronoUnit.SECONDS);
        } catch (java.io.IOException e) {
            return null;
        }
    }

    @Override
    public Optional<KafkaLog> kafkaLog() {
        return Optional.ofNullable(kafkaLog);
    }

    public ChainKeys keys() {
        return keys;
    }

    public Path dataDir() {
        return dataDir;
    }

    public boolean embedded() {
        return broker != null;
    }

    @PreDestroy
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        closeQuietly("publisher", publisher);
        closeQuietly("access publisher", accessPublisher);
        closeQuietly("ops publisher", opsPublisher);
        closeQuietly("workers", workers);
        closeQuietly("Kafka Streams runtime", runtime);
        closeQuietly("schema registry", registry);
        closeQuietly("embedded Kafka broker", broker);
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
        states.put("sequencer", runtime.sequencerStreams().state().name());
        states.put("projection", runtime.projectorStreams().state().name());
        if (runtime.embedderStreams() != null) {
            states.put("embedder", runtime.embedderStreams().state().name());
        }
        if (runtime.linkerStreams() != null) {
            states.put("linker", runtime.linkerStreams().state().name());
        }
        workers.applications()
                .forEach((name, streams) -> states.put(name, streams.state().name()));
        return states;
    }

    @Override
    public Map<String, Map<String, Object>> streamFailures() {
        Map<String, Map<String, Object>> failures = new java.util.LinkedHashMap<>();
        runtime.failures().current().forEach((app, failure) -> failures.put(app, failure.details()));
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

    /** The Kafka Streams applications of this process by name (for their client metrics on /prometheus). */
    @Override
    public Map<String, Long> searchIndexFigures() {
        io.memorychain.projector.search.SearchIndexes indexes = runtime.searchIndexes();
        return Map.of("rebuilds", indexes.rebuilds(), "reuses", indexes.reuses(), "building_graphs", (long)
                indexes.buildingGraphs());
    }

    @Override
    public Map<String, KafkaStreams> streamsApplications() {
        Map<String, KafkaStreams> apps = new java.util.LinkedHashMap<>();
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
