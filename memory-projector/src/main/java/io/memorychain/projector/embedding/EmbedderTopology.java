package io.memorychain.projector.embedding;

import io.memorychain.avro.MemoryEmbedding;
import io.memorychain.avro.MemoryEvent;
import io.memorychain.embeddings.Embedder;
import io.memorychain.events.Topics;
import io.memorychain.events.content.ChainContent;
import io.memorychain.events.registry.SchemaRegistry;
import io.memorychain.events.serde.AvroWireSerde;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.Topology;

/**
 * The embedder: chain events -> {@code memory.embeddings.v1}. Every new memory content (created, updated content,
 * consolidated) is embedded once, right after its event, and published as a derived record the projection joins;
 * replays read those records and never call the model. Run with exactly-once processing, so each content version is
 * published once. The application id includes the model id ({@link #applicationId}): configuring another model starts a
 * new application that reads the chain from the beginning and re-embeds every memory with it.
 */
public final class EmbedderTopology {

    public static final String SOURCE = "events";
    public static final String PROCESSOR = "embedder";
    public static final String SINK = "embeddings";
    public static final String DLQ_SINK = "dead-letters";

    private EmbedderTopology() {}

    /** As below, reading the chain's texts as they are (no data keys: topologies built directly in tests). */
    public static Topology build(Topics topics, SchemaRegistry registry, Embedder embedder) {
        return build(topics, registry, embedder, ChainContent.PLAINTEXT);
    }

    /** @param content decrypts the chain's texts (docs/architecture.md §12, erasure) */
    public static Topology build(Topics topics, SchemaRegistry registry, Embedder embedder, ChainContent content) {
        AvroWireSerde<MemoryEvent> eventSerde = content.eventSerde(registry);
        AvroWireSerde<MemoryEmbedding> embeddingSerde = AvroWireSerde.forValues(registry, MemoryEmbedding.class);
        Topology topology = new Topology();
        topology.addSource(SOURCE, new ByteArrayDeserializer(), new ByteArrayDeserializer(), topics.events());
        topology.addProcessor(PROCESSOR, () -> new EmbedderProcessor(eventSerde, embedder), SOURCE);
        topology.addSink(SINK, topics.embeddings(), new StringSerializer(), embeddingSerde, PROCESSOR);
        topology.addSink(
                DLQ_SINK, topics.deadLetters(), new ByteArraySerializer(), new ByteArraySerializer(), PROCESSOR);
        return topology;
    }

    /** {@code <prefix>-embedder-<first 12 hex digits of SHA-256(model id)>}: one application per model. */
    public static String applicationId(String prefix, String modelId) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(modelId.getBytes(StandardCharsets.UTF_8));
            return prefix + "-embedder-" + HexFormat.of().formatHex(digest, 0, 6);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JVM", e);
        }
    }
}
