package io.memorychain.api.routing;

import io.memorychain.api.backend.SchemaRegistryFactory;
import io.memorychain.api.config.MemoryConfig;
import io.memorychain.events.Topics;
import io.memorychain.events.registry.SchemaRegistry;
import io.micronaut.context.annotation.Replaces;
import io.micronaut.context.annotation.Requires;
import jakarta.inject.Singleton;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import org.apache.avro.Schema;

/**
 * For {@link MultiInstanceRoutingIT}: the instances of one JVM share one registry client, as N instances of a
 * deployment share one registry service (compose and k8s run one). The embedded topic registry assumes one writer
 * process, and three instances registering their schemas at the same moment would assign one id to different schemas.
 * Closing an instance leaves the shared client open for the others.
 */
@Singleton
@Requires(env = SharedRegistryFactory.ENV)
@Replaces(SchemaRegistryFactory.class)
public class SharedRegistryFactory extends SchemaRegistryFactory {

    public static final String ENV = "shared-registry";
    private static final ConcurrentMap<String, SchemaRegistry> SHARED = new ConcurrentHashMap<>();

    @Override
    public SchemaRegistry create(MemoryConfig config, String bootstrapServers, Topics topics, short replicationFactor) {
        SchemaRegistry shared = SHARED.computeIfAbsent(
                topics.schemas(), topic -> super.create(config, bootstrapServers, topics, replicationFactor));
        return new SchemaRegistry() {
            @Override
            public int register(String subject, Schema schema) {
                return shared.register(subject, schema);
            }

            @Override
            public Schema byId(int id) {
                return shared.byId(id);
            }

            @Override
            public boolean isCompatible(String subject, Schema schema) {
                return shared.isCompatible(subject, schema);
            }
        };
    }

    /** Closes the shared clients (after every instance is closed). */
    public static void closeAll() {
        SHARED.values().forEach(SchemaRegistry::close);
        SHARED.clear();
    }
}
