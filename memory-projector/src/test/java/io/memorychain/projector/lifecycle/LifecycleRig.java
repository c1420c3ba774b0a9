package io.memorychain.projector.lifecycle;

import io.memorychain.avro.MemoryAccess;
import io.memorychain.avro.MemoryEvent;
import io.memorychain.avro.MemoryOutcome;
import io.memorychain.avro.MemoryRequest;
import io.memorychain.events.Requests;
import io.memorychain.events.serde.AvroWireSerde;
import io.memorychain.projector.ChainHarness;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.UUID;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;

/**
 * The lifecycle topology on TopologyTestDriver next to a {@link ChainHarness}, on the harness's clock: {@link #check()}
 * feeds it the chain events since the last call, moves the driver's wall clock by one check interval (one punctuation),
 * submits the requests it publishes to the harness's sequencer and feeds the resulting events back.
 */
final class LifecycleRig implements AutoCloseable {

    private final ChainHarness h;
    private final LifecycleSettings settings;
    private final TopologyTestDriver driver;
    private final TestInputTopic<byte[], byte[]> eventsIn;
    private final TestInputTopic<byte[], byte[]> accessIn;
    private final TestOutputTopic<String, MemoryRequest> requestsOut;
    private final AvroWireSerde<MemoryEvent> eventSerde;
    private final AvroWireSerde<MemoryAccess> accessSerde;
    private int events;
    /** Every request the worker published, and the sequencer's outcome of each. */
    final List<MemoryRequest> published = new ArrayList<>();

    final List<MemoryOutcome> outcomes = new ArrayList<>();

    LifecycleRig(ChainHarness h, LifecycleSettings settings) {
        this.h = h;
        this.settings = settings;
        Properties p = new Properties();
        p.put(StreamsConfig.APPLICATION_ID_CONFIG, "lifecycle-" + UUID.randomUUID());
        p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
        driver = new TopologyTestDriver(
                LifecycleTopology.build(h.topics, h.registry, settings, h.clock, LifecycleListener.NONE), p);
        eventsIn = driver.createInputTopic(h.topics.events(), new ByteArraySerializer(), new ByteArraySerializer());
        accessIn = driver.createInputTopic(h.topics.access(), new ByteArraySerializer(), new ByteArraySerializer());
        requestsOut = driver.createOutputTopic(
                h.topics.requests(),
                new StringDeserializer(),
                AvroWireSerde.forValues(h.registry, MemoryRequest.class));
        eventSerde = AvroWireSerde.forValues(h.registry, MemoryEvent.class);
        accessSerde = AvroWireSerde.forValues(h.registry, MemoryAccess.class);
    }

    /** Feeds new events, runs one check, submits what it asks for and feeds the answers; returns its requests. */
    List<MemoryRequest> check() {
        feed();
        driver.advanceWallClockTime(settings.checkInterval());
        List<MemoryRequest> out = requestsOut.readValuesToList();
        for (MemoryRequest request : out) {
            published.add(request);
            outcomes.add(h.submit(request));
        }
        feed();
        return out;
    }

    /** Runs one check seeing only the first {@code eventCount} chain events, without submitting its requests. */
    List<MemoryRequest> checkSeeing(int eventCount) {
        while (events < Math.min(eventCount, h.chain().size())) {
            MemoryEvent event = h.chain().get(events++);
            eventsIn.pipeInput(key(event.getSpace()), eventSerde.serialize(h.topics.events(), event));
        }
        driver.advanceWallClockTime(settings.checkInterval());
        return requestsOut.readValuesToList();
    }

    /** A read of the memories now (harness clock), seen by the worker and by the projection. */
    void read(String space, String... ids) {
        MemoryAccess access = new MemoryAccess(space, ChainHarness.AGENT, List.of(ids), h.clock.instant());
        accessIn.pipeInput(key(space), accessSerde.serialize(h.topics.access(), access));
        h.recordAccess(access);
    }

    private void feed() {
        while (events < h.chain().size()) {
            MemoryEvent event = h.chain().get(events++);
            eventsIn.pipeInput(key(event.getSpace()), eventSerde.serialize(h.topics.events(), event));
        }
    }

    static MemoryRequest.Builder restore(String space, String id) {
        return Requests.restore(space, ChainHarness.AGENT, id);
    }

    private static byte[] key(String space) {
        return space.getBytes(StandardCharsets.UTF_8);
    }

    @Override
    public void close() {
        driver.close();
    }
}
