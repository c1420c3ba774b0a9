package io.memorychain.projector.refinement;

import io.memorychain.avro.Memory;
import io.memorychain.avro.MemoryEvent;
import io.memorychain.avro.MemoryRequest;
import io.memorychain.avro.view.RefinementTriggerState;
import io.memorychain.events.Topics;
import io.memorychain.events.content.ChainContent;
import io.memorychain.events.registry.SchemaRegistry;
import io.memorychain.events.serde.AvroWireSerde;
import java.time.Clock;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.state.Stores;

/**
 * The refinement trigger (docs/architecture.md §9): chain events -> {@code StartRefinement} requests, as
 * {@code worker:refinement}.
 *
 * <ul>
 *   <li><b>Token budget</b>: after an event that changes a space's core memory, when its core tokens (counted as the
 *       core view counts them) are over {@link RefinementTriggerSettings#thresholdTokens()}, no session is open and no
 *       start of this worker is pending, a TOKEN_BUDGET start is published (request id
 *       {@code refine:budget:<space>:<seq>}). Sessions change core memory only while open, and the journal memory of a
 *       completed session is not core, so a session that ends over the threshold is not restarted until core memory
 *       changes again.
 *   <li><b>Schedule</b>: every {@link RefinementTriggerSettings#checkInterval()} of wall-clock time, a space with core
 *       memories and no session started for {@link RefinementTriggerSettings#schedule()} (since its last start, else
 *       since its first event) gets a SCHEDULE start (request id {@code refine:schedule:<space>:<period>}, one per
 *       schedule period). "Now" comes from the injected {@link Clock}.
 * </ul>
 *
 * Writes requests only: the sequencer decides (a start while a session is open is INVALID_STATE) and runs the duplicate
 * cleanup. The state is the worker's own (RocksDB), rebuilt from the chain by a new application id.
 */
public final class RefinementTriggerTopology {

    public static final String SOURCE = "events";
    public static final String PROCESSOR = "refinement-trigger";
    public static final String SINK = "requests";
    public static final String DLQ_SINK = "dead-letters";
    /** {@code space \0 id -> Memory}: every memory (the before snapshots events need). */
    public static final String MEMORIES = "refine-trigger-memories";
    /** {@code space \0 id -> Memory}: the core memories (active blocks and core-tier memories). */
    public static final String CORE = "refine-trigger-core";
    /** {@code space -> RefinementTriggerState}. */
    public static final String SPACES = "refine-trigger-spaces";

    private RefinementTriggerTopology() {}

    /** As below, reading the chain's texts as they are (no data keys: topologies built directly in tests). */
    public static Topology build(
            Topics topics,
            SchemaRegistry registry,
            RefinementTriggerSettings settings,
            Clock clock,
            TriggerListener listener) {
        return build(topics, registry, settings, clock, listener, ChainContent.PLAINTEXT);
    }

    /** @param content decrypts the chain's texts (docs/architecture.md §12, erasure) */
    public static Topology build(
            Topics topics,
            SchemaRegistry registry,
            RefinementTriggerSettings settings,
            Clock clock,
            TriggerListener listener,
            ChainContent content) {
        AvroWireSerde<MemoryEvent> eventSerde = content.eventSerde(registry);
        AvroWireSerde<MemoryRequest> requestSerde = AvroWireSerde.forValues(registry, MemoryRequest.class);
        AvroWireSerde<Memory> memorySerde = AvroWireSerde.forValues(registry, Memory.class);
        Topology topology = new Topology();
        topology.addSource(SOURCE, new ByteArrayDeserializer(), new ByteArrayDeserializer(), topics.events());
        topology.addProcessor(
                PROCESSOR, () -> new RefinementTriggerProcessor(eventSerde, settings, clock, listener), SOURCE);
        for (String store : new String[] {MEMORIES, CORE}) {
            topology.addStateStore(
                    Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(store), Serdes.String(), memorySerde),
                    PROCESSOR);
        }
        topology.addStateStore(
                Stores.keyValueStoreBuilder(
                        Stores.persistentKeyValueStore(SPACES),
                        Serdes.String(),
                        AvroWireSerde.forValues(registry, RefinementTriggerState.class)),
                PROCESSOR);
        topology.addSink(SINK, topics.requests(), new StringSerializer(), requestSerde, PROCESSOR);
        topology.addSink(
                DLQ_SINK, topics.deadLetters(), new ByteArraySerializer(), new ByteArraySerializer(), PROCESSOR);
        return topology;
    }
}
