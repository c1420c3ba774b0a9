package io.memorychain.projector.linker;

import io.memorychain.avro.MemoryEmbedding;
import io.memorychain.avro.MemoryEvent;
import io.memorychain.avro.MemoryOutcome;
import io.memorychain.avro.MemoryRequest;
import io.memorychain.events.serde.AvroWireSerde;
import io.memorychain.projector.ChainHarness;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.UUID;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.test.TestRecord;

/**
 * The linker topology on TopologyTestDriver next to a {@link ChainHarness}: {@link #run()} feeds it the chain events
 * and embeddings the harness produced since the last call (events first, as the embedder publishes after the event),
 * submits the link requests it proposes back to the harness's sequencer, and repeats until nothing new comes out.
 */
final class LinkerRig implements AutoCloseable {

    private final ChainHarness h;
    private final TopologyTestDriver driver;
    private final TestInputTopic<byte[], byte[]> eventsIn;
    private final TestInputTopic<byte[], byte[]> embeddingsIn;
    private final TestOutputTopic<String, MemoryRequest> requestsOut;
    private final TestOutputTopic<byte[], byte[]> deadLetters;
    private final AvroWireSerde<MemoryEvent> eventSerde;
    private final AvroWireSerde<MemoryEmbedding> embeddingSerde;
    private int events;
    private int embeddings;
    /** Every request the linker proposed, with the sequencer's outcome. */
    final List<MemoryRequest> proposed = new ArrayList<>();

    final List<MemoryOutcome> outcomes = new ArrayList<>();

    LinkerRig(ChainHarness h, LinkerSettings settings) {
        this.h = h;
        Properties p = new Properties();
        p.put(StreamsConfig.APPLICATION_ID_CONFIG, "linker-" + UUID.randomUUID());
        p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
        driver = new TopologyTestDriver(LinkerTopology.build(h.topics, h.registry, settings), p);
        eventsIn = driver.createInputTopic(h.topics.events(), new ByteArraySerializer(), new ByteArraySerializer());
        embeddingsIn =
                driver.createInputTopic(h.topics.embeddings(), new ByteArraySerializer(), new ByteArraySerializer());
        requestsOut = driver.createOutputTopic(
                h.topics.requests(),
                new StringDeserializer(),
                AvroWireSerde.forValues(h.registry, MemoryRequest.class));
        deadLetters = driver.createOutputTopic(
                h.topics.deadLetters(), new ByteArrayDeserializer(), new ByteArrayDeserializer());
        eventSerde = AvroWireSerde.forValues(h.registry, MemoryEvent.class);
        embeddingSerde = AvroWireSerde.forValues(h.registry, MemoryEmbedding.class);
    }

    LinkerRig(ChainHarness h) {
        this(h, LinkerSettings.defaults(h.embedder.modelId()));
    }

    /** Feeds what is new, submits what the linker proposes until it is quiet; returns the requests of this call. */
    List<MemoryRequest> run() {
        List<MemoryRequest> out = new ArrayList<>();
        boolean more = true;
        while (more) {
            while (events < h.chain().size()) {
                pipe(h.chain().get(events++));
            }
            while (embeddings < h.embeddings().size()) {
                pipe(h.embeddings().get(embeddings++));
            }
            for (MemoryRequest request : requestsOut.readValuesToList()) {
                out.add(request);
                proposed.add(request);
                outcomes.add(h.submit(request));
            }
            more = events < h.chain().size() || embeddings < h.embeddings().size();
        }
        return out;
    }

    void pipe(MemoryEvent event) {
        eventsIn.pipeInput(key(event.getSpace()), eventSerde.serialize(h.topics.events(), event));
    }

    void pipe(MemoryEmbedding embedding) {
        embeddingsIn.pipeInput(key(embedding.getSpace()), embeddingSerde.serialize(h.topics.embeddings(), embedding));
    }

    /**
     * Marks everything the harness produced so far as already fed (for a rig started late, or to hold records back).
     */
    void skipAll() {
        events = h.chain().size();
        embeddings = h.embeddings().size();
    }

    List<TestRecord<byte[], byte[]>> deadLetters() {
        return deadLetters.readRecordsToList();
    }

    void pipeRaw(String topic, byte[] value) {
        (topic.equals(h.topics.events()) ? eventsIn : embeddingsIn).pipeInput(key("x"), value);
    }

    private static byte[] key(String space) {
        return space.getBytes(StandardCharsets.UTF_8);
    }

    @Override
    public void close() {
        driver.close();
    }
}
