package io.memorychain.api.backend;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.memorychain.api.config.MemoryConfig;
import io.memorychain.events.Topics;
import io.memorychain.events.registry.SchemaRegistry;
import io.micronaut.context.ApplicationContext;
import io.micronaut.context.annotation.Replaces;
import io.micronaut.context.annotation.Requires;
import jakarta.inject.Singleton;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.avro.Schema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The backend assembles the chain from one factory per subsystem, each replaceable as a bean: here the cluster and the
 * registry are stand-ins and the signing keys cannot be read. Start-up must fail with that step's message and close
 * what the steps before it started (the registry), and never reach the steps after it (the Streams runtime).
 */
class MemoryChainBackendStartTest {

    static final String ENV = "failing-runtime";
    static final AtomicInteger REGISTRIES_CLOSED = new AtomicInteger();

    @Test
    void aFailedStepClosesWhatTheStepsBeforeItStarted(@TempDir Path data) {
        REGISTRIES_CLOSED.set(0);

        assertThatThrownBy(() -> ApplicationContext.run(Map.of("memory.data-dir", data.toString()), ENV))
                .hasStackTraceContaining("the signing keys could not be read");

        assertThat(REGISTRIES_CLOSED)
                .as("the registry is closed after the failure")
                .hasValue(1);
        assertThat(data.resolve("streams"))
                .as("the Streams runtime never started")
                .doesNotExist();
    }

    /** No broker: a cluster nobody listens on, never reached because the runtime fails first. */
    @Singleton
    @Requires(env = ENV)
    @Replaces(KafkaClusterFactory.class)
    static class NoCluster extends KafkaClusterFactory {
        @Override
        KafkaCluster open(MemoryConfig config, Path dataDir) {
            return new KafkaCluster(null, "127.0.0.1:1", (short) 1);
        }
    }

    @Singleton
    @Requires(env = ENV)
    @Replaces(SchemaRegistryFactory.class)
    static class CountingRegistries extends SchemaRegistryFactory {
        @Override
        public SchemaRegistry create(
                MemoryConfig config, String bootstrapServers, Topics topics, short replicationFactor) {
            return new SchemaRegistry() {
                @Override
                public int register(String subject, Schema schema) {
                    throw new UnsupportedOperationException();
                }

                @Override
                public Schema byId(int id) {
                    throw new UnsupportedOperationException();
                }

                @Override
                public boolean isCompatible(String subject, Schema schema) {
                    return true;
                }

                @Override
                public void close() {
                    REGISTRIES_CLOSED.incrementAndGet();
                }
            };
        }
    }

    @Singleton
    @Requires(env = ENV)
    @Replaces(SigningKeysFactory.class)
    static class UnreadableKeys extends SigningKeysFactory {
        @Override
        SigningKeyFiles load(Path dataDir) {
            throw new IllegalStateException("the signing keys could not be read");
        }
    }
}
