package io.memorychain.projector;

import io.memorychain.avro.Actor;
import io.memorychain.avro.ActorType;
import io.memorychain.avro.DataKeyRecord;
import io.memorychain.avro.MemoryAccess;
import io.memorychain.avro.MemoryEmbedding;
import io.memorychain.avro.MemoryEvent;
import io.memorychain.avro.MemoryOutcome;
import io.memorychain.avro.MemoryRequest;
import io.memorychain.domain.decide.WriteSettings;
import io.memorychain.embeddings.Embedder;
import io.memorychain.events.Requests;
import io.memorychain.events.Topics;
import io.memorychain.events.chain.ChainKeys;
import io.memorychain.events.chain.ChainSealer;
import io.memorychain.events.content.ChainContent;
import io.memorychain.events.content.DataKeyRing;
import io.memorychain.events.content.MasterKey;
import io.memorychain.events.serde.AvroWireSerde;
import io.memorychain.events.testing.InMemorySchemaRegistry;
import io.memorychain.projector.embedding.EmbedderTopology;
import io.memorychain.projector.projection.ProjectionTopology;
import io.memorychain.projector.search.IndexSettings;
import io.memorychain.projector.search.SearchIndexes;
import io.memorychain.projector.sequencer.SequencerTopology;
import io.memorychain.projector.view.AppliedSeqTracker;
import io.memorychain.projector.view.MemoryViews;
import io.memorychain.projector.view.StoreMemoryViews;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.test.TestRecord;

/**
 * Sequencer and projection on TopologyTestDriver, wired as in production: requests in, events of the sequencer piped
 * into the projection. For unit tests of decisions and views.
 */
public final class ChainHarness implements AutoCloseable {

    public static final Actor AGENT = Requests.actor(ActorType.AGENT, "planner");
    public static final Actor ADMIN = Requests.actor(ActorType.ADMIN, "root");

    public final Topics topics = Topics.defaults();
    public final InMemorySchemaRegistry registry = new InMemorySchemaRegistry();
    public final ChainKeys keys = ChainKeys.generate();
    /** The sequencer's signing keys: {@link #keys} is the default; a test adds keys to rotate to. */
    public final io.memorychain.events.chain.SigningKeys signingKeys = io.memorychain.events.chain.SigningKeys.of(keys);

    public Instant now = Instant.parse("2026-01-01T00:00:00Z");
    private final TopologyTestDriver sequencer;
    private final TopologyTestDriver projection;
    private final TopologyTestDriver embedding;
    private final TestInputTopic<byte[], byte[]> embedderIn;
    private final TestOutputTopic<String, MemoryEmbedding> embeddingsOut;
    private final TestInputTopic<byte[], byte[]> embeddingsIn;
    private final TestInputTopic<byte[], byte[]> accessIn;
    private final TestInputTopic<byte[], byte[]> requestsIn;
    private final TestOutputTopic<String, MemoryEvent> eventsOut;
    private final TestOutputTopic<String, MemoryOutcome> outcomesOut;
    private final TestOutputTopic<byte[], byte[]> sequencerDlq;
    private final TestInputTopic<byte[], byte[]> eventsIn;
    private final TestOutputTopic<byte[], byte[]> projectionDlq;
    private final AvroWireSerde<MemoryRequest> requestSerde = AvroWireSerde.forValues(registry, MemoryRequest.class);
    private final AvroWireSerde<MemoryEvent> eventSerde = AvroWireSerde.forValues(registry, MemoryEvent.class);
    private final List<MemoryEvent> chain = new ArrayList<>();
    private final TestOutputTopic<String, DataKeyRecord> keysOut;
    /** The latest key record per memory, as a compacted key topic holds them. */
    public final java.util.Map<String, DataKeyRecord> dataKeys = new java.util.concurrent.ConcurrentHashMap<>();
    /** Every key record the sequencer wrote, in order. */
    public final List<DataKeyRecord> keyRecords = new ArrayList<>();
    /** The master key, or null without encryption. */
    public final MasterKey contentKey;

    private final List<MemoryEmbedding> embeddings = new ArrayList<>();
    private final AvroWireSerde<MemoryEmbedding> embeddingSerde =
            AvroWireSerde.forValues(registry, MemoryEmbedding.class);
    private final AvroWireSerde<MemoryAccess> accessSerde = AvroWireSerde.forValues(registry, MemoryAccess.class);
    /** The sequencer's clock: reads {@link #now}. */
    public final Clock clock;

    public final SearchIndexes indexes;
    public final MemoryViews views;
    /** What the projection reports applied (read-your-writes waiters wake on it). */
    public final AppliedSeqTracker tracker;
    /** The embedder of this harness; null when it runs without one (keyword search only). */
    public final Embedder embedder;

    public ChainHarness() {
        this(WriteSettings.defaults());
    }

    public ChainHarness(WriteSettings settings) {
        this(settings, null);
    }

    /** With an embedder: the embedder topology runs too and its embeddings flow into the projection. */
    public ChainHarness(Embedder embedder) {
        this(WriteSettings.defaults(), embedder);
    }

    public ChainHarness(WriteSettings settings, Embedder embedder) {
        this(settings, embedder, null);
    }

    /**
     * With content encryption (docs/architecture.md §12): the sequencer encrypts under data keys wrapped by
     * {@code contentKey}; the key records it writes are kept in {@link #dataKeys} and the projection and the embedder
     * decrypt with them, as a {@code DataKeyRing} over the key topic would.
     */
    public ChainHarness(WriteSettings settings, Embedder embedder, MasterKey contentKey) {
        this.embedder = embedder;
        this.contentKey = contentKey;
        ChainContent content = contentKey == null
                ? ChainContent.PLAINTEXT
                : ChainContent.decrypting((space, id) -> {
                    DataKeyRecord r = dataKeys.get(DataKeyRing.recordKey(space, id));
                    return r == null ? null : DataKeyRing.toKey(r, contentKey);
                });
        clock = new Clock() {
            @Override
            public ZoneOffset getZone() {
                return ZoneOffset.UTC;
            }

            @Override
            public Clock withZone(java.time.ZoneId zone) {
                return this;
            }

            @Override
            public Instant instant() {
                return now;
            }
        };
        sequencer = new TopologyTestDriver(
                SequencerTopology.build(topics, registry, new ChainSealer(signingKeys), settings, clock, contentKey),
                props("seq"));
        keysOut = sequencer.createOutputTopic(
                topics.keys(), new StringDeserializer(), AvroWireSerde.forValues(registry, DataKeyRecord.class));
        tracker = new AppliedSeqTracker();
        indexes = SearchIndexes.inMemory(IndexSettings.DEFAULTS, embedder == null ? "none" : embedder.modelId());
        projection = new TopologyTestDriver(
                ProjectionTopology.build(topics, registry, tracker, indexes, content), props("proj"));
        embedding = embedder == null
                ? null
                : new TopologyTestDriver(EmbedderTopology.build(topics, registry, embedder, content), props("embed"));
        embedderIn = embedding == null
                ? null
                : embedding.createInputTopic(topics.events(), new ByteArraySerializer(), new ByteArraySerializer());
        embeddingsOut = embedding == null
                ? null
                : embedding.createOutputTopic(topics.embeddings(), new StringDeserializer(), embeddingSerde);
        embeddingsIn =
                projection.createInputTopic(topics.embeddings(), new ByteArraySerializer(), new ByteArraySerializer());
        accessIn = projection.createInputTopic(topics.access(), new ByteArraySerializer(), new ByteArraySerializer());
        requestsIn =
                sequencer.createInputTopic(topics.requests(), new ByteArraySerializer(), new ByteArraySerializer());
        eventsOut = sequencer.createOutputTopic(topics.events(), new StringDeserializer(), eventSerde);
        outcomesOut = sequencer.createOutputTopic(
                topics.outcomes(), new StringDeserializer(), AvroWireSerde.forValues(registry, MemoryOutcome.class));
        sequencerDlq = sequencer.createOutputTopic(
                topics.deadLetters(), new ByteArrayDeserializer(), new ByteArrayDeserializer());
        eventsIn = projection.createInputTopic(topics.events(), new ByteArraySerializer(), new ByteArraySerializer());
        projectionDlq = projection.createOutputTopic(
                topics.deadLetters(), new ByteArrayDeserializer(), new ByteArrayDeserializer());
        views = new StoreMemoryViews(projection::getKeyValueStore, tracker, indexes, space -> 0);
    }

    /** The state directories of this harness's drivers, deleted on {@link #close()}. */
    private final List<java.nio.file.Path> stateDirs = new java.util.ArrayList<>();

    /** State directories of harnesses not closed yet: deleted when the test JVM exits (tests that never close one). */
    private static final java.util.Set<java.nio.file.Path> OPEN_STATE_DIRS =
            java.util.concurrent.ConcurrentHashMap.newKeySet();

    static {
        Runtime.getRuntime()
                .addShutdownHook(new Thread(
                        () -> OPEN_STATE_DIRS.forEach(dir -> {
                            try {
                                deleteTree(dir);
                            } catch (RuntimeException e) { // the JVM is exiting: nothing else to do about it
                                System.err.println(e.getMessage());
                            }
                        }),
                        "chain-harness-state-cleanup"));
    }

    private Properties props(String id) {
        Properties p = new Properties();
        String applicationId = "harness-" + id + "-" + java.util.UUID.randomUUID();
        p.put(StreamsConfig.APPLICATION_ID_CONFIG, applicationId);
        p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
        // the driver checkpoints every store after every record: on tmpfs when there is one, not on the disk
        java.nio.file.Path shm = java.nio.file.Path.of("/dev/shm");
        if (java.nio.file.Files.isDirectory(shm) && java.nio.file.Files.isWritable(shm)) {
            java.nio.file.Path root = shm.resolve("memory-chain-harness");
            p.put(StreamsConfig.STATE_DIR_CONFIG, root.toString());
            // the driver leaves the projection's task directory behind (its search index files): tmpfs is memory,
            // so every harness removes its own (they filled 20 GB of RAM over a day of test runs)
            stateDirs.add(root.resolve(applicationId));
            OPEN_STATE_DIRS.add(root.resolve(applicationId));
        }
        return p;
    }

    /** Submits the request; returns its outcome. Accepted events flow on into the projection. */
    public MemoryOutcome submit(MemoryRequest request) {
        requestsIn.pipeInput(
                request.getSpace().getBytes(StandardCharsets.UTF_8),
                requestSerde.serialize(topics.requests(), request));
        drainEvents();
        List<MemoryOutcome> outcomes = outcomesOut.readValuesToList();
        if (outcomes.size() != 1) {
            throw new IllegalStateException("expected one outcome, got " + outcomes.size());
        }
        return outcomes.get(0);
    }

    /** Submits with an explicit record timestamp (the producer's time, which request id retention is measured in). */
    public MemoryOutcome submitAt(MemoryRequest request, Instant recordTime) {
        requestsIn.pipeInput(
                request.getSpace().getBytes(StandardCharsets.UTF_8),
                requestSerde.serialize(topics.requests(), request),
                recordTime);
        drainEvents();
        List<MemoryOutcome> outcomes = outcomesOut.readValuesToList();
        if (outcomes.size() != 1) {
            throw new IllegalStateException("expected one outcome, got " + outcomes.size());
        }
        return outcomes.get(0);
    }

    public MemoryOutcome submit(MemoryRequest.Builder request) {
        return submit(request.build());
    }

    /** Pipes raw bytes into the requests topic (for malformed-input tests). */
    public void submitRaw(byte[] key, byte[] value) {
        requestsIn.pipeInput(key, value);
        drainEvents();
    }

    private void drainEvents() {
        for (TestRecord<String, DataKeyRecord> r : keysOut.readRecordsToList()) {
            keyRecords.add(r.value());
            dataKeys.put(r.key(), r.value());
        }
        for (TestRecord<String, MemoryEvent> r : eventsOut.readRecordsToList()) {
            chain.add(r.value());
            byte[] key = r.key().getBytes(StandardCharsets.UTF_8);
            byte[] value = eventSerde.serialize(topics.events(), r.value());
            eventsIn.pipeInput(key, value);
            if (embedderIn != null) {
                embedderIn.pipeInput(key, value);
                for (MemoryEmbedding e : embeddingsOut.readValuesToList()) {
                    pipeEmbedding(e);
                }
            }
        }
    }

    /** Pipes an embedding record into the projection (as the embedder would publish it). */
    public void pipeEmbedding(MemoryEmbedding embedding) {
        embeddings.add(embedding);
        embeddingsIn.pipeInput(
                embedding.getSpace().getBytes(StandardCharsets.UTF_8),
                embeddingSerde.serialize(topics.embeddings(), embedding));
    }

    /** Pipes an access record into the projection (as the read path would publish it). */
    public void recordAccess(MemoryAccess access) {
        accessIn.pipeInput(
                access.getSpace().getBytes(StandardCharsets.UTF_8), accessSerde.serialize(topics.access(), access));
    }

    /** Pipes an already-sequenced event into the projection again (replay). */
    public void replayIntoProjection(MemoryEvent event) {
        eventsIn.pipeInput(
                event.getSpace().getBytes(StandardCharsets.UTF_8), eventSerde.serialize(topics.events(), event));
    }

    /**
     * Pipes an already-sequenced event into this harness's embedder, as a new embedder application reading the chain
     * from the start does, and its embeddings into the projection.
     */
    public void embedAgain(MemoryEvent event) {
        if (embedderIn == null) {
            throw new IllegalStateException("this harness has no embedder");
        }
        embedderIn.pipeInput(
                event.getSpace().getBytes(StandardCharsets.UTF_8), eventSerde.serialize(topics.events(), event));
        for (MemoryEmbedding e : embeddingsOut.readValuesToList()) {
            pipeEmbedding(e);
        }
    }

    /** Views over this harness's projection stores as a process configured with another embedding model reads them. */
    public MemoryViews viewsConfiguredFor(String modelId) {
        return new StoreMemoryViews(
                projection::getKeyValueStore,
                new AppliedSeqTracker(),
                SearchIndexes.inMemory(IndexSettings.DEFAULTS, modelId),
                space -> 0);
    }

    public void pipeRawEvent(byte[] key, byte[] value) {
        eventsIn.pipeInput(key, value);
    }

    public void pipeRawEmbedding(byte[] key, byte[] value) {
        embeddingsIn.pipeInput(key, value);
    }

    /** The projection's store of the input position its search index stands at (docs/architecture.md §6). */
    public org.apache.kafka.streams.state.KeyValueStore<String, Long> indexPositionStore() {
        return projection.getKeyValueStore(ProjectionTopology.INDEX_POSITION);
    }

    public List<MemoryEvent> chain() {
        return chain;
    }

    /** One of the sequencer's key-value stores (e.g. {@code SequencerTopology.SUBJECTS_STORE}). */
    public <V> org.apache.kafka.streams.state.KeyValueStore<String, V> sequencerStore(String name) {
        return sequencer.getKeyValueStore(name);
    }

    /**
     * Every embedding piped into the projection so far, in order (the embedder's output and {@link #pipeEmbedding}).
     */
    public List<MemoryEmbedding> embeddings() {
        return embeddings;
    }

    public List<MemoryOutcome> pendingOutcomes() {
        return outcomesOut.readValuesToList();
    }

    public List<TestRecord<byte[], byte[]>> sequencerDeadLetters() {
        return sequencerDlq.readRecordsToList();
    }

    public List<TestRecord<byte[], byte[]>> projectionDeadLetters() {
        return projectionDlq.readRecordsToList();
    }

    public static String header(Headers headers, String name) {
        return new String(headers.lastHeader(name).value(), StandardCharsets.UTF_8);
    }

    public void advance(Duration d) {
        now = now.plus(d);
    }

    @Override
    public void close() {
        sequencer.close();
        projection.close();
        if (embedding != null) {
            embedding.close();
        }
        indexes.close();
        for (java.nio.file.Path dir : stateDirs) {
            deleteTree(dir);
            OPEN_STATE_DIRS.remove(dir);
        }
    }

    private static void deleteTree(java.nio.file.Path dir) {
        if (!java.nio.file.Files.exists(dir)) {
            return;
        }
        try (java.util.stream.Stream<java.nio.file.Path> all = java.nio.file.Files.walk(dir)) {
            all.sorted(java.util.Comparator.reverseOrder())
                    .forEach(path -> path.toFile().delete());
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException("Cannot delete the harness's state directory " + dir, e);
        }
    }
}
