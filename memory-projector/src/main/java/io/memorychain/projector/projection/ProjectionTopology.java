package io.memorychain.projector.projection;

import io.memorychain.avro.Memory;
import io.memorychain.avro.MemoryEvent;
import io.memorychain.avro.view.AuditEntry;
import io.memorychain.avro.view.HistoryEntry;
import io.memorychain.avro.view.ThreadChange;
import io.memorychain.events.Topics;
import io.memorychain.events.registry.SchemaRegistry;
import io.memorychain.events.serde.AvroWireSerde;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.state.Stores;

/**
 * The projection: chain events -> RocksDB views. Deterministic: the views are a pure function of the events, so a
 * fresh application id replaying the topic rebuilds identical stores.
 */
public final class ProjectionTopology {

    public static final String SOURCE = "events";
    public static final String PROCESSOR = "projection";
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

    private ProjectionTopology() {
    }

    public static Topology build(Topics topics, SchemaRegistry registry, AppliedListener listener) {
        AvroWireSerde<MemoryEvent> eventSerde = AvroWireSerde.forValues(registry, MemoryEvent.class);
        AvroWireSerde<Memory> memorySerde = AvroWireSerde.forValues(registry, Memory.class);
        Topology topology = new Topology();
        topology.addSource(SOURCE, new ByteArrayDeserializer(), new ByteArrayDeserializer(), topics.events());
        topology.addProcessor(PROCESSOR, () -> new ProjectionProcessor(eventSerde, listener), SOURCE);
        for (String store : new String[] {MEMORIES, ACTIVE, SUPERSEDED, CORE}) {
            topology.addStateStore(Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(store),
                    Serdes.String(), memorySerde), PROCESSOR);
        }
        topology.addStateStore(Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(BLOCKS),
                Serdes.String(), Serdes.String()), PROCESSOR);
        topology.addStateStore(Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(HISTORY),
                Serdes.String(), AvroWireSerde.forValues(registry, HistoryEntry.class)), PROCESSOR);
        topology.addStateStore(Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(AUDIT),
                Serdes.String(), AvroWireSerde.forValues(registry, AuditEntry.class)), PROCESSOR);
        topology.addStateStore(Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(APPLIED),
                Serdes.String(), Serdes.Long()), PROCESSOR);
        topology.addStateStore(Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(THREAD_REVISIONS),
                Serdes.String(), Serdes.Long()), PROCESSOR);
        topology.addStateStore(Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(THREAD_CHANGES),
                Serdes.String(), AvroWireSerde.forValues(registry, ThreadChange.class)), PROCESSOR);
        topology.addSink(DLQ_SINK, topics.deadLetters(), new ByteArraySerializer(), new ByteArraySerializer(), PROCESSOR);
        return topology;
    }
}
