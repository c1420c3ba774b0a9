package io.memorychain.projector.view;

import io.memorychain.avro.Memory;
import io.memorychain.avro.MemoryEmbedding;
import io.memorychain.avro.MemoryState;
import io.memorychain.avro.view.AccessStats;
import io.memorychain.avro.view.AuditEntry;
import io.memorychain.avro.view.EdgeVersion;
import io.memorychain.avro.view.Grant;
import io.memorychain.avro.view.GrantRead;
import io.memorychain.avro.view.HistoryEntry;
import io.memorychain.avro.view.Proposal;
import io.memorychain.avro.view.RefinementEdit;
import io.memorychain.avro.view.RefinementSession;
import io.memorychain.avro.view.Reflection;
import io.memorychain.avro.view.Relation;
import io.memorychain.avro.view.ThreadChange;
import io.memorychain.domain.core.CoreFormatter;
import io.memorychain.domain.core.CoreView;
import io.memorychain.projector.projection.ProjectionTopology;
import io.memorychain.projector.search.Hit;
import io.memorychain.projector.search.MemoryIndex;
import io.memorychain.projector.search.SearchIndexes;
import io.memorychain.projector.search.SearchRequest;
import io.memorychain.projector.search.ThreadNeighbours;
import io.memorychain.projector.support.StoreKeys;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.ToIntFunction;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.common.utils.Utils;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StoreQueryParameters;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.QueryableStoreTypes;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;

/** {@link MemoryViews} over the projection's stores on this instance (interactive queries). */
public final class StoreMemoryViews implements MemoryViews {

    private final Function<String, ReadOnlyKeyValueStore<String, ?>> stores;
    private final AppliedSeqTracker tracker;
    private final SearchIndexes indexes;
    private final ToIntFunction<String> partitionOf;
    private final Map<String, ReadOnlyKeyValueStore<String, ?>> handles = new ConcurrentHashMap<>();

    /**
     * Over a running projection: a space's index is found through the partition its events are on (the producers'
     * default partitioner: murmur2 of the space's UTF-8 bytes modulo the events topic's partition count).
     */
    public StoreMemoryViews(
            KafkaStreams streams, AppliedSeqTracker tracker, SearchIndexes indexes, int eventPartitions) {
        this(
                name -> streams.store(StoreQueryParameters.fromNameAndType(name, QueryableStoreTypes.keyValueStore())),
                tracker,
                indexes,
                partitioner(eventPartitions));
    }

    /**
     * The views of this instance's stale copies too (docs/architecture.md §19): standby replicas and active tasks still
     * restoring, besides the running active tasks (Kafka Streams' {@code enableStaleStores}). Its applied seq is the
     * {@code view-applied} store's alone. A space's keys live in its partition's stores only, so a read finds the one
     * copy this instance holds. Search indexes are built by the active tasks alone: a standby copy has none.
     */
    public static StoreMemoryViews includingStaleCopies(
            KafkaStreams streams, SearchIndexes indexes, int eventPartitions) {
        return new StoreMemoryViews(
                name -> streams.store(
                        StoreQueryParameters.fromNameAndType(name, QueryableStoreTypes.<String, Object>keyValueStore())
                                .enableStaleStores()),
                new AppliedSeqTracker(),
                indexes,
                partitioner(eventPartitions));
    }

    /** The events partition of a space: the producers' default partitioner (murmur2 of its UTF-8 bytes). */
    public static ToIntFunction<String> partitioner(int eventPartitions) {
        return space -> Utils.toPositive(Utils.murmur2(space.getBytes(StandardCharsets.UTF_8))) % eventPartitions;
    }

    /**
     * For tests: any store lookup (e.g. TopologyTestDriver's stores).
     *
     * @param partitionOf the events partition of a space (negative when unknown)
     */
    public StoreMemoryViews(
            Function<String, ReadOnlyKeyValueStore<String, ?>> stores,
            AppliedSeqTracker tracker,
            SearchIndexes indexes,
            ToIntFunction<String> partitionOf) {
        this.stores = stores;
        this.tracker = tracker;
        this.indexes = indexes;
        this.partitionOf = partitionOf;
    }

    @SuppressWarnings("unchecked")
    private <V> ReadOnlyKeyValueStore<String, V> store(String name) {
        // a handle queries whatever local tasks hold the store at the time of each call, so it can be kept
        return (ReadOnlyKeyValueStore<String, V>) handles.computeIfAbsent(name, stores);
    }

    @Override
    public Optional<Memory> memory(String space, String id) {
        return Optional.ofNullable(
                this.<Memory>store(ProjectionTopology.MEMORIES).get(StoreKeys.of(space, id)));
    }

    @Override
    public Page<Memory> list(String space, ListQuery q) {
        MemoryState state = q.state() == null ? MemoryState.ACTIVE : q.state();
        String storeName = switch (state) {
            case ACTIVE -> ProjectionTopology.ACTIVE;
            case SUPERSEDED -> ProjectionTopology.SUPERSEDED;
            default -> ProjectionTopology.MEMORIES;
        };
        String prefix = StoreKeys.prefix(space);
        List<Memory> items = new ArrayList<>(q.limit());
        String next = null;
        try (KeyValueIterator<String, Memory> it = this.<Memory>store(storeName)
                .range(prefix + (q.after() == null ? "" : q.after()), prefix + StoreKeys.END)) {
            while (it.hasNext()) {
                KeyValue<String, Memory> kv = it.next();
                Memory m = kv.value;
                if (m.getId().equals(q.after())
                        || m.getState() != state
                        || (q.kind() != null && m.getKind() != q.kind())
                        || !q.matchesCategory(m.getCategory())) {
                    continue;
                }
                if (items.size() == q.limit()) {
                    next = items.get(items.size() - 1).getId();
                    break;
                }
                items.add(m);
            }
        }
        return new Page<>(items, next);
    }

    @Override
    public Optional<Memory> block(String space, String label) {
        String id = this.<String>store(ProjectionTopology.BLOCKS).get(StoreKeys.of(space, label));
        return id == null ? Optional.empty() : memory(space, id);
    }

    @Override
    public List<Relation> relations(String space, String id) {
        List<Relation> out =
                new ArrayList<>(scan(ProjectionTopology.RELATIONS, StoreKeys.prefix(space, id), Integer.MAX_VALUE));
        out.addAll(scan(ProjectionTopology.RELATIONS_IN, StoreKeys.prefix(space, id), Integer.MAX_VALUE));
        return out;
    }

    @Override
    public double relationStrength(String space, String id) {
        Double max = this.<Double>store(ProjectionTopology.RELATION_STRENGTH).get(StoreKeys.of(space, id));
        return max == null ? 0 : max;
    }

    @Override
    public Optional<MemoryEmbedding> embedding(String space, String id) {
        // the store may still hold a vector of the previously configured model (docs/architecture.md §7): another
        // model's vectors are not comparable, so they are never returned
        return Optional.ofNullable(this.<MemoryEmbedding>store(ProjectionTopology.EMBEDDINGS)
                        .get(StoreKeys.of(space, id)))
                .filter(e -> indexes.modelId().equals(e.getModelId()));
    }

    @Override
    public Optional<AccessStats> access(String space, String id) {
        return Optional.ofNullable(
                this.<AccessStats>store(ProjectionTopology.ACCESS).get(StoreKeys.of(space, id)));
    }

    @Override
    public List<Hit> search(SearchRequest request) {
        int partition = partitionOf.applyAsInt(request.space());
        MemoryIndex index = indexes.get(partition)
                .orElseThrow(() -> new IndexUnavailableException("the search index of space " + request.space()
                        + " (partition " + partition + ") is not held by this instance right now"));
        return index.search(request);
    }

    @Override
    public Map<String, ThreadNeighbours> threadNeighbours(String space, Collection<Memory> memories) {
        return indexes.get(partitionOf.applyAsInt(space))
                .map(index -> index.threadNeighbours(space, memories))
                .orElse(Map.of());
    }

    @Override
    public List<String> namedEntities(String space, Collection<String> keys, int max) {
        return indexes.get(partitionOf.applyAsInt(space))
                .map(index -> index.namedEntities(space, keys, max))
                .orElse(List.of());
    }

    @Override
    public CoreView core(String space) {
        return CoreFormatter.format(scan(ProjectionTopology.CORE, StoreKeys.prefix(space), Integer.MAX_VALUE));
    }

    @Override
    public List<HistoryEntry> history(String space, String id) {
        return scan(ProjectionTopology.HISTORY, StoreKeys.prefix(space, id), Integer.MAX_VALUE);
    }

    @Override
    public void histories(String space, String afterId, Predicate<List<HistoryEntry>> visit) {
        String prefix = StoreKeys.prefix(space);
        String from = afterId == null ? prefix : StoreKeys.prefix(space, afterId) + StoreKeys.END;
        try (KeyValueIterator<String, HistoryEntry> it =
                this.<HistoryEntry>store(ProjectionTopology.HISTORY).range(from, prefix + StoreKeys.END)) {
            String id = null;
            List<HistoryEntry> entries = new ArrayList<>();
            while (it.hasNext()) {
                KeyValue<String, HistoryEntry> next = it.next();
                String key = next.key;
                String entryId = key.substring(prefix.length(), key.indexOf(StoreKeys.SEP, prefix.length()));
                if (!entryId.equals(id)) {
                    if (id != null && !visit.test(entries)) {
                        return;
                    }
                    id = entryId;
                    entries = new ArrayList<>();
                }
                entries.add(next.value);
            }
            if (id != null) {
                visit.test(entries);
            }
        }
    }

    @Override
    public List<AuditEntry> audit(String space, long afterSeq, int limit) {
        String prefix = StoreKeys.prefix(space);
        List<AuditEntry> out = new ArrayList<>();
        try (KeyValueIterator<String, AuditEntry> it = this.<AuditEntry>store(ProjectionTopology.AUDIT)
                .range(prefix + StoreKeys.seq(afterSeq + 1), prefix + StoreKeys.END)) {
            while (it.hasNext() && out.size() < limit) {
                out.add(it.next().value);
            }
        }
        return out;
    }

    @Override
    public long threadRevision(String space, String thread) {
        Long rev = this.<Long>store(ProjectionTopology.THREAD_REVISIONS).get(StoreKeys.of(space, thread));
        return rev == null ? 0 : rev;
    }

    @Override
    public List<ThreadChange> threadChanges(String space, String thread, long sinceRev, int limit) {
        List<ThreadChange> out = new ArrayList<>();
        String prefix = StoreKeys.prefix(space, thread);
        try (KeyValueIterator<String, ThreadChange> it = this.<ThreadChange>store(ProjectionTopology.THREAD_CHANGES)
                .range(prefix + StoreKeys.seq(sinceRev + 1), prefix + StoreKeys.END)) {
            while (it.hasNext() && out.size() < limit) {
                out.add(it.next().value);
            }
        }
        return out;
    }

    @Override
    public Optional<EdgeVersion> edgeAt(String space, String fromId, String toId, long seq) {
        String prefix = StoreKeys.prefix(space, StoreKeys.edge(fromId, toId));
        try (KeyValueIterator<String, EdgeVersion> it = this.<EdgeVersion>store(ProjectionTopology.EDGE_HISTORY)
                .reverseRange(prefix, prefix + StoreKeys.seq(seq))) {
            return it.hasNext() ? Optional.of(it.next().value) : Optional.empty();
        }
    }

    @Override
    public boolean edgeHistoryWhole(String space) {
        return this.<EdgeVersion>store(ProjectionTopology.EDGE_HISTORY).get(StoreKeys.prefix(space)) != null;
    }

    @Override
    public Optional<Proposal> proposal(String space, String id) {
        return Optional.ofNullable(
                this.<Proposal>store(ProjectionTopology.PROPOSALS).get(StoreKeys.of(space, id)));
    }

    @Override
    public Optional<Reflection> reflection(String space, String id) {
        return Optional.ofNullable(
                this.<Reflection>store(ProjectionTopology.REFLECTIONS).get(StoreKeys.of(space, id)));
    }

    @Override
    public List<Reflection> reflections(String space) {
        return scan(ProjectionTopology.REFLECTIONS, StoreKeys.prefix(space), Integer.MAX_VALUE);
    }

    @Override
    public Optional<Grant> grant(String space, String id) {
        return Optional.ofNullable(this.<Grant>store(ProjectionTopology.GRANTS).get(StoreKeys.of(space, id)));
    }

    @Override
    public List<Grant> grants(String space) {
        return scan(ProjectionTopology.GRANTS, StoreKeys.prefix(space), Integer.MAX_VALUE);
    }

    @Override
    public List<GrantRead> grantReads(String space, String grantId) {
        return scan(ProjectionTopology.GRANT_READS, StoreKeys.prefix(space, grantId), Integer.MAX_VALUE);
    }

    @Override
    public io.memorychain.avro.view.SpaceGovernance governance(String space) {
        io.memorychain.avro.view.SpaceGovernance g = this.<io.memorychain.avro.view.SpaceGovernance>store(
                        ProjectionTopology.GOVERNANCE)
                .get(space);
        return g != null ? g : io.memorychain.domain.governance.Governance.empty(space);
    }

    @Override
    public List<Proposal> openProposals(String space) {
        return scan(ProjectionTopology.OPEN_PROPOSALS, StoreKeys.prefix(space), Integer.MAX_VALUE);
    }

    @Override
    public Optional<RefinementSession> openRefinement(String space) {
        String id = this.<String>store(ProjectionTopology.REFINEMENT_OPEN).get(space);
        return id == null ? Optional.empty() : refinement(space, id);
    }

    @Override
    public Optional<RefinementSession> refinement(String space, String sessionId) {
        return Optional.ofNullable(
                this.<RefinementSession>store(ProjectionTopology.REFINEMENTS).get(StoreKeys.of(space, sessionId)));
    }

    @Override
    public List<RefinementSession> refinements(String space) {
        return scan(ProjectionTopology.REFINEMENTS, StoreKeys.prefix(space), Integer.MAX_VALUE);
    }

    @Override
    public List<RefinementEdit> refinementEdits(String space, String sessionId) {
        return scan(ProjectionTopology.REFINEMENT_EDITS, StoreKeys.prefix(space, sessionId), Integer.MAX_VALUE);
    }

    @Override
    public MemoryCounts counts(String space) {
        Map<String, Map<String, Long>> byFacet = new LinkedHashMap<>();
        long from = 0;
        String prefix = StoreKeys.prefix(space);
        try (KeyValueIterator<String, Long> it =
                this.<Long>store(ProjectionTopology.COUNTS).prefixScan(prefix, new StringSerializer())) {
            while (it.hasNext()) {
                KeyValue<String, Long> next = it.next();
                String rest = next.key.substring(prefix.length());
                int sep = rest.indexOf(StoreKeys.SEP);
                if (sep < 0) {
                    from = next.value; // the space's first counted seq
                } else {
                    byFacet.computeIfAbsent(rest.substring(0, sep), f -> new java.util.TreeMap<>())
                            .put(rest.substring(sep + 1), next.value);
                }
            }
        }
        Map<String, Map<String, Long>> sealed = new LinkedHashMap<>();
        byFacet.forEach((facet, values) -> sealed.put(facet, java.util.Collections.unmodifiableMap(values)));
        return new MemoryCounts(java.util.Collections.unmodifiableMap(sealed), from);
    }

    /**
     * What the views hold: the store's applied seq (interactive queries see the task's writes as it makes them). Not
     * the tracker's: it only grows, and a transaction that exactly-once aborts after the projection applied its events
     * leaves the tracker past the restored stores, which would promise a read-your-writes the views cannot keep.
     */
    @Override
    public long appliedSeq(String space) {
        Long stored = this.<Long>store(ProjectionTopology.APPLIED).get(space);
        return stored == null ? 0 : stored;
    }

    @Override
    public Map<String, Long> appliedSeqs(int limit) {
        Map<String, Long> out = new LinkedHashMap<>();
        try (KeyValueIterator<String, Long> all =
                this.<Long>store(ProjectionTopology.APPLIED).all()) {
            while (all.hasNext() && out.size() < limit) {
                KeyValue<String, Long> next = all.next();
                out.put(next.key, next.value);
            }
        }
        return out;
    }

    @Override
    public boolean awaitApplied(String space, long seq, Duration timeout) throws InterruptedException {
        return tracker.await(
                space,
                () -> {
                    try {
                        return appliedSeq(space);
                    } catch (org.apache.kafka.streams.errors.InvalidStateStoreException e) {
                        return -1; // restoring or migrating: not there yet; the projection wakes us when it applies
                    }
                },
                seq,
                timeout.toNanos());
    }

    private <V> List<V> scan(String storeName, String prefix, int limit) {
        List<V> out = new ArrayList<>();
        try (KeyValueIterator<String, V> it = this.<V>store(storeName).prefixScan(prefix, new StringSerializer())) {
            while (it.hasNext() && out.size() < limit) {
                out.add(it.next().value);
            }
        }
        return out;
    }
}
