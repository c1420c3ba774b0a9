package io.memorychain.api.topology;

import io.memorychain.api.backend.MemoryBackend;
import io.memorychain.api.backend.MemoryChainBackend;
import io.memorychain.api.config.CoreConfig;
import io.memorychain.avro.Memory;
import io.memorychain.avro.MemoryAccess;
import io.memorychain.avro.MemoryEmbedding;
import io.memorychain.avro.MemoryEvent;
import io.memorychain.avro.MemoryOutcome;
import io.memorychain.avro.MemoryRequest;
import io.memorychain.avro.OperationalEvent;
import io.memorychain.avro.view.AccessStats;
import io.memorychain.avro.view.AuditEntry;
import io.memorychain.avro.view.Grant;
import io.memorychain.avro.view.GrantRead;
import io.memorychain.avro.view.HistoryEntry;
import io.memorychain.avro.view.Proposal;
import io.memorychain.avro.view.RefinementEdit;
import io.memorychain.avro.view.RefinementSession;
import io.memorychain.avro.view.Reflection;
import io.memorychain.avro.view.Relation;
import io.memorychain.avro.view.ThreadChange;
import io.memorychain.domain.category.CategoryPolicy;
import io.memorychain.domain.core.CoreView;
import io.memorychain.domain.decide.WriteSettings;
import io.memorychain.embeddings.Embedder;
import io.memorychain.events.Topics;
import io.memorychain.events.chain.Checkpoint;
import io.memorychain.events.chain.KeyRing;
import io.memorychain.events.chain.PublicKeyInfo;
import io.memorychain.events.registry.SchemaRegistry;
import io.memorychain.events.serde.AvroWireSerde;
import io.memorychain.projector.ChainHarness;
import io.memorychain.projector.SharedEmbedder;
import io.memorychain.projector.ops.OpsCounts;
import io.memorychain.projector.ops.OpsTopology;
import io.memorychain.projector.ops.OpsTotals;
import io.memorychain.projector.search.Hit;
import io.memorychain.projector.search.SearchRequest;
import io.memorychain.projector.search.ThreadNeighbours;
import io.memorychain.projector.view.ListQuery;
import io.memorychain.projector.view.MemoryViews;
import io.memorychain.projector.view.Page;
import io.micronaut.context.annotation.Replaces;
import io.micronaut.context.annotation.Requires;
import jakarta.annotation.PreDestroy;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Predicate;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TopologyTestDriver;

/**
 * The REAL sequencer and projection topologies on TopologyTestDriver (no broker), for HTTP-level tests of the API:
 * every rule the API relies on is the production rule, so these tests cannot drift from the chain. Active only in the
 * {@code topology-backend} environment; the same contract runs against Kafka in {@code MemoryApiIT}.
 */
@Singleton
@Requires(env = TopologyBackend.ENV)
@Replaces(MemoryChainBackend.class)
public class TopologyBackend implements MemoryBackend, MemoryViews {

    public static final String ENV = "topology-backend";

    private final ChainHarness harness;
    private final List<MemoryRequest> published = new CopyOnWriteArrayList<>();
    /** When set, requests are published but their outcome never arrives (to test the write timeout). */
    public volatile boolean stall;

    /** Without category allowlists. */
    public TopologyBackend() {
        this(CategoryPolicy.unrestricted());
    }

    /** The sequencer enforces the application's categories file, as {@code MemoryChainBackend} does. */
    public TopologyBackend(CategoryPolicy categories) {
        this(categories, new CoreConfig(), new io.memorychain.api.config.ProposalConfig());
    }

    /**
     * ... and the configured core-memory cap ({@code memory.core.*}) and proposal review modes
     * ({@code memory.proposals.*}), as {@code MemoryChainBackend} does.
     */
    @Inject
    public TopologyBackend(
            CategoryPolicy categories, CoreConfig core, io.memorychain.api.config.ProposalConfig proposals) {
        harness = new ChainHarness(
                WriteSettings.defaults()
                        .withCategories(categories)
                        .withCoreCap(core.policy())
                        .withReviews(proposals.reviewPolicy()),
                SharedEmbedder.get());
    }

    @Override
    public synchronized CompletableFuture<MemoryOutcome> publish(MemoryRequest request) {
        published.add(request);
        if (stall) {
            return new CompletableFuture<>();
        }
        MemoryOutcome outcome = harness.submit(request);
        notifyAll(); // wakes awaitApplied (change streams wait there for the next seq)
        return CompletableFuture.completedFuture(outcome);
    }

    public List<MemoryRequest> published() {
        return published;
    }

    public ChainHarness harness() {
        return harness;
    }

    @Override
    public MemoryViews views() {
        return this;
    }

    /** Routing under test (docs/architecture.md §19): the owner of each space; default: this instance, unrouted. */
    public volatile java.util.function.Function<String, io.memorychain.projector.view.SpaceOwner> owners =
            space -> io.memorychain.projector.view.SpaceOwner.UNROUTED;
    /** Routing under test: this instance's advertised URL (null: does not route). */
    public volatile java.net.URI advertised;

    @Override
    public io.memorychain.projector.view.SpaceOwner ownerOf(String space) {
        return owners.apply(space);
    }

    /** Routing under test: the applied seq of this instance's standby copy of a space (empty: no copy here). */
    public volatile java.util.function.Function<String, java.util.OptionalLong> standbyApplied =
            space -> java.util.OptionalLong.empty();

    @Override
    public java.util.OptionalLong standbyAppliedSeq(String space, io.memorychain.projector.view.SpaceOwner owner) {
        return standbyApplied.apply(space);
    }

    @Override
    public Optional<java.net.URI> advertisedUrl() {
        return Optional.ofNullable(advertised);
    }

    @Override
    public synchronized void recordAccess(MemoryAccess access) {
        harness.recordAccess(access);
    }

    // ---- the ops app (docs/architecture.md §2 memory.ops.v1) on its own driver, fed the chain on demand

    private final OpsTotals opsTotals = new OpsTotals();
    private TopologyTestDriver opsDriver;
    private TestInputTopic<byte[], byte[]> opsEvents;
    private TestInputTopic<byte[], byte[]> opsIn;
    private int opsFed;

    /** Feeds the ops app the chain events it has not seen (the ops app reads the chain like any Streams app). */
    private void feedOps() {
        if (opsDriver == null) {
            java.util.Properties p = new java.util.Properties();
            p.put(StreamsConfig.APPLICATION_ID_CONFIG, "ops-" + java.util.UUID.randomUUID());
            p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
            opsDriver = new TopologyTestDriver(OpsTopology.build(harness.topics, harness.registry, opsTotals), p);
            opsEvents = opsDriver.createInputTopic(
                    harness.topics.events(), new ByteArraySerializer(), new ByteArraySerializer());
            opsIn = opsDriver.createInputTopic(
                    harness.topics.ops(), new ByteArraySerializer(), new ByteArraySerializer());
        }
        AvroWireSerde<MemoryEvent> serde = AvroWireSerde.forValues(harness.registry, MemoryEvent.class);
        while (opsFed < harness.chain().size()) {
            MemoryEvent e = harness.chain().get(opsFed++);
            opsEvents.pipeInput(
                    e.getSpace().getBytes(StandardCharsets.UTF_8), serde.serialize(harness.topics.events(), e));
        }
    }

    @Override
    public synchronized void recordOp(OperationalEvent op) {
        feedOps();
        opsIn.pipeInput(
                op.getSpace().getBytes(StandardCharsets.UTF_8),
                AvroWireSerde.forValues(harness.registry, OperationalEvent.class)
                        .serialize(harness.topics.ops(), op));
    }

    @Override
    public Optional<OpsCounts> opsCounts() {
        return Optional.of(new OpsCounts(() -> {
            synchronized (this) {
                feedOps();
                return opsDriver.<String, Long>getKeyValueStore(OpsTopology.COUNTS);
            }
        }));
    }

    @Override
    public OpsTotals opsTotals() {
        return opsTotals;
    }

    @Override
    public java.time.Clock clock() {
        return harness.clock;
    }

    @Override
    public Embedder embedder() {
        return harness.embedder;
    }

    @Override
    public synchronized List<Relation> relations(String space, String id) {
        return harness.views.relations(space, id);
    }

    @Override
    public synchronized double relationStrength(String space, String id) {
        return harness.views.relationStrength(space, id);
    }

    @Override
    public synchronized Optional<io.memorychain.avro.view.EdgeVersion> edgeAt(
            String space, String fromId, String toId, long seq) {
        return harness.views.edgeAt(space, fromId, toId, seq);
    }

    @Override
    public synchronized boolean edgeHistoryWhole(String space) {
        return harness.views.edgeHistoryWhole(space);
    }

    @Override
    public synchronized Optional<MemoryEmbedding> embedding(String space, String id) {
        return harness.views.embedding(space, id);
    }

    @Override
    public synchronized Optional<AccessStats> access(String space, String id) {
        return harness.views.access(space, id);
    }

    @Override
    public synchronized List<Hit> search(SearchRequest request) {
        return harness.views.search(request);
    }

    @Override
    public synchronized Map<String, ThreadNeighbours> threadNeighbours(String space, Collection<Memory> memories) {
        return harness.views.threadNeighbours(space, memories);
    }

    @Override
    public String bootstrapServers() {
        return "topology-test-driver:0";
    }

    @Override
    public Topics topics() {
        return harness.topics;
    }

    @Override
    public SchemaRegistry registry() {
        return harness.registry;
    }

    @Override
    public KeyRing publicKeys() {
        return harness.keys.publicRing();
    }

    @Override
    public List<PublicKeyInfo> publishedKeys() {
        return List.of(PublicKeyInfo.of(harness.keys, null, true));
    }

    @Override
    public Checkpoint signCheckpoint(String space, long seq, byte[] hash) {
        return Checkpoint.sign(harness.keys, space, seq, hash, java.time.Instant.now());
    }

    @Override
    public Map<String, String> streamStates() {
        return Map.of("sequencer", "RUNNING", "projection", "RUNNING"); // the drivers process synchronously
    }

    /** A clock for the failure window, moved by {@link #forgetStreamFailures()}. */
    private final java.util.concurrent.atomic.AtomicReference<java.time.Instant> failureTime =
            new java.util.concurrent.atomic.AtomicReference<>(java.time.Instant.parse("2026-01-01T00:00:00Z"));

    private final io.memorychain.projector.support.StreamFailures failures =
            new io.memorychain.projector.support.StreamFailures(
                    new java.time.Clock() {
                        @Override
                        public java.time.ZoneId getZone() {
                            return java.time.ZoneOffset.UTC;
                        }

                        @Override
                        public java.time.Clock withZone(java.time.ZoneId zone) {
                            return this;
                        }

                        @Override
                        public java.time.Instant instant() {
                            return failureTime.get();
                        }
                    },
                    io.memorychain.projector.support.StreamFailures.DEFAULT_WINDOW);

    /** Stream-thread failures as a real runtime records them (tests record one to see {@code /health} go DOWN). */
    public io.memorychain.projector.support.StreamFailures streamFailureLog() {
        return failures;
    }

    /** Moves the failure clock past the window: the recorded failures are no longer current. */
    public void forgetStreamFailures() {
        failureTime.updateAndGet(t -> t.plus(io.memorychain.projector.support.StreamFailures.DEFAULT_WINDOW)
                .plusSeconds(1));
    }

    @Override
    public Map<String, Map<String, Object>> streamFailures() {
        Map<String, Map<String, Object>> out = new java.util.LinkedHashMap<>();
        failures.current().forEach((app, failure) -> out.put(app, failure.details()));
        return out;
    }

    // TopologyTestDriver is single-threaded: views are read under the same lock as writes.

    @Override
    public synchronized Optional<Memory> memory(String space, String id) {
        return harness.views.memory(space, id);
    }

    @Override
    public synchronized Page<Memory> list(String space, ListQuery query) {
        return harness.views.list(space, query);
    }

    @Override
    public synchronized Optional<Memory> block(String space, String label) {
        return harness.views.block(space, label);
    }

    @Override
    public synchronized CoreView core(String space) {
        return harness.views.core(space);
    }

    @Override
    public synchronized List<HistoryEntry> history(String space, String id) {
        return harness.views.history(space, id);
    }

    @Override
    public synchronized void histories(String space, String afterId, Predicate<List<HistoryEntry>> visit) {
        harness.views.histories(space, afterId, visit);
    }

    @Override
    public synchronized List<AuditEntry> audit(String space, long afterSeq, int limit) {
        return harness.views.audit(space, afterSeq, limit);
    }

    @Override
    public synchronized long threadRevision(String space, String thread) {
        return harness.views.threadRevision(space, thread);
    }

    @Override
    public synchronized List<ThreadChange> threadChanges(String space, String thread, long sinceRev, int limit) {
        return harness.views.threadChanges(space, thread, sinceRev, limit);
    }

    @Override
    public synchronized Optional<Proposal> proposal(String space, String id) {
        return harness.views.proposal(space, id);
    }

    @Override
    public synchronized Optional<Reflection> reflection(String space, String id) {
        return harness.views.reflection(space, id);
    }

    @Override
    public synchronized io.memorychain.avro.view.SpaceGovernance governance(String space) {
        return harness.views.governance(space);
    }

    @Override
    public synchronized List<Reflection> reflections(String space) {
        return harness.views.reflections(space);
    }

    @Override
    public synchronized Optional<Grant> grant(String space, String id) {
        return harness.views.grant(space, id);
    }

    @Override
    public synchronized List<Grant> grants(String space) {
        return harness.views.grants(space);
    }

    @Override
    public synchronized List<GrantRead> grantReads(String space, String grantId) {
        return harness.views.grantReads(space, grantId);
    }

    @Override
    public synchronized List<Proposal> openProposals(String space) {
        return harness.views.openProposals(space);
    }

    @Override
    public synchronized Optional<RefinementSession> openRefinement(String space) {
        return harness.views.openRefinement(space);
    }

    @Override
    public synchronized Optional<RefinementSession> refinement(String space, String sessionId) {
        return harness.views.refinement(space, sessionId);
    }

    @Override
    public synchronized List<RefinementSession> refinements(String space) {
        return harness.views.refinements(space);
    }

    @Override
    public synchronized List<RefinementEdit> refinementEdits(String space, String sessionId) {
        return harness.views.refinementEdits(space, sessionId);
    }

    @Override
    public synchronized long appliedSeq(String space) {
        return harness.views.appliedSeq(space);
    }

    @Override
    public synchronized java.util.Map<String, Long> appliedSeqs(int limit) {
        return harness.views.appliedSeqs(limit);
    }

    @Override
    public synchronized boolean awaitApplied(String space, long seq, Duration timeout) throws InterruptedException {
        // the driver applies synchronously within publish: a write's own seq is always there already; a later seq
        // (a change stream waiting for the next event) comes with a later publish, which notifies
        long deadline = System.nanoTime() + timeout.toNanos();
        while (harness.views.appliedSeq(space) < seq) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                return false;
            }
            java.util.concurrent.TimeUnit.NANOSECONDS.timedWait(this, left);
        }
        return true;
    }

    @PreDestroy
    synchronized void close() {
        if (opsDriver != null) {
            opsDriver.close();
        }
        harness.close();
    }
}
