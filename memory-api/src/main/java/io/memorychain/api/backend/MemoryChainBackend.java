package io.memorychain.api.backend;

import io.memorychain.api.auth.ApiKeyStore;
import io.memorychain.api.auth.KafkaApiKeyStore;
import io.memorychain.api.config.EmbeddingsConfig;
import io.memorychain.api.config.InstanceConfig;
import io.memorychain.api.config.LifecycleConfig;
import io.memorychain.api.config.MemoryConfig;
import io.memorychain.api.config.CoreConfig;
import io.memorychain.api.config.ProposalConfig;
import io.memorychain.api.config.RefinementConfig;
import io.memorychain.api.config.LlmModelConfig;
import io.memorychain.api.config.RetrievalConfig;
import io.memorychain.api.config.ConsolidateConfig;
import io.memorychain.api.config.ReflectConfig;
import io.memorychain.api.config.TomConfig;
import io.memorychain.consolidate.ConsolidateMetrics;
import io.memorychain.consolidate.ConsolidatePlanner;
import io.memorychain.consolidate.ConsolidateSettings;
import io.memorychain.consolidate.ConsolidateWorker;
import io.memorychain.consolidate.Consolidations;
import io.memorychain.consolidate.SameFactPrompt;
import io.memorychain.api.embedded.EmbeddedKafka;
import io.memorychain.avro.MemoryAccess;
import io.memorychain.avro.MemoryOutcome;
import io.memorychain.avro.MemoryRequest;
import io.memorychain.domain.category.CategoryPolicy;
import io.memorychain.domain.decide.WriteSettings;
import io.memorychain.embeddings.Embedder;
import io.memorychain.events.AvroTrust;
import io.memorychain.events.Topics;
import io.memorychain.events.chain.ChainKeys;
import io.memorychain.events.content.ChainContent;
import io.memorychain.events.content.MasterKey;
import io.memorychain.events.chain.Checkpoint;
import io.memorychain.events.chain.KeyRing;
import io.memorychain.events.chain.PublicKeyInfo;
import java.util.List;
import io.memorychain.events.publish.AccessPublisher;
import io.memorychain.events.publish.MemoryPublisher;
import io.memorychain.events.registry.SchemaRegistry;
import io.memorychain.projector.MemoryChainRuntime;
import io.memorychain.projector.job.ChainJob;
import io.memorychain.projector.lifecycle.LifecycleSettings;
import io.memorychain.projector.lifecycle.LifecycleStatus;
import io.memorychain.projector.lifecycle.LifecycleTopology;
import io.memorychain.projector.refinement.RefinementTriggerSettings;
import io.memorychain.projector.support.StreamsLag;
import io.memorychain.projector.refinement.RefinementTriggerTopology;
import io.memorychain.projector.view.MemoryViews;
import io.memorychain.projector.view.SpaceOwner;
import io.micronaut.context.annotation.Value;
import java.net.URI;
import io.memorychain.llm.ChatModels;
import io.memorychain.llm.LlmRuntime;
import io.memorychain.llm.LlmSettings;
import io.memorychain.llm.UsageCounters;
import io.memorychain.reflect.ReflectMetrics;
import io.memorychain.reflect.ReflectRun;
import io.memorychain.reflect.ReflectSettings;
import io.memorychain.reflect.ReflectWorker;
import io.memorychain.reflect.ReflectionEngine;
import io.memorychain.tom.TomInsights;
import io.memorychain.tom.TomMetrics;
import io.memorychain.tom.TomPrompt;
import io.memorychain.tom.TomSettings;
import io.memorychain.tom.TomRun;
import io.memorychain.tom.TomWorker;
import jakarta.annotation.PreDestroy;
import jakarta.inject.Singleton;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import io.memorychain.avro.OperationalEvent;
import io.memorychain.events.publish.OffChainPublisher;
import io.memorychain.projector.ops.OpsCounts;
import io.memorychain.projector.ops.OpsTopology;
import io.memorychain.projector.ops.OpsTotals;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StoreQueryParameters;
import org.apache.kafka.streams.state.QueryableStoreTypes;
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
    /** How stale the in-memory copy of the key records may get (a revocation reaches every instance within it). */
    private static final Duration API_KEY_REFRESH = Duration.ofSeconds(2);

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
    private ApiKeyStore apiKeys;
    /** Agents' checkpoints (off-chain, their own compacted topic and view). */
    private io.memorychain.api.checkpoints.CheckpointStore checkpoints;
    private MemoryChainRuntime runtime;
    private KafkaStreams refinementTrigger;
    private KafkaStreams lifecycleWorker;
    /** The ops app (docs/architecture.md §2 memory.ops.v1, §6 view-ops): derives and counts operational events. */
    private KafkaStreams opsApp;
    private final OpsTotals opsTotals = new OpsTotals();
    private OffChainPublisher<OperationalEvent> opsPublisher;
    private final LifecycleStatus lifecycleStatus = new LifecycleStatus();
    private final LifecycleConfig lifecycle;
    private MemoryPublisher publisher;
    private AccessPublisher accessPublisher;
    private final Embedder embedder;
    private final RetrievalConfig retrieval;
    private final RefinementConfig refinement;
    /** The core-memory cap the sequencer enforces ({@code memory.core.*}). */
    private final io.memorychain.domain.core.CoreCapPolicy coreCap;
    /** The review modes of sub-agent proposals the sequencer applies ({@code memory.proposals.*}). */
    private final io.memorychain.domain.review.ReviewPolicy reviews;
    private final TomConfig tom;
    private final LlmModelConfig llm;
    /** The LLM usage of this process's jobs, by purpose ({@code /prometheus} memory_llm_*). */
    private final UsageCounters llmUsage = new UsageCounters();
    private final TomMetrics tomMetrics = new TomMetrics();
    private InProcessJob tomJob;
    /** Why the ToM job is not running although wanted ({@code skipped: no model}), or null. */
    private String tomSkipped;
    private final ConsolidateConfig consolidate;
    private final ConsolidateMetrics consolidateMetrics = new ConsolidateMetrics();
    private InProcessJob consolidateJob;
    private final ReflectConfig reflect;
    private final ReflectMetrics reflectMetrics = new ReflectMetrics();
    private InProcessJob reflectJob;
    /** Why the reflection job is not running although wanted ({@code skipped: no model}), or null. */
    private String reflectSkipped;
    private volatile boolean closed;
    private final InstanceConfig instance;
    /** Stream threads of the embedder application ({@code memory.embeddings.stream-threads}). */
    private final int embedderThreads;
    private final int httpPort;
    /** Whether the HTTP listener serves TLS ({@code memory.tls.enabled}): the advertised URL is https then. */
    private final boolean tls;
    /** This instance's advertised REST base URL, when it routes (docs/architecture.md §19). */
    private Optional<URI> advertised = Optional.empty();

    public MemoryChainBackend(io.memorychain.api.tls.TlsContexts tls, MemoryConfig config, RetrievalConfig retrieval, RefinementConfig refinement,
                              LifecycleConfig lifecycle, TomConfig tom, ConsolidateConfig consolidate,
                              ReflectConfig reflect, LlmModelConfig llm, SchemaRegistryFactory registries, CategoryPolicy categories,
                              Embedder embedder, EmbeddingsConfig embeddings, InstanceConfig instance,
                              CoreConfig core, ProposalConfig proposals,
                              @Value("${micronaut.server.port:-1}") int httpPort) {
        this.instance = instance;
        this.tls = tls.enabled(); // first: bad TLS configuration fails start-up before anything starts
        this.coreCap = core.policy();
        this.reviews = proposals.reviewPolicy();
        this.embedderThreads = embeddings.getStreamThreads();
        this.httpPort = httpPort;
        this.lifecycle = lifecycle;
        this.tom = tom;
        this.consolidate = consolidate;
        this.reflect = reflect;
        this.llm = llm;
        AvroTrust.install();
        this.config = config;
        this.categories = categories;
        this.embedder = embedder;
        this.retrieval = retrieval;
        this.refinement = refinement;
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
            replicationFactor = Optional.ofNullable(config.getKafka().getReplicationFactor()).orElse((short) -1);
            log.info("Using the Kafka cluster at {}", bootstrapServers);
        } else {
            MemoryConfig.Embedded e = config.getEmbedded();
            broker = EmbeddedKafka.start(new EmbeddedKafka.Settings(e.getHost(), e.getBrokerPort(), e.getControllerPort(),
                    dataDir.resolve("kafka")), timeout);
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
        WriteSettings sequencer = new WriteSettings(config.getMaxContentBytes(), config.getBlockLabels(),
                config.getMaxConsolidationInputs()).withCategories(categories)
                .withGovernance(config.governancePolicy()).withCoreCap(coreCap).withReviews(reviews);
        String hostName = MemoryChainRuntime.Settings.defaultInstanceId();
        advertised = instance.advertised(external.isEmpty(), httpPort, hostName, tls);
        MemoryChainRuntime.Routing routing = instance.routing(external.isEmpty(), httpPort, hostName, tls);
        if (advertised.isPresent()) {
            log.info("Routing spaces by owner: this instance is {} ({} standby replicas)", advertised.get(),
                    routing.standbyReplicas());
        } else if (external.isPresent()) {
            log.warn("No advertised address (memory.instance.advertised-url, or a fixed micronaut.server.port): this "
                    + "instance answers only for the spaces it owns; run a single instance or set the address");
        }
        MemoryChainRuntime.Settings settings = new MemoryChainRuntime.Settings(bootstrapServers, topics,
                dataDir.resolve("streams"), config.getTopicPrefix() + config.getApplicationId(),
                config.getKafka().partitions(), replicationFactor, sequencer, config.instanceName(), routing);
        contentKey = config.isContentEncryption() ? MasterKey.loadOrCreate(config.getContentKeyFile()
                .orElseGet(() -> dataDir.resolve("keys").resolve(MasterKey.FILE_NAME))) : null;
        log.info("Content encryption {}", contentKey == null ? "off: memory texts are plain on the chain"
                : "on (master key " + contentKey.id() + ")");
        runtime = MemoryChainRuntime.start(settings, registry, signingKeys, embedder, retrieval.linker(embedder.modelId()),
                timeout, contentKey, embedderThreads);
        refinementTrigger = refinement.trigger().map(trigger -> startRefinementTrigger(settings, trigger)).orElse(null);
        opsApp = startOps(settings);
        lifecycleWorker = lifecycle.settings(external.isEmpty(), retrieval.getDecayLambda(), categories)
                .map(worker -> startLifecycleWorker(settings, worker)).orElse(null);
        LlmSettings models = llm.settings();
        Optional<TomSettings> tomSettings = tom.settings(external.isEmpty());
        if (tomSettings.isPresent()) {
            if (models.anyConfigured()) {
                startTom(settings, tomSettings.get(), models);
            } else {
                tomSkipped = "skipped: no model";
                log.info("tom: skipped: no model (set memory.llm.base-url and memory.llm.model, or MEMORY_LLM_BASE_URL "
                        + "and MEMORY_LLM_MODEL; memory.tom.enabled=false silences this)");
            }
        }
        consolidate.settings(external.isEmpty(), embedder.modelId()).ifPresent(c -> startConsolidate(settings, c, models));
        Optional<ReflectSettings> reflectSettings = reflect.settings(external.isEmpty(), config.getBlockLabels());
        if (reflectSettings.isPresent()) {
            if (models.anyConfigured()) {
                startReflect(settings, reflectSettings.get(), models);
            } else {
                reflectSkipped = "skipped: no model";
                log.info("reflect: skipped: no model (set memory.llm.base-url and memory.llm.model; "
                        + "memory.reflect.enabled=false silences this)");
            }
        }
        publisher = new MemoryPublisher(bootstrapServers, topics, registry);
        apiKeys = new KafkaApiKeyStore(bootstrapServers, topics.apiKeys(), replicationFactor, timeout, API_KEY_REFRESH);
        accessPublisher = new AccessPublisher(bootstrapServers, topics, registry);
        checkpoints = new io.memorychain.api.checkpoints.KafkaCheckpointStore(bootstrapServers, topics.checkpoints(),
                replicationFactor, registry, contentKey, dataDir.resolve("checkpoints"), config.getWriteTimeout(),
                Clock.systemUTC());
        opsPublisher = new OffChainPublisher<>(bootstrapServers, topics.ops(), registry, OperationalEvent.class,
                OperationalEvent::getSpace);
    }

    /**
     * The ops app (application id {@code <app>-ops}): derives the write-side operational events from the chain into
     * memory.ops.v1 and counts every operational event per hour (docs/architecture.md §2, §6).
     */
    private KafkaStreams startOps(MemoryChainRuntime.Settings settings) {
        KafkaStreams streams = new KafkaStreams(OpsTopology.build(topics, registry, opsTotals),
                MemoryChainRuntime.streamsConfig(bootstrapServers, settings.stateDir(), settings.replicationFactor(),
                        settings.applicationId() + "-ops", settings.instanceId()));
        streams.setUncaughtExceptionHandler(runtime.failures().handler("ops"));
        streams.start();
        return streams;
    }

    /**
     * The refinement trigger (docs/architecture.md §9) as its own Streams application next to the runtime's: it reads the events and
     * publishes StartRefinement requests as worker:refinement; the sequencer decides.
     */
    private KafkaStreams startRefinementTrigger(MemoryChainRuntime.Settings settings, RefinementTriggerSettings trigger) {
        KafkaStreams streams = new KafkaStreams(RefinementTriggerTopology.build(topics, registry, trigger, Clock.systemUTC(),
                (space, why, requestId) -> log.info("Refinement session requested for space {} ({}, request {})", space,
                        why, requestId), runtime.content()),
                MemoryChainRuntime.streamsConfig(bootstrapServers, settings.stateDir(), settings.replicationFactor(),
                        settings.applicationId() + "-refinement", settings.instanceId()));
        streams.setUncaughtExceptionHandler(runtime.failures().handler("refinement"));
        streams.start();
        log.info("Refinement trigger running: sessions start over {} core tokens (target {}), schedule {}",
                trigger.thresholdTokens(), trigger.targetTokens(), trigger.schedule() == null ? "off" : trigger.schedule());
        return streams;
    }

    /**
     * The lifecycle worker (decay transitions and TTL expiry) as its own Streams application (application id
     * {@code <app>-lifecycle}): it reads the events and accesses and publishes TransitionDecay / ExpireMemory requests
     * as worker:lifecycle; the sequencer decides.
     */
    private KafkaStreams startLifecycleWorker(MemoryChainRuntime.Settings settings, LifecycleSettings worker) {
        KafkaStreams streams = new KafkaStreams(LifecycleTopology.build(topics, registry, worker, Clock.systemUTC(),
                lifecycleStatus), MemoryChainRuntime.streamsConfig(bootstrapServers, settings.stateDir(),
                settings.replicationFactor(), settings.applicationId() + "-lifecycle", settings.instanceId()));
        streams.setUncaughtExceptionHandler(runtime.failures().handler("lifecycle"));
        streams.start();
        log.info("Lifecycle worker running: decay lambda {}, thresholds {}, checked every {}", worker.lambda(),
                worker.thresholds(), worker.checkInterval());
        return streams;
    }

    /**
     * The ToM insight job (docs/architecture.md §12) as its own consumer group ({@code <app>-tom}) on its own thread:
     * the model is never called from a Streams thread. It starts live at the end of a partition its group never
     * committed (no backfill), exactly as {@code memory-worker tom} does by default. A failure stops the job (logged,
     * {@code workers.tom.state: FAILED}); the service keeps running.
     */
    private void startTom(MemoryChainRuntime.Settings settings, TomSettings tomSettings, LlmSettings models) {
        ChainJob.Options options = TomWorker.options(bootstrapServers, topics, settings.applicationId() + "-tom",
                settings.instanceId(), ChainJob.StartFrom.LATEST, tom.getMaxRunsPerBatch(), Duration.ofMillis(500));
        ChatModels chat = new ChatModels(models, LlmRuntime.standard(llmUsage));
        ChainJob<TomRun> worker = TomWorker.job(options, registry, tomSettings,
                new TomInsights(chat, tomSettings, tomMetrics), tomMetrics, ChainJob.BeforeCommit.NONE,
                runtime.content());
        tomJob = InProcessJob.start("tom", worker, tomMetrics.job());
        log.info("tom running: group {}, model {} at {}, min-items {}, cooldown {}, max-runs-per-batch {}",
                options.groupId(), models.defaults().model(), models.defaults().baseUrl(), tomSettings.minItems(),
                tomSettings.cooldown(), tom.getMaxRunsPerBatch());
    }

    /**
     * The daily consolidation job (docs/architecture.md §12) as its own consumer group ({@code <app>-consolidate}) on
     * its own thread, live from the end of a partition its group never committed, as {@code memory-worker consolidate}
     * by default. Without a model it merges only near-exact duplicates.
     */
    private void startConsolidate(MemoryChainRuntime.Settings settings, ConsolidateSettings consolidateSettings,
                                  LlmSettings models) {
        ChainJob.Options options = ConsolidateWorker.options(bootstrapServers, topics,
                settings.applicationId() + "-consolidate", settings.instanceId(), ChainJob.StartFrom.LATEST,
                Duration.ofMillis(500));
        ChatModels chat = new ChatModels(models, LlmRuntime.standard(llmUsage));
        ChainJob<List<ConsolidatePlanner.Plan>> worker = ConsolidateWorker.job(options, registry, consolidateSettings,
                new Consolidations(chat, consolidateSettings, consolidateMetrics), consolidateMetrics,
                embedder.modelId(), runtime.content(), dataDir.resolve("jobs").resolve("consolidate"));
        consolidateJob = InProcessJob.start("consolidate", worker, consolidateMetrics.job());
        log.info("consolidate running: group {}, interval {}, max-pairs {}, band [{}, {}), {}", options.groupId(),
                consolidateSettings.interval(), consolidateSettings.maxPairs(), consolidateSettings.bandLow(),
                consolidateSettings.nearExact(), models.anyConfigured() ? "model " + models.defaults().model()
                        : "no model: near-exact duplicates only");
    }

    /**
     * The reflection job (docs/architecture.md §18) as its own consumer group ({@code <app>-reflect}) on its own
     * thread, live from the end of a partition its group never committed, as {@code memory-worker reflect} by default.
     */
    private void startReflect(MemoryChainRuntime.Settings settings, ReflectSettings reflectSettings,
                              LlmSettings models) {
        ChainJob.Options options = ReflectWorker.options(bootstrapServers, topics,
                settings.applicationId() + "-reflect", settings.instanceId(), ChainJob.StartFrom.LATEST,
                Duration.ofMillis(500));
        ChatModels chat = new ChatModels(models, LlmRuntime.standard(llmUsage));
        ChainJob<ReflectRun> worker = ReflectWorker.job(options, registry, reflectSettings,
                new ReflectionEngine(chat, reflectSettings, reflectMetrics), reflectMetrics,
                ChainJob.BeforeCommit.NONE, runtime.content());
        reflectJob = InProcessJob.start("reflect", worker, reflectMetrics.job());
        log.info("reflect running: group {}, model {}, interval {}, threshold {}, session idle {}, output cap {}",
                options.groupId(), models.defaults().model(), reflectSettings.interval(), reflectSettings.threshold(),
                reflectSettings.sessionIdle(), reflectSettings.outputTokenCap());
    }

    private static void createDirectories(Path dir) {
        try {
            Files.createDirectories(dir);
        } catch (java.io.IOException e) {
            throw new IllegalStateException("Cannot create the data directory " + dir + " (memory.data-dir): " + e.getMessage(), e);
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
        if (opsApp == null) {
            return Optional.empty();
        }
        return Optional.of(new OpsCounts(() -> opsApp.store(StoreQueryParameters.fromNameAndType(OpsTopology.COUNTS,
                QueryableStoreTypes.<String, Long>keyValueStore()))));
    }

    @Override
    public OpsTotals opsTotals() {
        return opsTotals;
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
        return runtime == null ? Optional.empty()
                : runtime.dataKeys().map(ring -> ring.find(space, memoryId));
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
    public ApiKeyStore apiKeys() {
        return apiKeys;
    }

    @Override
    public io.memorychain.api.checkpoints.CheckpointStore checkpoints() {
        return checkpoints;
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
        closeQuietly("ops app", opsApp == null ? null : () -> opsApp.close(Duration.ofSeconds(30)));
        closeQuietly("API key store", apiKeys);
        closeQuietly("checkpoint store", checkpoints);
        closeQuietly("ToM job", tomJob);
        closeQuietly("consolidation job", consolidateJob);
        closeQuietly("reflection job", reflectJob);
        closeQuietly("lifecycle worker",
                lifecycleWorker == null ? null : () -> lifecycleWorker.close(Duration.ofSeconds(30)));
        closeQuietly("refinement trigger",
                refinementTrigger == null ? null : () -> refinementTrigger.close(Duration.ofSeconds(30)));
        closeQuietly("Kafka Streams runtime", runtime);
        closeQuietly("schema registry", registry);
        closeQuietly("embedded Kafka broker", broker);
        log.info("Memory Chain stopped");
    }

    private static void closeQuietly(String what, AutoCloseable closeable) {
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
        if (refinementTrigger != null) {
            states.put("refinement", refinementTrigger.state().name());
        }
        if (lifecycleWorker != null) {
            states.put("lifecycle", lifecycleWorker.state().name());
        }
        if (opsApp != null) {
            states.put("ops", opsApp.state().name());
        }
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
        Map<String, Object> workers = new java.util.LinkedHashMap<>();
        if (lifecycleWorker != null) {
            Map<String, Object> figures = new java.util.LinkedHashMap<>();
            figures.put("state", lifecycleWorker.state().name());
            figures.put("lag", StreamsLag.of(lifecycleWorker));
            figures.putAll(lifecycleStatus.figures());
            workers.put("lifecycle", figures);
        }
        if (tomSkipped != null) {
            workers.put("tom", tomSkipped);
        } else if (tomJob != null) {
            workers.put("tom", tomFigures());
        }
        if (consolidateJob != null) {
            workers.put("consolidate", consolidateFigures());
        }
        if (reflectSkipped != null) {
            workers.put("reflect", reflectSkipped);
        } else if (reflectJob != null) {
            Map<String, Object> figures = reflectJob.figures();
            figures.put("runs", reflectMetrics.runs());
            figures.put("proposed", reflectMetrics.proposed());
            figures.put("cap_reached", reflectMetrics.capReached());
            figures.put("dropped_changes", reflectMetrics.droppedChanges());
            figures.put("milestones", reflectMetrics.milestones());
            putUsage(figures, ReflectionEngine.PURPOSE);
            workers.put("reflect", figures);
        }
        return workers;
    }

    /** {@code workers.tom}: the loop's figures, the runs' counts (TomMetrics) and the model's usage. */
    private Map<String, Object> tomFigures() {
        Map<String, Object> figures = tomJob.figures();
        figures.put("runs", tomMetrics.runs());
        figures.put("dropped", tomMetrics.dropped());
        figures.put("empty_answers", tomMetrics.emptyAnswers());
        putUsage(figures, TomPrompt.PURPOSE);
        return figures;
    }

    /** {@code workers.consolidate}: the loop's figures, the runs' counts (ConsolidateMetrics) and the model's usage. */
    private Map<String, Object> consolidateFigures() {
        Map<String, Object> figures = consolidateJob.figures();
        figures.put("runs", consolidateMetrics.runs());
        figures.put("near_exact", consolidateMetrics.nearExact());
        figures.put("checked", consolidateMetrics.checked());
        figures.put("same_fact", consolidateMetrics.sameFact());
        figures.put("invalid_answers", consolidateMetrics.invalidAnswers());
        // its store on disk grows with the chain: every memory of every space and its vector (docs/benchmarks.md
        // "Memory of the embedded service")
        figures.put("memories_held", consolidateMetrics.memoriesHeld());
        figures.put("vectors_held", consolidateMetrics.vectorsHeld());
        // events held back (on disk) while a run waits for the embedder: grows while the embedder is behind or down
        figures.put("events_waiting", consolidateMetrics.eventsWaiting());
        putUsage(figures, SameFactPrompt.PURPOSE);
        return figures;
    }

    private void putUsage(Map<String, Object> figures, String purpose) {
        UsageCounters.Totals usage = llmUsage.totals(purpose);
        figures.put("llm_calls", usage.calls().values().stream().mapToLong(Long::longValue).sum());
        figures.put("llm_tokens", usage.promptTokens() + usage.completionTokens());
    }

    @Override
    public UsageCounters llmUsage() {
        return llmUsage;
    }

    /** The Kafka Streams applications of this process by name (for their client metrics on /prometheus). */
    @Override
    public Map<String, Long> searchIndexFigures() {
        io.memorychain.projector.search.SearchIndexes indexes = runtime.searchIndexes();
        return Map.of("rebuilds", indexes.rebuilds(), "reuses", indexes.reuses(),
                "building_graphs", (long) indexes.buildingGraphs());
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
        if (refinementTrigger != null) {
            apps.put("refinement", refinementTrigger);
        }
        if (lifecycleWorker != null) {
            apps.put("lifecycle", lifecycleWorker);
        }
        if (opsApp != null) {
            apps.put("ops", opsApp);
        }
        return apps;
    }
}
