package io.memorychain.api.backend;

import io.memorychain.api.config.MemoryConfig;
import io.memorychain.events.Topics;
import io.memorychain.events.registry.ConfluentRegistryClient;
import io.memorychain.events.registry.KafkaTopicSchemaRegistry;
import io.memorychain.events.registry.SchemaRegistry;
import jakarta.inject.Singleton;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The ONE place that constructs a {@link SchemaRegistry}: {@code memory.registry.url} set means a Confluent-API
 * registry ({@code ConfluentRegistryClient}), absent means the embedded registry stored in the compacted
 * {@link Topics#schemas()} topic ({@code KafkaTopicSchemaRegistry}).
 */
@Singleton
public class SchemaRegistryFactory {

    private static final Logger log = LoggerFactory.getLogger(SchemaRegistryFactory.class);

    /**
     * @param bootstrapServers the cluster in use (embedded or external)
     * @param topics the catalogue; the embedded registry stores schemas in {@code topics.schemas()}
     * @param replicationFactor replication factor for the registry topic (-1 = broker default)
     */
    public SchemaRegistry create(MemoryConfig config, String bootstrapServers, Topics topics, short replicationFactor) {
        if (config.getRegistry().url().isEmpty()
                && config.getKafka().bootstrapServers().isPresent()) {
            log.warn("No memory.registry.url with an external Kafka cluster: the topic-backed registry assumes ONE "
                    + "writer, so run a single service instance, or set memory.registry.url (a Confluent-API registry) "
                    + "before starting several: two instances registering new schemas at once can give two schemas "
                    + "one id (docs/architecture.md §19)");
        }
        return config.getRegistry()
                .url()
                .map(this::confluent)
                .orElseGet(() -> embedded(bootstrapServers, topics.schemas(), replicationFactor));
    }

    SchemaRegistry confluent(String url) {
        log.info("Using the schema registry at {}", url);
        return new ConfluentRegistryClient(url);
    }

    SchemaRegistry embedded(String bootstrapServers, String topic, short replicationFactor) {
        log.info("Using the embedded schema registry in topic {} on {}", topic, bootstrapServers);
        return new KafkaTopicSchemaRegistry(bootstrapServers, topic, replicationFactor);
    }
}
