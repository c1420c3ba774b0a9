package io.memorychain.projector.sequencer;

import io.memorychain.avro.DataKeyRecord;
import io.memorychain.avro.Memory;
import io.memorychain.avro.MemoryEvent;
import io.memorychain.avro.MemoryOutcome;
import io.memorychain.avro.MemoryRequest;
import io.memorychain.avro.view.Grant;
import io.memorychain.avro.view.Proposal;
import io.memorychain.avro.view.RefinementSession;
import io.memorychain.avro.view.Reflection;
import io.memorychain.avro.view.SpaceGovernance;
import io.memorychain.domain.decide.Decider;
import io.memorychain.domain.decide.WriteSettings;
import io.memorychain.events.Topics;
import io.memorychain.events.chain.ChainSealer;
import io.memorychain.events.content.MasterKey;
import io.memorychain.events.registry.SchemaRegistry;
import io.memorychain.events.serde.AvroWireSerde;
import io.memorychain.projector.support.ChainHead;
import java.time.Clock;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.state.Stores;

/**
 * The sequencer: requests -> (chain event + outcome) | (rejection outcome) | dead letter. One task per requests
 * partition is the single writer of every chain in that partition; run it with exactly_once_v2 so the event, the
 * outcome and the store updates commit together.
 */
public final class SequencerTopology {

    public static final String SOURCE = "requests";
    public static final String PROCESSOR = "sequencer";
    public static final String EVENTS_SINK = "events";
    public static final String OUTCOMES_SINK = "outcomes";
    public static final String DLQ_SINK = "dead-letters";
    /** The content data keys (docs/architecture.md §12, erasure). */
    public static final String KEYS_SINK = "data-keys";

    public static final String HEADS_STORE = "sequencer-heads";
    public static final String MEMORIES_STORE = "sequencer-memories";
    public static final String BLOCKS_STORE = "sequencer-blocks";
    public static final String REQUESTS_STORE = "sequencer-requests";
    /** Relation type by {@code space\0from\0to}. */
    public static final String RELATIONS_STORE = "sequencer-relations";
    /** Proposals by {@code space\0id}, whatever their status. */
    public static final String PROPOSALS_STORE = "sequencer-proposals";
    /** Reflections by {@code space\0id}, whatever their status (docs/architecture.md §18). */
    public static final String REFLECTIONS_STORE = "sequencer-reflections";
    /** Mechanic's Exception grants by {@code space\0id}, whatever their status (docs/architecture.md §13). */
    public static final String GRANTS_STORE = "sequencer-grants";
    /** The profile, consent requests and alerts by space (docs/architecture.md §21). */
    public static final String GOVERNANCE_STORE = "sequencer-governance";
    /** Memories' wrapped content data keys by {@code space\0id}, live or destroyed (docs/architecture.md §12). */
    public static final String KEYS_STORE = "sequencer-keys";
    /**
     * The erasure cascade (docs/architecture.md §12): {@code space\0memoryId} -> the subjects linked to the memory
     * (NUL-separated), {@code space\0\u0001erased\0subject} -> the seq of the erasure that destroyed the subject.
     */
    public static final String SUBJECTS_STORE = "sequencer-subjects";
    /** The open refinement session by space (deleted when it completes). */
    public static final String REFINEMENTS_STORE = "sequencer-refinements";

    private SequencerTopology() {}

    /** Without content encryption (unit tests of the decisions); the service passes its master key. */
    public static Topology build(
            Topics topics, SchemaRegistry registry, ChainSealer sealer, WriteSettings settings, Clock clock) {
        return build(topics, registry, sealer, settings, clock, null);
    }

    /**
     * @param contentKey the master key that wraps the memories' data keys: their texts go on the chain encrypted
     *     (docs/architecture.md §12, erasure); null keeps them plain
     */
    public static Topology build(
            Topics topics,
            SchemaRegistry registry,
            ChainSealer sealer,
            WriteSettings settings,
            Clock clock,
            MasterKey contentKey) {
        AvroWireSerde<MemoryRequest> requestSerde = AvroWireSerde.forValues(registry, MemoryRequest.class);
        AvroWireSerde<MemoryEvent> eventSerde = AvroWireSerde.forValues(registry, MemoryEvent.class);
        AvroWireSerde<MemoryOutcome> outcomeSerde = AvroWireSerde.forValues(registry, MemoryOutcome.class);
        AvroWireSerde<Memory> memorySerde = AvroWireSerde.forValues(registry, Memory.class);

        Topology topology = new Topology();
        topology.addSource(SOURCE, new ByteArrayDeserializer(), new ByteArrayDeserializer(), topics.requests());
        topology.addProcessor(
                PROCESSOR,
                () -> new SequencerProcessor(
                        requestSerde, new Decider(settings), sealer, clock, settings.requestIdRetention(), contentKey),
                SOURCE);
        topology.addStateStore(
                Stores.keyValueStoreBuilder(
                                Stores.persistentKeyValueStore(HEADS_STORE), Serdes.String(), ChainHead.serde())
                        .withCachingEnabled(),
                PROCESSOR);
        topology.addStateStore(
                Stores.keyValueStoreBuilder(
                        Stores.persistentKeyValueStore(MEMORIES_STORE), Serdes.String(), memorySerde),
                PROCESSOR);
        topology.addStateStore(
                Stores.keyValueStoreBuilder(
                        Stores.persistentKeyValueStore(BLOCKS_STORE), Serdes.String(), Serdes.String()),
                PROCESSOR);
        topology.addStateStore(
                Stores.keyValueStoreBuilder(
                        Stores.persistentKeyValueStore(RELATIONS_STORE), Serdes.String(), Serdes.String()),
                PROCESSOR);
        topology.addStateStore(
                Stores.keyValueStoreBuilder(
                        Stores.persistentKeyValueStore(PROPOSALS_STORE),
                        Serdes.String(),
                        AvroWireSerde.forValues(registry, Proposal.class)),
                PROCESSOR);
        topology.addStateStore(
                Stores.keyValueStoreBuilder(
                        Stores.persistentKeyValueStore(REFLECTIONS_STORE),
                        Serdes.String(),
                        AvroWireSerde.forValues(registry, Reflection.class)),
                PROCESSOR);
        topology.addStateStore(
                Stores.keyValueStoreBuilder(
                        Stores.persistentKeyValueStore(GRANTS_STORE),
                        Serdes.String(),
                        AvroWireSerde.forValues(registry, Grant.class)),
                PROCESSOR);
        topology.addStateStore(
                Stores.keyValueStoreBuilder(
                        Stores.persistentKeyValueStore(GOVERNANCE_STORE),
                        Serdes.String(),
                        AvroWireSerde.forValues(registry, SpaceGovernance.class)),
                PROCESSOR);
        topology.addStateStore(
                Stores.keyValueStoreBuilder(
                        Stores.persistentKeyValueStore(REFINEMENTS_STORE),
                        Serdes.String(),
                        AvroWireSerde.forValues(registry, RefinementSession.class)),
                PROCESSOR);
        AvroWireSerde<DataKeyRecord> keySerde = AvroWireSerde.forValues(registry, DataKeyRecord.class);
        topology.addStateStore(
                Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(KEYS_STORE), Serdes.String(), keySerde),
                PROCESSOR);
        topology.addStateStore(
                Stores.keyValueStoreBuilder(
                        Stores.persistentKeyValueStore(SUBJECTS_STORE), Serdes.String(), Serdes.String()),
                PROCESSOR);
        // request ids are remembered for a bounded time: whole segments expire by stream time, no scans
        topology.addStateStore(
                Stores.windowStoreBuilder(
                        Stores.persistentWindowStore(
                                REQUESTS_STORE, settings.requestIdRetention(), settings.requestIdRetention(), false),
                        Serdes.String(),
                        outcomeSerde),
                PROCESSOR);
        topology.addSink(EVENTS_SINK, topics.events(), new StringSerializer(), eventSerde, PROCESSOR);
        topology.addSink(OUTCOMES_SINK, topics.outcomes(), new StringSerializer(), outcomeSerde, PROCESSOR);
        topology.addSink(KEYS_SINK, topics.keys(), new StringSerializer(), keySerde, PROCESSOR);
        topology.addSink(
                DLQ_SINK, topics.deadLetters(), new ByteArraySerializer(), new ByteArraySerializer(), PROCESSOR);
        return topology;
    }
}
