package io.memorychain.bench.load;

import io.memorychain.events.Topics;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.streams.Topology;

/**
 * The write path's ceiling on a given broker and machine: a Streams application that does nothing but copy each record
 * of the requests topic, bytes unchanged, to the events topic of the same catalogue (the {@code ceiling.} prefixed one
 * in {@link LoadHarness}, so the real topics are untouched). Run with the real applications' Streams configuration
 * (exactly-once v2, commit interval, one stream thread, producer settings) it measures what one committed exactly-once
 * hop costs at that load, with no decoding, deciding, hashing, signing or state store: the sequencer and the projection
 * can only be slower.
 */
public final class CeilingTopology {

    public static final String SOURCE = "requests";
    public static final String SINK = "copies";

    private CeilingTopology() {}

    public static Topology build(Topics topics) {
        Topology topology = new Topology();
        topology.addSource(SOURCE, new ByteArrayDeserializer(), new ByteArrayDeserializer(), topics.requests());
        topology.addSink(SINK, topics.events(), new ByteArraySerializer(), new ByteArraySerializer(), SOURCE);
        return topology;
    }
}
