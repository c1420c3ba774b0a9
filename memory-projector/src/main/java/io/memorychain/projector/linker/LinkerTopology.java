package io.memorychain.projector.linker;

import io.memorychain.avro.MemoryEmbedding;
import io.memorychain.avro.MemoryEvent;
import io.memorychain.avro.MemoryRequest;
import io.memorychain.events.Topics;
import io.memorychain.events.content.ChainContent;
import io.memorychain.events.registry.SchemaRegistry;
import io.memorychain.events.serde.AvroWireSerde;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.state.Stores;

/**
 * The linker (docs/architecture.md §6): chain events + embeddings -> {@code LinkMemories} requests. When a semantic,
 * active memory has a vector of the configured model for its current content (whichever of its event and its embedding
 * arrives second), it is compared with every other linkable memory of its space and linked to the best
 * {@link LinkerSettings#topK()} with a cosine similarity of at least {@link LinkerSettings#linkMin()}, as
 * {@code related_to} edges with strength = the score (3 decimals), by actor {@code worker:linker}.
 *
 * <p>Writes requests only, never the chain: the sequencer validates each link (both memories active, no duplicate
 * edge). Request ids are deterministic ({@code link:<space>:<from>:<to>}), so a reprocessed record is answered from the
 * sequencer's idempotency store instead of linking twice; pairs already linked on the chain (by anyone, in either
 * direction, any type) or proposed before by this job are skipped, so an unlinked pair is not proposed again.
 *
 * <p><b>Cost.</b> Brute force: each new linkable memory decodes and scores every entry of its space (a prefix scan of
 * the {@link #ENTRIES} store), O(n) per new memory and O(n^2) for a space built from scratch (~1.6 KB read and a
 * 384-float dot product per entry; not benchmarked yet). Fine for thousands of memories per space; spaces of 10^5+
 * semantic memories want an ANN index (the projection's HNSW) instead.
 *
 * <p>Sources {@code events} and {@code embeddings} are co-partitioned by space, so one task sees all of a space.
 */
public final class LinkerTopology {

    public static final String EVENTS_SOURCE = "events";
    public static final String EMBEDDINGS_SOURCE = "embeddings";
    public static final String PROCESSOR = "linker";
    public static final String SINK = "requests";
    public static final String DLQ_SINK = "dead-letters";
    /** {@code space \0 id -> LinkerEntry}: kind, state, content hash and vector of every non-block memory. */
    public static final String ENTRIES = "linker-entries";
    /** {@code space \0 lowId \0 highId -> origin}: pairs linked on the chain or proposed by this job. */
    public static final String PAIRS = "linker-pairs";

    private LinkerTopology() {}

    public static Topology build(Topics topics, SchemaRegistry registry, LinkerSettings settings) {
        return build(topics, registry, settings, LinkListener.NONE);
    }

    /** As below, reading the chain's texts as they are (no data keys: topologies built directly in tests). */
    public static Topology build(
            Topics topics, SchemaRegistry registry, LinkerSettings settings, LinkListener listener) {
        return build(topics, registry, settings, listener, ChainContent.PLAINTEXT);
    }

    /** @param content decrypts the chain's texts (docs/architecture.md §12, erasure) */
    public static Topology build(
            Topics topics,
            SchemaRegistry registry,
            LinkerSettings settings,
            LinkListener listener,
            ChainContent content) {
        AvroWireSerde<MemoryEvent> eventSerde = content.eventSerde(registry);
        AvroWireSerde<MemoryEmbedding> embeddingSerde = AvroWireSerde.forValues(registry, MemoryEmbedding.class);
        AvroWireSerde<MemoryRequest> requestSerde = AvroWireSerde.forValues(registry, MemoryRequest.class);
        Topology topology = new Topology();
        topology.addSource(EVENTS_SOURCE, new ByteArrayDeserializer(), new ByteArrayDeserializer(), topics.events());
        topology.addSource(
                EMBEDDINGS_SOURCE, new ByteArrayDeserializer(), new ByteArrayDeserializer(), topics.embeddings());
        topology.addProcessor(
                PROCESSOR,
                () -> new LinkerProcessor(topics, eventSerde, embeddingSerde, settings, listener),
                EVENTS_SOURCE,
                EMBEDDINGS_SOURCE);
        topology.addStateStore(
                Stores.keyValueStoreBuilder(
                        Stores.persistentKeyValueStore(ENTRIES), Serdes.String(), new LinkerEntrySerde()),
                PROCESSOR);
        topology.addStateStore(
                Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(PAIRS), Serdes.String(), Serdes.String()),
                PROCESSOR);
        topology.addSink(SINK, topics.requests(), new StringSerializer(), requestSerde, PROCESSOR);
        topology.addSink(
                DLQ_SINK, topics.deadLetters(), new ByteArraySerializer(), new ByteArraySerializer(), PROCESSOR);
        return topology;
    }

    /**
     * The deterministic request id of the link {@code from -> to}: reprocessing it is deduplicated by the sequencer.
     */
    public static String requestId(String space, String fromId, String toId) {
        return "link:" + space + ":" + fromId + ":" + toId;
    }
}
