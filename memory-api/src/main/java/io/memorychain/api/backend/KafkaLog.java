package io.memorychain.api.backend;

import io.memorychain.events.Topics;
import io.memorychain.events.content.MasterKey;
import io.memorychain.events.registry.SchemaRegistry;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;

/**
 * The Kafka cluster the chain runs on, for the features that keep topics of their own beside the chain (API keys,
 * checkpoints): where it is, the topic names, the replication factor new topics get, the schema registry, the content
 * master key (empty with encryption off), the data directory and how long start-up may wait.
 */
public record KafkaLog(
        String bootstrapServers,
        Topics topics,
        short replicationFactor,
        SchemaRegistry registry,
        Optional<MasterKey> contentKey,
        Path dataDir,
        Duration startupTimeout) {}
