package io.memorychain.projector.projection;

import io.memorychain.avro.GrantedContentRead;
import io.memorychain.avro.Memory;
import io.memorychain.avro.MemoryErased;
import io.memorychain.avro.MemoryEvent;
import io.memorychain.avro.MemoryKind;
import io.memorychain.avro.MemoryPurged;
import io.memorychain.avro.MemoryState;
import io.memorychain.avro.Tier;
import io.memorychain.avro.view.AuditEntry;
import io.memorychain.avro.view.EdgeVersion;
import io.memorychain.avro.view.Grant;
import io.memorychain.avro.view.GrantRead;
import io.memorychain.avro.view.HistoryEntry;
import io.memorychain.avro.view.Proposal;
import io.memorychain.avro.view.Reflection;
import io.memorychain.avro.view.Relation;
import io.memorychain.avro.view.ThreadChange;
import io.memorychain.domain.EventDescriptions;
import io.memorychain.domain.Evolver;
import io.memorychain.domain.Grants;
import io.memorychain.domain.Proposals;
import io.memorychain.domain.Purges;
import io.memorychain.domain.Reflections;
import io.memorychain.domain.governance.Governance;
import io.memorychain.events.chain.Canonical;
import io.memorychain.events.serde.AvroWireSerde;
import io.memorychain.projector.search.MemoryIndex;
import io.memorychain.projector.search.SearchIndexes;
import io.memorychain.projector.support.DeadLetters;
import io.memorychain.projector.support.StoreKeys;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.function.Predicate;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.processor.api.RecordMetadata;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Applies one chain event to every view. Events at or below the space's applied seq are skipped (replays). */
final class ProjectionProcessor implements Processor<byte[], byte[], Object, Object> {

    private static final Logger log = LoggerFactory.getLogger(ProjectionProcessor.class);

    private final RecordDecoder<MemoryEvent> decoder;
    private final AppliedListener listener;
    private final SearchIndexes indexes;

    private ProcessorContext<Object, Object> context;
    private KeyValueStore<String, Memory> memories;
    private KeyValueStore<String, Memory> active;
    private KeyValueStore<String, Memory> superseded;
    private KeyValueStore<String, Memory> core;
    private KeyValueStore<String, String> blocks;
    private KeyValueStore<String, HistoryEntry> history;
    private KeyValueStore<String, AuditEntry> audit;
    private KeyValueStore<String, Long> applied;
    private KeyValueStore<String, Long> threadRevisions;
    private KeyValueStore<String, ThreadChange> threadChanges;
    private KeyValueStore<String, Relation> relations;
    private KeyValueStore<String, Relation> relationsIn;
    private KeyValueStore<String, Double> relationStrength;
    private KeyValueStore<String, EdgeVersion> edgeHistory;
    private KeyValueStore<String, Proposal> proposals;
    private KeyValueStore<String, Reflection> reflections;
    private KeyValueStore<String, Grant> grants;
    private KeyValueStore<String, GrantRead> grantReads;
    private KeyValueStore<String, io.memorychain.avro.view.SpaceGovernance> governance;
    private KeyValueStore<String, Proposal> openProposals;
    private RefinementProjection refinements;
    private SpaceCounts counts;
    private IndexFeed feed;
    private IndexPosition position;
    private PurgeProjection purges;
    private SubjectErasure subjectErasure;
    private MemoryIndex index;

    ProjectionProcessor(AvroWireSerde<MemoryEvent> eventSerde, AppliedListener listener, SearchIndexes indexes) {
        this.decoder = new RecordDecoder<>(eventSerde);
        this.listener = listener;
        this.indexes = indexes;
    }

    @Override
    public void init(ProcessorContext<Object, Object> context) {
        this.context = context;
        memories = context.getStateStore(ProjectionTopology.MEMORIES);
        active = context.getStateStore(ProjectionTopology.ACTIVE);
        superseded = context.getStateStore(ProjectionTopology.SUPERSEDED);
        core = context.getStateStore(ProjectionTopology.CORE);
        blocks = context.getStateStore(ProjectionTopology.BLOCKS);
        history = context.getStateStore(ProjectionTopology.HISTORY);
        audit = context.getStateStore(ProjectionTopology.AUDIT);
        applied = context.getStateStore(ProjectionTopology.APPLIED);
        threadRevisions = context.getStateStore(ProjectionTopology.THREAD_REVISIONS);
        threadChanges = context.getStateStore(ProjectionTopology.THREAD_CHANGES);
        relations = context.getStateStore(ProjectionTopology.RELATIONS);
        relationsIn = context.getStateStore(ProjectionTopology.RELATIONS_IN);
        relationStrength = context.getStateStore(ProjectionTopology.RELATION_STRENGTH);
        edgeHistory = context.getStateStore(ProjectionTopology.EDGE_HISTORY);
        proposals = context.getStateStore(ProjectionTopology.PROPOSALS);
        openProposals = context.getStateStore(ProjectionTopology.OPEN_PROPOSALS);
        reflections = context.getStateStore(ProjectionTopology.REFLECTIONS);
        grants = context.getStateStore(ProjectionTopology.GRANTS);
        grantReads = context.getStateStore(ProjectionTopology.GRANT_READS);
        governance = context.getStateStore(ProjectionTopology.GOVERNANCE);
        refinements = new RefinementProjection(context);
        counts = new SpaceCounts(context.getStateStore(ProjectionTopology.COUNTS));
        purges = new PurgeProjection(
                context.getStateStore(ProjectionTopology.EMBEDDINGS),
                history,
                audit,
                relations,
                relationsIn,
                threadChanges);
        subjectErasure = new SubjectErasure(
                proposals,
                openProposals,
                reflections,
                context.getStateStore(ProjectionTopology.REFINEMENTS),
                context.getStateStore(ProjectionTopology.REFINEMENT_EDITS),
                audit,
                history);
        feed = new IndexFeed(memories, context.getStateStore(ProjectionTopology.EMBEDDINGS), indexes.modelId());
        position = new IndexPosition(context);
        index = position.open(indexes, feed);
    }

    @Override
    public void close() {
        indexes.release(context.taskId().partition());
    }

    @Override
    public void process(Record<byte[], byte[]> record) {
        position.advance(IndexPosition.EVENTS, index);
        MemoryEvent event = decoder.decode(record, context);
        if (event == null) {
            return;
        }
        String space = event.getSpace();
        Long appliedSeq = applied.get(space);
        long last = appliedSeq == null ? 0 : appliedSeq;
        if (event.getSeq() <= last) {
            return;
        }
        RecordMetadata source = context.recordMetadata().orElseThrow();
        if (event.getSeq() != last + 1) {
            log.error(
                    "Chain gap in space {}: applied {} then got {} at {}",
                    space,
                    last,
                    event.getSeq(),
                    DeadLetters.coordinates(source));
        }
        counts.begin(space, event.getSeq());
        try {
            apply(event);
        } catch (RuntimeException e) {
            DeadLetters.rethrowIfStoreFailure(e);
            log.error(
                    "Cannot project event {}#{} at {}; moved to the dead-letter topic",
                    space,
                    event.getSeq(),
                    DeadLetters.coordinates(source),
                    e);
            RecordDecoder.deadLetter(record, context, e);
        }
        applied.put(space, event.getSeq());
        listener.applied(space, event.getSeq());
    }

    private void apply(MemoryEvent event) {
        String space = event.getSpace();
        List<Evolver.Change> changes = Evolver.evolve(event, id -> memories.get(StoreKeys.of(space, id)));
        String type = EventDescriptions.type(event);
        List<String> ids = new ArrayList<>(changes.size());
        for (Evolver.Change change : changes) {
            Memory m = change.after();
            String key = StoreKeys.of(space, m.getId());
            ids.add(m.getId());
            memories.put(key, m);
            Memory before = change.before();
            counts.change(space, before, m);
            putOrDelete(active, key, m, ProjectionProcessor::isActive, before);
            putOrDelete(superseded, key, m, x -> x.getState() == MemoryState.SUPERSEDED, before);
            putOrDelete(core, key, m, ProjectionProcessor::isCore, before);
            history.put(
                    StoreKeys.of(space, m.getId(), event.getSeq()),
                    new HistoryEntry(
                            event.getSeq(),
                            type,
                            event.getRequestId(),
                            event.getActor(),
                            event.getOccurredAt(),
                            change.before(),
                            m));
            feed.index(index, m);
        }
        for (Evolver.BlockHead head : Evolver.blockHeads(changes)) {
            blocks.put(StoreKeys.of(space, head.label()), head.memoryId());
        }
        if (event.getPayload() instanceof io.memorychain.avro.CriticalChangeAlerted alert) {
            ids.add(alert.getBlockId()); // so the audit finds the alert by the block's id and label (§21)
        }
        if (event.getSeq() == 1) {
            edgeHistory.put(StoreKeys.prefix(space), new EdgeVersion(0L, null, 0.0)); // the history is whole
        }
        Evolver.edge(event).ifPresent(edge -> {
            ids.add(edge.fromId());
            ids.add(edge.toId());
            edgeHistory.put(
                    StoreKeys.of(space, StoreKeys.edge(edge.fromId(), edge.toId()), event.getSeq()),
                    new EdgeVersion(event.getSeq(), edge.linked() ? edge.type() : null, edge.strength()));
            if (edge.linked()) {
                Relation relation =
                        new Relation(edge.fromId(), edge.toId(), edge.type(), edge.strength(), event.getSeq());
                relations.put(StoreKeys.of(space, edge.fromId(), edge.toId()), relation);
                relationsIn.put(StoreKeys.of(space, edge.toId(), edge.fromId()), relation);
            } else {
                relations.delete(StoreKeys.of(space, edge.fromId(), edge.toId()));
                relationsIn.delete(StoreKeys.of(space, edge.toId(), edge.fromId()));
            }
            updateStrength(space, edge.fromId());
            updateStrength(space, edge.toId());
        });
        Proposal proposal = Proposals.evolve(event, id -> proposals.get(StoreKeys.of(space, id)));
        if (proposal != null) {
            String key = StoreKeys.of(space, proposal.getId());
            proposals.put(key, proposal);
            if (Proposals.isOpen(proposal)) {
                openProposals.put(key, proposal);
            } else {
                openProposals.delete(key);
            }
        }
        Reflection reflection = Reflections.evolve(event, id -> reflections.get(StoreKeys.of(space, id)));
        if (reflection != null) {
            reflections.put(StoreKeys.of(space, reflection.getId()), reflection);
        }
        Grant grant = Grants.evolve(event, id -> grants.get(StoreKeys.of(space, id)));
        if (grant != null) {
            grants.put(StoreKeys.of(space, grant.getId()), grant);
        }
        if (event.getPayload() instanceof GrantedContentRead read) {
            grantReads.put(
                    StoreKeys.of(space, read.getGrantId(), StoreKeys.seq(event.getSeq())),
                    new GrantRead(
                            read.getGrantId(),
                            event.getSeq(),
                            event.getRequestId(),
                            event.getActor(),
                            event.getOccurredAt(),
                            read.getOperation(),
                            read.getMemoryIds(),
                            read.getCount(),
                            read.getDetail()));
        }
        io.memorychain.avro.view.SpaceGovernance profile = Governance.evolve(governance.get(space), event);
        if (profile != null) {
            governance.put(space, profile);
        }
        Function<String, Memory> after = id -> changes.stream()
                .map(Evolver.Change::after)
                .filter(m -> m.getId().equals(id))
                .findFirst()
                .orElseGet(() -> memories.get(StoreKeys.of(space, id))); // the versions just written, not re-read
        ThreadChanges.of(event, after).ifPresent(c -> recordThreadChange(space, c, after));
        ThreadChanges.cascaded(event, changes).forEach(c -> recordThreadChange(space, c, after));
        refinements.apply(event, changes);
        audit.put(
                StoreKeys.of(space, StoreKeys.seq(event.getSeq())),
                new AuditEntry(
                        event.getSeq(),
                        type,
                        event.getRequestId(),
                        event.getActor(),
                        event.getOccurredAt(),
                        ids,
                        EventDescriptions.describe(event),
                        Canonical.hex(Canonical.toArray(event.getHash()))));
        if (event.getPayload() instanceof MemoryPurged || event.getPayload() instanceof MemoryErased) {
            for (Evolver.Change change : changes) { // the memory, and an erasure's cascade: those consolidated from it
                if (Purges.isPurged(change.after())) {
                    purges.apply(change.after(), index, this::updateStrength);
                }
            }
        }
        if (event.getPayload() instanceof MemoryErased erased) {
            subjectErasure.apply(space, event.getSeq(), erased);
        }
    }

    /** Recomputes the memory's strongest edge from its edges in both directions (none: no entry). */
    private void updateStrength(String space, String id) {
        double max = 0;
        for (KeyValueStore<String, Relation> store : List.of(relations, relationsIn)) {
            try (KeyValueIterator<String, Relation> it =
                    store.prefixScan(StoreKeys.prefix(space, id), new StringSerializer())) {
                while (it.hasNext()) {
                    max = Math.max(max, it.next().value.getStrength());
                }
            }
        }
        if (max > 0) {
            relationStrength.put(StoreKeys.of(space, id), max);
        } else {
            relationStrength.delete(StoreKeys.of(space, id));
        }
    }

    /** Bumps the thread's revision and keeps its last {@value ProjectionTopology#THREAD_CHANGES_KEPT} changes. */
    private void recordThreadChange(String space, ThreadChange change, Function<String, Memory> after) {
        String thread = ThreadChanges.thread(after.apply(change.getMemoryId()));
        String revKey = StoreKeys.of(space, thread);
        Long current = threadRevisions.get(revKey);
        long rev = (current == null ? 0 : current) + 1;
        change.setRev(rev);
        threadRevisions.put(revKey, rev);
        threadChanges.put(StoreKeys.of(space, thread, rev), change);
        if (rev > ProjectionTopology.THREAD_CHANGES_KEPT) {
            threadChanges.delete(StoreKeys.of(space, thread, rev - ProjectionTopology.THREAD_CHANGES_KEPT));
        }
    }

    /** Keeps the memory in the store while it matches; deletes only what was there, so no needless tombstones. */
    private static void putOrDelete(
            KeyValueStore<String, Memory> store, String key, Memory after, Predicate<Memory> belongs, Memory before) {
        if (belongs.test(after)) {
            store.put(key, after);
        } else if (before != null && belongs.test(before)) {
            store.delete(key);
        }
    }

    private static boolean isActive(Memory m) {
        return m.getState() == MemoryState.ACTIVE;
    }

    static boolean isCore(Memory m) {
        return isActive(m) && (m.getKind() == MemoryKind.BLOCK || m.getTier() == Tier.CORE);
    }
}
