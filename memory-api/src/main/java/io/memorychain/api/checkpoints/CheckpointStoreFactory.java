package io.memorychain.api.checkpoints;

import io.memorychain.api.backend.MemoryBackend;
import io.memorychain.api.config.MemoryConfig;
import io.micronaut.context.annotation.Bean;
import io.micronaut.context.annotation.Context;
import io.micronaut.context.annotation.Factory;
import java.time.Clock;

/**
 * Agents' checkpoints: off the chain, in their own compacted topic with a local view under
 * {@code <data-dir>/checkpoints}, encrypted under the content master key when encryption is on. A backend without a
 * Kafka log answers NOT_AVAILABLE.
 */
@Factory
class CheckpointStoreFactory {

    @Context // with the backend at start-up, as it was: a store that cannot open fails start-up, not a request
    @Bean(preDestroy = "close")
    CheckpointStore checkpointStore(MemoryBackend backend, MemoryConfig config) {
        return backend.kafkaLog()
                .<CheckpointStore>map(log -> new KafkaCheckpointStore(
                        log.bootstrapServers(),
                        log.topics().checkpoints(),
                        log.replicationFactor(),
                        log.registry(),
                        log.contentKey().orElse(null),
                        log.dataDir().resolve("checkpoints"),
                        config.getWriteTimeout(),
                        Clock.systemUTC()))
                .orElse(CheckpointStore.UNAVAILABLE);
    }
}
