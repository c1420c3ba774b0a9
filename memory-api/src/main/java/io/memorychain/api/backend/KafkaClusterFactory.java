package io.memorychain.api.backend;

import io.memorychain.api.config.MemoryConfig;
import io.memorychain.api.embedded.EmbeddedKafka;
import jakarta.inject.Singleton;
import java.nio.file.Path;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Opens the Kafka cluster of {@code memory.kafka.bootstrap-servers}, or without one starts a single-node broker in this
 * process with its log under {@code <data-dir>/kafka} (the embedded default).
 */
@Singleton
class KafkaClusterFactory {

    private static final Logger log = LoggerFactory.getLogger(KafkaClusterFactory.class);

    KafkaCluster open(MemoryConfig config, Path dataDir) {
        Optional<String> external = config.getKafka().bootstrapServers();
        if (external.isPresent()) {
            log.info("Using the Kafka cluster at {}", external.get());
            short replicationFactor = Optional.ofNullable(config.getKafka().getReplicationFactor())
                    .orElse((short) -1);
            return new KafkaCluster(null, external.get(), replicationFactor);
        }
        MemoryConfig.Embedded e = config.getEmbedded();
        EmbeddedKafka broker = EmbeddedKafka.start(
                new EmbeddedKafka.Settings(
                        e.getHost(), e.getBrokerPort(), e.getControllerPort(), dataDir.resolve("kafka")),
                config.getStartupTimeout());
        return new KafkaCluster(broker, broker.bootstrapServers(), (short) 1);
    }
}
