package io.memorychain.projector;

import io.memorychain.events.Topics;
import io.memorychain.events.chain.ChainKeys;
import io.memorychain.events.registry.SchemaRegistry;
import io.memorychain.projector.sequencer.SequencerSettings;
import io.memorychain.projector.view.MemoryViews;
import java.nio.file.Path;
import java.time.Duration;

/**
 * Runs the sequencer and the projection as two Kafka Streams applications against one cluster, creating the topics
 * if they are missing, and exposes the projection's views.
 */
public final class MemoryChainRuntime implements AutoCloseable {

    /**
     * @param bootstrapServers  Kafka bootstrap servers
     * @param topics            the topic catalogue
     * @param stateDir          Kafka Streams state directory (RocksDB stores)
     * @param applicationId     prefix of the two Streams application ids ({@code -sequencer}, {@code -projector})
     * @param partitions        partitions of new data topics (requests and events are co-partitioned)
     * @param replicationFactor replication factor of new topics
     * @param sequencer         the sequencer's limits
     */
    public record Settings(String bootstrapServers, Topics topics, Path stateDir, String applicationId, int partitions,
                           short replicationFactor, SequencerSettings sequencer) {
    }

    private MemoryChainRuntime() {
        throw new UnsupportedOperationException("being implemented on main");
    }

    /** Creates missing topics, starts both applications and waits until they are RUNNING. */
    public static MemoryChainRuntime start(Settings settings, SchemaRegistry registry, ChainKeys keys, Duration timeout) {
        throw new UnsupportedOperationException("being implemented on main");
    }

    public MemoryViews views() {
        throw new UnsupportedOperationException("being implemented on main");
    }

    @Override
    public void close() {
    }
}
