package io.memorychain.api.backend;

import io.memorychain.api.embedded.EmbeddedKafka;
import io.micronaut.core.annotation.Nullable;

/**
 * The Kafka cluster the chain lives on, as {@link KafkaClusterFactory} opened it: the broker this process started (null
 * with an external cluster), where to reach the cluster, and the replication factor new topics get (-1: the broker's
 * default). Closing it stops the embedded broker; an external cluster is left alone.
 */
record KafkaCluster(@Nullable EmbeddedKafka broker, String bootstrapServers, short replicationFactor)
        implements AutoCloseable {

    boolean embedded() {
        return broker != null;
    }

    @Override
    public void close() {
        if (broker != null) {
            broker.close();
        }
    }
}
