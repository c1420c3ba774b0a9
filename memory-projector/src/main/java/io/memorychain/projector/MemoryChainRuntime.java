package io.memorychain.projector;

import io.memorychain.domain.decide.WriteSettings;
import io.memorychain.embeddings.Embedder;
import io.memorychain.events.Topics;
import io.memorychain.events.chain.ChainKeys;
import io.memorychain.events.chain.ChainSealer;
import io.memorychain.events.content.ChainContent;
import io.memorychain.events.content.DataKeyRing;
import io.memorychain.events.content.MasterKey;
import io.memorychain.events.registry.SchemaRegistry;
import io.memorychain.projector.embedding.EmbedderTopology;
import io.memorychain.projector.linker.LinkerSettings;
import io.memorychain.projector.linker.LinkerTopology;
import io.memorychain.projector.projection.AppliedListener;
import io.memorychain.projector.projection.ProjectionTopology;
import io.memorychain.projector.search.SearchIndexes;
import io.memorychain.projector.sequencer.SequencerTopology;
import io.memorychain.projector.support.StreamFailures;
import io.memorychain.projector.view.AppliedSeqTracker;
import io.memorychain.projector.view.MemoryViews;
import io.memorychain.projector.view.SpaceOwners;
import io.memorychain.projector.view.StoreMemoryViews;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.state.HostInfo;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs the sequencer, the projection and the embedder as Kafka Streams applications against one cluster, creating the
 * topics if they are missing, and exposes the projection's views.
 */
public final class MemoryChainRuntime implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(MemoryChainRuntime.class);
    /** Model id of a runtime without an embedder: no vector matches it. */
    public static final String NO_MODEL = "none";
    /**
     * @param bootstrapServers Kafka bootstrap servers
     * @param topics the topic catalogue
     * @param stateDir Kafka Streams state directory (RocksDB stores)
     * @param applicationId prefix of the two Streams application ids ({@code -sequencer}, {@code -projector})
     * @param partitions partitions of new data topics (requests and events are co-partitioned)
     * @param replicationFactor replication factor of new topics
     * @param sequencer the sequencer's limits
     * @param instanceId this instance's stable name within the application (static group membership: a restarted
     *     instance takes its partitions back at once); unique per running instance
     * @param routing how several instances share the views (docs/architecture.md §19)
     */
    public record Settings(
            String bootstrapServers,
            Topics topics,
            Path stateDir,
            String applicationId,
            int partitions,
            short replicationFactor,
            WriteSettings sequencer,
            String instanceId,
            Routing routing) {

        public Settings {
            if (instanceId == null || instanceId.isBlank()) {
                throw new IllegalArgumentException("instanceId is required");
            }
            if (routing == null) {
                throw new IllegalArgumentException("routing is required (Routing.NONE for a single instance)");
            }
        }

        /** A single instance: no advertised endpoint, no standby replicas. */
        public Settings(
                String bootstrapServers,
                Topics topics,
                Path stateDir,
                String applicationId,
                int partitions,
                short replicationFactor,
                WriteSettings sequencer,
                String instanceId) {
            this(
                    bootstrapServers,
                    topics,
                    stateDir,
                    applicationId,
                    partitions,
                    replicationFactor,
                    sequencer,
                    instanceId,
                    Routing.NONE);
        }

        /** With this host's name as the instance id (one instance per host). */
        public Settings(
                String bootstrapServers,
                Topics topics,
                Path stateDir,
                String applicationId,
                int partitions,
                short replicationFactor,
                WriteSettings sequencer) {
            this(
                    bootstrapServers,
                    topics,
                    stateDir,
                    applicationId,
                    partitions,
                    replicationFactor,
                    sequencer,
                    defaultInstanceId());
        }

        /** This host's name. */
        public static String defaultInstanceId() {
            try {
                return java.net.InetAddress.getLocalHost().getHostName();
            } catch (java.net.UnknownHostException e) {
                return "instance";
            }
        }
    }

    /**
     * How N instances share the views (docs/architecture.md §19).
     *
     * @param applicationServer this instance's REST endpoint as {@code host:port}, the projection's
     *     {@code application.server} (interactive-query metadata names the owner of each space by it); null: not
     *     advertised, routing off
     * @param standbyReplicas {@code num.standby.replicas} of the stateful applications (sequencer, projection): warm
     *     copies on other instances, so a moved task restores from a nearly full local copy
     */
    public record Routing(String applicationServer, int standbyReplicas) {

        /** One instance: nothing advertised, no standbys. */
        public static final Routing NONE = new Routing(null, 0);

        public Routing {
            if (standbyReplicas < 0) {
                throw new IllegalArgumentException("standbyReplicas must be >= 0");
            }
            if (applicationServer != null
                    && !applicationServer.matches("(\\[[0-9A-Fa-f:.]+]|[A-Za-z0-9._-]+):[0-9]{1,5}")) {
                throw new IllegalArgumentException("applicationServer must be host:port, not " + applicationServer);
            }
        }
    }

    private final KafkaStreams sequencer;
    private final KafkaStreams projector;
    private final KafkaStreams embedder;
    private KafkaStreams linker;
    private final SearchIndexes indexes;
    private final AppliedSeqTracker tracker;
    private final MemoryViews views;
    private final MemoryViews staleViews;
    private final SpaceOwners owners;
    private final StreamFailures failures = new StreamFailures();
    private DataKeyRing keyRing;
    private ChainContent content = ChainContent.PLAINTEXT;

    private MemoryChainRuntime(
            KafkaStreams sequencer,
            KafkaStreams projector,
            KafkaStreams embedder,
            SearchIndexes indexes,
            AppliedSeqTracker tracker,
            int eventPartitions,
            Routing routing) {
        this.sequencer = sequencer;
        this.projector = projector;
        this.embedder = embedder;
        this.indexes = indexes;
        this.tracker = tracker;
        this.views = new StoreMemoryViews(projector, tracker, indexes, eventPartitions);
        this.staleViews = StoreMemoryViews.includingStaleCopies(projector, indexes, eventPartitions);
        this.owners = new SpaceOwners(
                projector,
                routing.applicationServer() == null ? null : HostInfo.buildFromEndpoint(routing.applicationServer()),
                StoreMemoryViews.partitioner(eventPartitions));
    }

    /**
     * Creates missing topics, starts the sequencer, the projection and the embedder, and waits until they are RUNNING.
     *
     * @param embedder the model that embeds new memory contents (the search indexes use its vectors only); null runs no
     *     embedder, and the indexes then search by keywords only
     */
    public static MemoryChainRuntime start(
            Settings settings, SchemaRegistry registry, ChainKeys keys, Embedder embedder, Duration timeout) {
        return start(settings, registry, keys, embedder, null, timeout);
    }

    /**
     * As {@link #start(Settings, SchemaRegistry, ChainKeys, Embedder, Duration)}, also running the linker
     * (docs/architecture.md §6) in this process when {@code linker} is given; the linker needs the embedder's vectors.
     */
    public static MemoryChainRuntime start(
            Settings settings,
            SchemaRegistry registry,
            ChainKeys keys,
            Embedder embedder,
            LinkerSettings linker,
            Duration timeout) {
        return start(settings, registry, keys, embedder, linker, timeout, null);
    }

    /**
     * As {@link #start(Settings, SchemaRegistry, ChainKeys, Embedder, LinkerSettings, Duration)}, with the memories'
     * texts encrypted on the chain under per-memory data keys wrapped by {@code contentKey} (docs/architecture.md §12,
     * erasure) and decrypted by every reader here through one {@link DataKeyRing}; null keeps them plain.
     */
    public static MemoryChainRuntime start(
            Settings settings,
            SchemaRegistry registry,
            ChainKeys keys,
            Embedder embedder,
            LinkerSettings linker,
            Duration timeout,
            MasterKey contentKey) {
        return start(settings, registry, keys, embedder, linker, timeout, contentKey, 1);
    }

    /**
     * As {@link #start(Settings, SchemaRegistry, ChainKeys, Embedder, LinkerSettings, Duration, MasterKey)}, with
     * {@code embedderThreads} stream threads in the embedder application: each embeds the memories of its own
     * partitions of the events topic, so up to that many memories are embedded at once (threads beyond the partitions
     * stay idle). The vectors are the same: each is a function of its text alone.
     */
    public static MemoryChainRuntime start(
            Settings settings,
            SchemaRegistry registry,
            ChainKeys keys,
            Embedder embedder,
            LinkerSettings linker,
            Duration timeout,
            MasterKey contentKey,
            int embedderThreads) {
        return start(
                settings,
                registry,
                io.memorychain.events.chain.SigningKeys.of(keys),
                embedder,
                linker,
                timeout,
                contentKey,
                embedderThreads);
    }

    /**
     * As {@link #start(Settings, SchemaRegistry, ChainKeys, Embedder, LinkerSettings, Duration, MasterKey, int)}, the
     * sequencer signing with {@code keys}: the default key, and the keys spaces rotated to (docs/architecture.md §4).
     */
    public static MemoryChainRuntime start(
            Settings settings,
            SchemaRegistry registry,
            io.memorychain.events.chain.SigningKeys keys,
            Embedder embedder,
            LinkerSettings linker,
            Duration timeout,
            MasterKey contentKey,
            int embedderThreads) {
        if (embedderThreads < 1) {
            throw new IllegalArgumentException("embedderThreads must be at least 1, was " + embedderThreads);
        }
        if (linker != null && (embedder == null || !linker.modelId().equals(embedder.modelId()))) {
            throw new IllegalArgumentException("the linker needs the embedder whose model it compares");
        }
        int eventPartitions = TopicSetup.ensure(
                settings.bootstrapServers(), settings.topics(), settings.partitions(), settings.replicationFactor());
        if (embedder != null && embedderThreads > eventPartitions) {
            log.warn(
                    "The embedder has {} stream threads but the events topic has {} partition(s): {} of them stay "
                            + "idle",
                    embedderThreads,
                    eventPartitions,
                    embedderThreads - eventPartitions);
        }
        AppliedSeqTracker tracker = new AppliedSeqTracker();
        SearchIndexes indexes = embedder == null
                ? SearchIndexes.onDisk(StreamsProperties.indexSettings(), NO_MODEL)
                : SearchIndexes.onDisk(
                        StreamsProperties.indexSettings().withDimensions(embedder.dimensions()), embedder.modelId());
        DataKeyRing ring = keyRing(settings, registry, contentKey);
        ChainContent content = ring == null ? ChainContent.PLAINTEXT : ChainContent.decrypting(ring);
        Topology sequencerTopology = SequencerTopology.build(
                settings.topics(),
                registry,
                new ChainSealer(keys),
                settings.sequencer(),
                Clock.systemUTC(),
                contentKey);
        KafkaStreams sequencer = new KafkaStreams(
                sequencerTopology, StreamsProperties.streamsConfig(settings, settings.applicationId() + "-sequencer"));
        KafkaStreams projector = new KafkaStreams(
                ProjectionTopology.build(settings.topics(), registry, tracker, indexes, content),
                StreamsProperties.projectionConfig(settings));
        KafkaStreams embedding = embedder == null
                ? null
                : new KafkaStreams(
                        EmbedderTopology.build(settings.topics(), registry, embedder, content),
                        StreamsProperties.embedderConfig(settings, embedder.modelId(), embedderThreads));
        KafkaStreams linking = linker == null
                ? null
                : new KafkaStreams(
                        LinkerTopology.build(
                                settings.topics(),
                                registry,
                                linker,
                                io.memorychain.projector.linker.LinkListener.NONE,
                                content),
                        StreamsProperties.streamsConfig(settings, settings.applicationId() + "-linker"));
        MemoryChainRuntime runtime = new MemoryChainRuntime(
                sequencer, projector, embedding, indexes, tracker, eventPartitions, settings.routing());
        runtime.linker = linking;
        runtime.keyRing = ring;
        runtime.content = content;
        try {
            Map<String, KafkaStreams> apps = new LinkedHashMap<>();
            apps.put("sequencer", sequencer);
            apps.put("projection", projector);
            if (embedding != null) {
                apps.put("embedder", embedding);
            }
            if (linking != null) {
                apps.put("linker", linking);
            }
            runtime.failures.startAndAwait(apps, timeout);
        } catch (RuntimeException e) {
            runtime.close();
            throw e;
        }
        log.info(
                "Sequencer, projection and embedder running (application id {}, key {}, model {})",
                settings.applicationId(),
                keys.defaultKey().keyId(),
                indexes.modelId());
        return runtime;
    }

    /** The data key ring over the settings' key topic, or null without a master key. */
    public static DataKeyRing keyRing(Settings settings, SchemaRegistry registry, MasterKey contentKey) {
        return contentKey == null
                ? null
                : new DataKeyRing(
                        Map.of("bootstrap.servers", settings.bootstrapServers()),
                        settings.topics().keys(),
                        registry,
                        contentKey,
                        Duration.ofSeconds(30));
    }

    /**
     * Starts only the projection (no sequencer): with a fresh application id and state directory this replays the whole
     * events topic into new stores, which is how views are rebuilt and how replays are checked against the live views.
     */
    public static MemoryChainRuntime startProjection(
            Settings settings, SchemaRegistry registry, String modelId, Duration timeout) {
        return startProjection(settings, registry, modelId, timeout, null);
    }

    /** As above, decrypting the chain's texts with data keys wrapped by {@code contentKey} (null: plain). */
    public static MemoryChainRuntime startProjection(
            Settings settings, SchemaRegistry registry, String modelId, Duration timeout, MasterKey contentKey) {
        int eventPartitions = TopicSetup.ensure(
                settings.bootstrapServers(), settings.topics(), settings.partitions(), settings.replicationFactor());
        AppliedSeqTracker tracker = new AppliedSeqTracker();
        SearchIndexes indexes = SearchIndexes.onDisk(StreamsProperties.indexSettings(), modelId);
        DataKeyRing ring = keyRing(settings, registry, contentKey);
        ChainContent content = ring == null ? ChainContent.PLAINTEXT : ChainContent.decrypting(ring);
        KafkaStreams projector = new KafkaStreams(
                ProjectionTopology.build(settings.topics(), registry, tracker, indexes, content),
                StreamsProperties.projectionConfig(settings));
        MemoryChainRuntime runtime =
                new MemoryChainRuntime(null, projector, null, indexes, tracker, eventPartitions, settings.routing());
        runtime.keyRing = ring;
        runtime.content = content;
        try {
            runtime.failures.startAndAwait(Map.of("projection", projector), timeout);
        } catch (RuntimeException e) {
            runtime.close();
            throw e;
        }
        return runtime;
    }

    public MemoryViews views() {
        return views;
    }

    /**
     * Tells {@code observer} of every event the projection applies (space and seq), on the projection's stream thread
     * right after its views changed: it must not block. For benchmarks and probes; read-your-writes waits use
     * {@link MemoryViews#awaitApplied}.
     */
    public void observeApplied(AppliedListener observer) {
        tracker.observe(observer);
    }

    /**
     * The views including this instance's standby replicas and restoring tasks (docs/architecture.md §19): only for a
     * read the routing decided to answer from such a copy, after checking its applied seq.
     */
    public MemoryViews staleViews() {
        return staleViews;
    }

    /** Which instance serves each space's views (interactive-query metadata of the projection). */
    public SpaceOwners owners() {
        return owners;
    }

    /**
     * The recent stream-thread failures of this runtime's applications ({@code sequencer}, {@code projection},
     * {@code embedder}, {@code linker}), for health checks: a failed thread is replaced, so a persistent fault (a full
     * disk, a broken store) shows here rather than in the applications' states.
     */
    public StreamFailures failures() {
        return failures;
    }

    /** The data key ring of this process (empty without encryption). */
    public java.util.Optional<DataKeyRing> dataKeys() {
        return java.util.Optional.ofNullable(keyRing);
    }

    /** How readers in this process decrypt the chain's texts (docs/architecture.md §12). */
    public ChainContent content() {
        return content;
    }

    /** The search indexes of this process's projection tasks (their reuse and rebuild counts). */
    public SearchIndexes searchIndexes() {
        return indexes;
    }

    /** The projection's Streams instance (for metadata and health). */
    public KafkaStreams projectorStreams() {
        return projector;
    }

    /** The embedder's Streams instance (null when this runtime only projects). */
    public KafkaStreams embedderStreams() {
        return embedder;
    }

    /** The linker's Streams instance (null when this runtime does not link). */
    public KafkaStreams linkerStreams() {
        return linker;
    }

    /** The sequencer's Streams instance (for metadata and health). */
    public KafkaStreams sequencerStreams() {
        return sequencer;
    }

    @Override
    public void close() {
        if (sequencer != null) {
            sequencer.close(Duration.ofSeconds(30));
        }
        if (linker != null) {
            linker.close(Duration.ofSeconds(30));
        }
        if (embedder != null) {
            embedder.close(Duration.ofSeconds(30));
        }
        projector.close(Duration.ofSeconds(30));
        indexes.close();
        if (keyRing != null) {
            keyRing.close();
        }
    }
}
