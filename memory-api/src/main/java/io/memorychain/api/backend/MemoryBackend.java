package io.memorychain.api.backend;

import io.memorychain.events.Topics;
import io.memorychain.events.registry.SchemaRegistry;
import java.util.Optional;

/**
 * The running chain as the features see it: the ports {@link ChainWrites}, {@link ChainReads}, {@link ChainSigning},
 * {@link ChainStatus} and {@link ChainRouting} (a feature asks for the narrowest it needs), and the cluster they run
 * on. The production implementation is {@link MemoryChainBackend}; HTTP-level tests replace it with the real topologies
 * on TopologyTestDriver.
 */
public interface MemoryBackend extends ChainWrites, ChainReads, ChainSigning, ChainStatus, ChainRouting {

    /** Bootstrap servers of the Kafka cluster in use (embedded or external). */
    String bootstrapServers();

    /** The topic catalogue in use. */
    Topics topics();

    /** The schema registry in use (for readers of the chain such as the verifier). */
    SchemaRegistry registry();

    /**
     * The Kafka cluster the chain runs on, for the features that keep topics of their own beside it (API keys,
     * checkpoints); empty for a backend without one (the HTTP tests over TopologyTestDriver).
     */
    default Optional<KafkaLog> kafkaLog() {
        return Optional.empty();
    }
}
