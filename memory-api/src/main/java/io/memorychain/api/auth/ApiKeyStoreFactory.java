package io.memorychain.api.auth;

import io.memorychain.api.backend.MemoryBackend;
import io.micronaut.context.annotation.Bean;
import io.micronaut.context.annotation.Context;
import io.micronaut.context.annotation.Factory;
import java.time.Duration;

/**
 * Where API key records live: the compacted {@code memory.api-keys.v1} topic of the Kafka cluster the chain runs on,
 * every instance's copy refreshed within 2 s (so a revocation reaches every instance in that time); in memory for a
 * backend without a Kafka log (the HTTP tests over TopologyTestDriver).
 */
@Factory
class ApiKeyStoreFactory {

    /** How stale the in-memory copy of the key records may get. */
    private static final Duration REFRESH = Duration.ofSeconds(2);

    @Context // with the backend at start-up, as it was: a store that cannot open fails start-up, not a request
    @Bean(preDestroy = "close")
    ApiKeyStore apiKeyStore(MemoryBackend backend) {
        return backend.kafkaLog()
                .<ApiKeyStore>map(log -> new KafkaApiKeyStore(
                        log.bootstrapServers(),
                        log.topics().apiKeys(),
                        log.replicationFactor(),
                        log.startupTimeout(),
                        REFRESH))
                .orElseGet(InMemoryApiKeyStore::new);
    }
}
