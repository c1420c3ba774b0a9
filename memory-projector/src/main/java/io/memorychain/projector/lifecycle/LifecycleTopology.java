package io.memorychain.projector.lifecycle;

import io.memorychain.avro.Memory;
import io.memorychain.avro.MemoryAccess;
import io.memorychain.avro.MemoryEvent;
import io.memorychain.avro.MemoryRequest;
import io.memorychain.avro.view.AccessStats;
import io.memorychain.events.Topics;
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
 * The lifecycle worker (docs/architecture.md §7 decay, docs/architecture.md §12 TTL): chain events and read accesses ->
 * {@code TransitionDecay} and {@code ExpireMemory} requests, as {@code worker:lifecycle}.
 *
 * <ul>
 *   <li>{@code memory.events.v1} keeps every memory's snapshot in {@link #MEMORIES} (evolved with the shared Evolver,
 *       each space's seq remembered in {@link #SEQS} so a replayed event is applied once);
 *   <li>{@code memory.access.v1} (co-partitioned by space) keeps each memory's read count and last read in
 *       {@link #ACCESS}: reads reinforce;
 *   <li>every {@link LifecycleSettings#checkInterval()} of wall-clock time, {@link LifecyclePlanner} evaluates every
 *       memory at the injected clock's time and the requests it plans are published, each once: {@link #PUBLISHED}
 *       remembers the last request id per memory (ids are deterministic: {@code decay:<space>:<id>:<version>:<to>},
 *       {@code expire:<space>:<id>:<version>}), so neither a later check nor a restart publishes it again, and a new
 *       application id replaying the chain asks under the same ids, which the sequencer answers with the original
 *       outcome.
 * </ul>
 *
 * Writes requests only; the sequencer decides (pinned, constitutional, stale versions). No projection reads the clock:
 * only this worker does, and what it concludes becomes events.
 */
public final class LifecycleTopology {

    public static final String EVENTS_SOURCE = "events";
    public static final String ACCESS_SOURCE = "access";
    public static final String EVENT_PROCESSOR = "lifecycle-events";
    public static final String ACCESS_PROCESSOR = "lifecycle-access";
    public static final String SINK = "requests";
    public static final String DLQ_SINK = "dead-letters";
    /** {@code space \0 id -> Memory}: every memory of the task's spaces. */
    public static final String MEMORIES = "lifecycle-memories";
    /** {@code space \0 id -> AccessStats}: reads of each memory. */
    public static final String ACCESS = "lifecycle-access-stats";
    /** {@code space -> last applied seq}. */
    public static final String SEQS = "lifecycle-seqs";
    /** {@code space \0 id -> request id}: the last request published for the memory. */
    public static final String PUBLISHED = "lifecycle-published";
    /** The actor id of the requests: {@code worker:lifecycle}. */
    public static final String WORKER_ID = "lifecycle";

    private LifecycleTopology() {}

    public static Topology build(
            Topics topics,
            SchemaRegistry registry,
            LifecycleSettings settings,
            Clock clock,
            LifecycleListener listener) {
        AvroWireSerde<MemoryEvent> eventSerde = AvroWireSerde.forValues(registry, MemoryEvent.class);
        AvroWireSerde<MemoryAccess> accessSerde = AvroWireSerde.forValues(registry, MemoryAccess.class);
        AvroWireSerde<MemoryRequest> requestSerde = AvroWireSerde.forValues(registry, MemoryRequest.class);
        Topology topology = new Topology();
        topology.addSource(EVENTS_SOURCE, new ByteArrayDeserializer(), new ByteArrayDeserializer(), topics.events());
        topology.addSource(ACCESS_SOURCE, new ByteArrayDeserializer(), new ByteArrayDeserializer(), topics.access());
        topology.addProcessor(
                EVENT_PROCESSOR,
                () -> new LifecycleEventProcessor(
                        eventSerde, new LifecyclePlanner(settings), settings.checkInterval(), clock, listener),
                EVENTS_SOURCE);
        topology.addProcessor(ACCESS_PROCESSOR, () -> new LifecycleAccessProcessor(accessSerde), ACCESS_SOURCE);
        topology.addStateStore(
                Stores.keyValueStoreBuilder(
                        Stores.persistentKeyValueStore(MEMORIES),
                        Serdes.String(),
                        AvroWireSerde.forValues(registry, Memory.class)),
                EVENT_PROCESSOR);
        topology.addStateStore(
                Stores.keyValueStoreBuilder(
                        Stores.persistentKeyValueStore(ACCESS),
                        Serdes.String(),
                        AvroWireSerde.forValues(registry, AccessStats.class)),
                EVENT_PROCESSOR,
                ACCESS_PROCESSOR);
        topology.addStateStore(
                Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(SEQS), Serdes.String(), Serdes.Long()),
                EVENT_PROCESSOR);
        topology.addStateStore(
                Stores.keyValueStoreBuilder(
                        Stores.persistentKeyValueStore(PUBLISHED), Serdes.String(), Serdes.String()),
                EVENT_PROCESSOR);
        topology.addSink(SINK, topics.requests(), new StringSerializer(), requestSerde, EVENT_PROCESSOR);
        topology.addSink(
                DLQ_SINK,
                topics.deadLetters(),
                new ByteArraySerializer(),
                new ByteArraySerializer(),
                EVENT_PROCESSOR,
                ACCESS_PROCESSOR);
        return topology;
    }
}
