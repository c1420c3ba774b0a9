package io.memorychain.projector.ops;

import io.memorychain.avro.MemoryEvent;
import io.memorychain.avro.OperationalEvent;
import io.memorychain.events.Topics;
import io.memorychain.events.registry.SchemaRegistry;
import io.memorychain.events.serde.AvroWireSerde;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.state.Stores;

/**
 * The ops app (docs/architecture.md §2 {@code memory.ops.v1}, §6 {@code view-ops}; seed 004 section 14), two steps:
 *
 * <ul>
 *   <li>{@code memory.events.v1} -> {@link OpsDerivation} -> {@code memory.ops.v1}: the write-side ops of the chain,
 *       each event once ({@link #SEQS} remembers each space's last seq), timestamped with the event's occurred_at;
 *   <li>{@code memory.ops.v1} (these and what the API records: searches, refused writes) -> counts per space, hour (of
 *       the record's {@code ts}, never the clock, so a replay counts the same), node, op and status in {@link #COUNTS},
 *       read by {@link OpsCounts}; each count is told to the {@link OpsListener}.
 * </ul>
 */
public final class OpsTopology {

    public static final String EVENTS_SOURCE = "events";
    public static final String OPS_SOURCE = "ops";
    public static final String DERIVE_PROCESSOR = "ops-derive";
    public static final String COUNT_PROCESSOR = "ops-count";
    public static final String SINK = "ops-out";
    public static final String DLQ_SINK = "dead-letters";
    /** {@code space -> last seq derived}. */
    public static final String SEQS = "ops-seqs";
    /** {@code space \0 hour start (epoch ms, 19 digits) \0 node \0 op \0 status -> count}. */
    public static final String COUNTS = "view-ops";

    private OpsTopology() {}

    public static Topology build(Topics topics, SchemaRegistry registry, OpsListener listener) {
        AvroWireSerde<OperationalEvent> opsSerde = AvroWireSerde.forValues(registry, OperationalEvent.class);
        Topology topology = new Topology();
        topology.addSource(EVENTS_SOURCE, new ByteArrayDeserializer(), new ByteArrayDeserializer(), topics.events());
        topology.addProcessor(
                DERIVE_PROCESSOR,
                () -> new OpsDeriveProcessor(AvroWireSerde.forValues(registry, MemoryEvent.class)),
                EVENTS_SOURCE);
        topology.addStateStore(
                Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(SEQS), Serdes.String(), Serdes.Long()),
                DERIVE_PROCESSOR);
        topology.addSink(SINK, topics.ops(), new StringSerializer(), opsSerde, DERIVE_PROCESSOR);

        topology.addSource(OPS_SOURCE, new ByteArrayDeserializer(), new ByteArrayDeserializer(), topics.ops());
        topology.addProcessor(COUNT_PROCESSOR, () -> new OpsCountProcessor(opsSerde, listener), OPS_SOURCE);
        topology.addStateStore(
                Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(COUNTS), Serdes.String(), Serdes.Long()),
                COUNT_PROCESSOR);
        topology.addSink(
                DLQ_SINK,
                topics.deadLetters(),
                new ByteArraySerializer(),
                new ByteArraySerializer(),
                DERIVE_PROCESSOR,
                COUNT_PROCESSOR);
        return topology;
    }
}
