package io.memorychain.projector.projection;

import io.memorychain.avro.Memory;
import io.memorychain.avro.MemoryAccess;
import io.memorychain.avro.MemoryEmbedding;
import io.memorychain.avro.MemoryEvent;
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
import io.memorychain.avro.view.SpaceGovernance;
import io.memorychain.avro.view.ThreadChange;
import io.memorychain.events.Topics;
import io.memorychain.events.content.ChainContent;
import io.memorychain.events.registry.SchemaRegistry;
import io.memorychain.events.serde.AvroWireSerde;
import io.memorychain.projector.search.SearchIndexes;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.state.Stores;

/**
 * The projection: chain events -> RocksDB views. Deterministic: the views are a pure function of the events, so a fresh
 * application id replaying the topic rebuilds identical stores.
 */
public final class ProjectionTopology {

    public static final String SOURCE = "events";
    public static final String EMBEDDINGS_SOURCE = "embeddings";
    public static final String ACCESS_SOURCE = "access";
    public static final String PROCESSOR = "projection";
    public static final String EMBEDDINGS_PROCESSOR = "embedding-join";
    public static final String ACCESS_PROCESSOR = "access-stats";
    public static final String DLQ_SINK = "dead-letters";

    /** All memories by {@code space\0id}, whatever their state. */
    public static final String MEMORIES = "view-memories";
    /** ACTIVE memories by {@code space\0id}. */
    public static final String ACTIVE = "view-active";
    /** SUPERSEDED memories by {@code space\0id}. */
    public static final String SUPERSEDED = "view-superseded";
    /** Active block id by {@code space\0label}. */
    public static final String BLOCKS = "view-blocks";
    /** Active blocks and active core-tier memories by {@code space\0id}. */
    public static final String CORE = "view-core";
    /** History entries by {@code space\0id\0seq}. */
    public static final String HISTORY = "view-history";
    /** Audit entries by {@code space\0seq}. */
    public static final String AUDIT = "view-audit";
    /** Highest applied seq by space. */
    public static final String APPLIED = "view-applied";
    /** Current revision by {@code space\0thread} (thread "" for memories outside any thread). */
    public static final String THREAD_REVISIONS = "view-thread-revisions";
    /** The last {@link #THREAD_CHANGES_KEPT} changes by {@code space\0thread\0rev}. */
    public static final String THREAD_CHANGES = "view-thread-changes";

    public static final int THREAD_CHANGES_KEPT = 50;
    /** Relation edges by {@code space\0from\0to}. */
    public static final String RELATIONS = "view-relations";
    /** The same edges by {@code space\0to\0from} (incoming). */
    public static final String RELATIONS_IN = "view-relations-in";
    /**
     * Every version of each relation edge by {@code space\0from\0to\0seq} (the type and strength the edge event at seq
     * left, or none), plus the key {@code space\0} once the space's first event was applied, which says the history
     * reaches back to the chain's start: rollback plans read from the views (docs/architecture.md §17).
     */
    public static final String EDGE_HISTORY = "view-edge-history";
    /** Strongest relation edge (either direction) of a memory by {@code space\0id}: the rerank's relation boost. */
    public static final String RELATION_STRENGTH = "view-relation-strength";
    /** Latest embedding of the configured model by {@code space\0id} (from memory.embeddings.v1). */
    public static final String EMBEDDINGS = "view-embeddings";
    /**
     * The input position the task's stores and search index stand at: offset of the last processed record by input
     * ({@code events}, {@code embeddings}); see {@link IndexPosition}.
     */
    public static final String INDEX_POSITION = "view-index-position";
    /** Access stats by {@code space\0id} (from memory.access.v1). */
    public static final String ACCESS = "view-access";
    /** Proposals (docs/architecture.md §10) by {@code space\0id}, whatever their status. */
    public static final String PROPOSALS = "view-proposals";
    /** Open (pending and deferred) proposals by {@code space\0id}: the pending-proposals view. */
    public static final String OPEN_PROPOSALS = "view-proposals-open";
    /** Reflections (docs/architecture.md §18), pending and decided, by {@code space\0id}: the reflection log. */
    public static final String REFLECTIONS = "view-reflections";
    /** Mechanic's Exception grants (docs/architecture.md §13), whatever their status, by {@code space\0id}. */
    public static final String GRANTS = "view-grants";
    /** Content reads recorded under a grant by {@code space\0grantId\0seq}. */
    public static final String GRANT_READS = "view-grant-reads";
    /** Profile fields, consent requests, benign values awaiting corroboration and critical-change alerts by space. */
    public static final String GOVERNANCE = "view-governance";
    /** Refinement sessions, open and completed, by {@code space\0sessionId}. */
    public static final String REFINEMENTS = "view-refinements";
    /** The open refinement session's id by space. */
    public static final String REFINEMENT_OPEN = "view-refinement-open";
    /** Refinement edits (memories before and after) by {@code space\0sessionId\0seq}. */
    public static final String REFINEMENT_EDITS = "view-refinement-edits";
    /** Memories by {@code space\0facet\0value} (tier, state, decay, kind, category): maintained counters. */
    public static final String COUNTS = "view-counts";

    private ProjectionTopology() {}

    /**
     * As below, reading the chain's texts as they are (no data keys: topologies built directly in tests).
     *
     * @param indexes where the tasks keep their search indexes (reused or rebuilt from the stores when a task is
     *     assigned)
     */
    public static Topology build(
            Topics topics, SchemaRegistry registry, AppliedListener listener, SearchIndexes indexes) {
        return build(topics, registry, listener, indexes, ChainContent.PLAINTEXT);
    }

    /** @param content decrypts the chain's texts (docs/architecture.md §12, erasure) */
    public static Topology build(
            Topics topics,
            SchemaRegistry registry,
            AppliedListener listener,
            SearchIndexes indexes,
            ChainContent content) {
        AvroWireSerde<MemoryEvent> eventSerde = content.eventSerde(registry);
        AvroWireSerde<Memory> memorySerde = AvroWireSerde.forValues(registry, Memory.class);
        Topology topology = new Topology();
        topology.addSource(SOURCE, new ByteArrayDeserializer(), new ByteArrayDeserializer(), topics.events());
        topology.addSource(
                EMBEDDINGS_SOURCE, new ByteArrayDeserializer(), new ByteArrayDeserializer(), topics.embeddings());
        topology.addSource(ACCESS_SOURCE, new ByteArrayDeserializer(), new ByteArrayDeserializer(), topics.access());
        topology.addProcessor(PROCESSOR, () -> new ProjectionProcessor(eventSerde, listener, indexes), SOURCE);
        topology.addProcessor(
                EMBEDDINGS_PROCESSOR,
                () -> new EmbeddingProcessor(AvroWireSerde.forValues(registry, MemoryEmbedding.class), indexes),
                EMBEDDINGS_SOURCE);
        topology.addProcessor(
                ACCESS_PROCESSOR,
                () -> new AccessProcessor(AvroWireSerde.forValues(registry, MemoryAccess.class)),
                ACCESS_SOURCE);
        for (String store : new String[] {MEMORIES, ACTIVE, SUPERSEDED, CORE}) {
            topology.addStateStore(
                    Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(store), Serdes.String(), memorySerde),
                    PROCESSOR);
        }
        topology.connectProcessorAndStateStores(EMBEDDINGS_PROCESSOR, MEMORIES);
        topology.addStateStore(
                Stores.keyValueStoreBuilder(
                        Stores.persistentKeyValueStore(EMBEDDINGS),
                        Serdes.String(),
                        AvroWireSerde.forValues(registry, MemoryEmbedding.class)),
                PROCESSOR,
                EMBEDDINGS_PROCESSOR);
        topology.addStateStore(
                Stores.keyValueStoreBuilder(
                                Stores.persistentKeyValueStore(INDEX_POSITION), Serdes.String(), Serdes.Long())
                        .withCachingEnabled(),
                PROCESSOR,
                EMBEDDINGS_PROCESSOR);
        topology.addStateStore(
                Stores.keyValueStoreBuilder(
                        Stores.persistentKeyValueStore(ACCESS),
                        Serdes.String(),
                        AvroWireSerde.forValues(registry, AccessStats.class)),
                ACCESS_PROCESSOR);
        topology.addStateStore(
                Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(BLOCKS), Serdes.String(), Serdes.String()),
                PROCESSOR);
        topology.addStateStore(
                Stores.keyValueStoreBuilder(
                        Stores.persistentKeyValueStore(HISTORY),
                        Serdes.String(),
                        AvroWireSerde.forValues(registry, HistoryEntry.class)),
                PROCESSOR);
        topology.addStateStore(
                Stores.keyValueStoreBuilder(
                        Stores.persistentKeyValueStore(AUDIT),
                        Serdes.String(),
                        AvroWireSerde.forValues(registry, AuditEntry.class)),
                PROCESSOR);
        topology.addStateStore(
                Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(APPLIED), Serdes.String(), Serdes.Long())
                        .withCachingEnabled(),
                PROCESSOR);
        topology.addStateStore(
                Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(COUNTS), Serdes.String(), Serdes.Long())
                        .withCachingEnabled(),
                PROCESSOR);
        topology.addStateStore(
                Stores.keyValueStoreBuilder(
                        Stores.persistentKeyValueStore(RELATION_STRENGTH), Serdes.String(), Serdes.Double()),
                PROCESSOR);
        topology.addStateStore(
                Stores.keyValueStoreBuilder(
                                Stores.persistentKeyValueStore(THREAD_REVISIONS), Serdes.String(), Serdes.Long())
                        .withCachingEnabled(),
                PROCESSOR);
        topology.addStateStore(
                Stores.keyValueStoreBuilder(
                        Stores.persistentKeyValueStore(THREAD_CHANGES),
                        Serdes.String(),
                        AvroWireSerde.forValues(registry, ThreadChange.class)),
                PROCESSOR);
        for (String store : new String[] {PROPOSALS, OPEN_PROPOSALS}) {
            topology.addStateStore(
                    Stores.keyValueStoreBuilder(
                            Stores.persistentKeyValueStore(store),
                            Serdes.String(),
                            AvroWireSerde.forValues(registry, Proposal.class)),
                    PROCESSOR);
        }
        topology.addStateStore(
                Stores.keyValueStoreBuilder(
                        Stores.persistentKeyValueStore(REFLECTIONS),
                        Serdes.String(),
                        AvroWireSerde.forValues(registry, Reflection.class)),
                PROCESSOR);
        topology.addStateStore(
                Stores.keyValueStoreBuilder(
                        Stores.persistentKeyValueStore(GRANTS),
                        Serdes.String(),
                        AvroWireSerde.forValues(registry, Grant.class)),
                PROCESSOR);
        topology.addStateStore(
                Stores.keyValueStoreBuilder(
                        Stores.persistentKeyValueStore(GRANT_READS),
                        Serdes.String(),
                        AvroWireSerde.forValues(registry, GrantRead.class)),
                PROCESSOR);
        topology.addStateStore(
                Stores.keyValueStoreBuilder(
                        Stores.persistentKeyValueStore(GOVERNANCE),
                        Serdes.String(),
                        AvroWireSerde.forValues(registry, SpaceGovernance.class)),
                PROCESSOR);
        topology.addStateStore(
                Stores.keyValueStoreBuilder(
                        Stores.persistentKeyValueStore(REFINEMENTS),
                        Serdes.String(),
                        AvroWireSerde.forValues(registry, RefinementSession.class)),
                PROCESSOR);
        topology.addStateStore(
                Stores.keyValueStoreBuilder(
                        Stores.persistentKeyValueStore(REFINEMENT_OPEN), Serdes.String(), Serdes.String()),
                PROCESSOR);
        topology.addStateStore(
                Stores.keyValueStoreBuilder(
                        Stores.persistentKeyValueStore(REFINEMENT_EDITS),
                        Serdes.String(),
                        AvroWireSerde.forValues(registry, RefinementEdit.class)),
                PROCESSOR);
        topology.addStateStore(
                Stores.keyValueStoreBuilder(
                        Stores.persistentKeyValueStore(EDGE_HISTORY),
                        Serdes.String(),
                        AvroWireSerde.forValues(registry, EdgeVersion.class)),
                PROCESSOR);
        for (String store : new String[] {RELATIONS, RELATIONS_IN}) {
            topology.addStateStore(
                    Stores.keyValueStoreBuilder(
                            Stores.persistentKeyValueStore(store),
                            Serdes.String(),
                            AvroWireSerde.forValues(registry, Relation.class)),
                    PROCESSOR);
        }
        topology.addSink(
                DLQ_SINK,
                topics.deadLetters(),
                new ByteArraySerializer(),
                new ByteArraySerializer(),
                PROCESSOR,
                EMBEDDINGS_PROCESSOR,
                ACCESS_PROCESSOR);
        return topology;
    }
}
