package io.memorychain.api.backend;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.memorychain.api.config.CoreConfig;
import io.memorychain.api.config.EmbeddingsConfig;
import io.memorychain.api.config.InstanceConfig;
import io.memorychain.api.config.MemoryConfig;
import io.memorychain.api.config.ProposalConfig;
import io.memorychain.api.config.RetrievalConfig;
import io.memorychain.api.tls.TlsContexts;
import io.memorychain.domain.category.CategoryPolicy;
import io.memorychain.embeddings.Embedder;
import io.memorychain.events.Topics;
import io.memorychain.events.registry.SchemaRegistry;
import io.micronaut.context.ApplicationContext;
import io.micronaut.context.annotation.Replaces;
import io.micronaut.context.annotation.Requires;
import io.micronaut.context.annotation.Value;
import jakarta.inject.Singleton;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.avro.Schema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The backend assembles the chain from one factory per subsystem, each replaceable as a bean: here the cluster and the
 * registry are stand-ins and the Streams runtime fails to start. Start-up must fail with the runtime's message, after
 * the steps before it ran (the signing key is on disk), and must close what they started (the registry).
 */
class MemoryChainBackendStartTest {

    static final String ENV = "failing-runtime";
    static final AtomicInteger REGISTRIES_CLOSED = new AtomicInteger();

    @Test
    void aFailedStepClosesWhatTheStepsBeforeItStarted(@TempDir Path data) {
        REGISTRIES_CLOSED.set(0);

        assertThatThrownBy(() -> ApplicationContext.run(Map.of("memory.data-dir", data.toString()), ENV))
                .hasStackTraceContaining("the Streams runtime did not start");

        assertThat(data.resolve("keys").resolve("chain-signing.key"))
                .as("the signing keys were loaded before the runtime")
                .exists();
        assertThat(REGISTRIES_CLOSED)
                .as("the registry is closed after the failure")
                .hasValue(1);
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
    @Replaces(ChainRuntimeFactory.class)
    static class FailingRuntime extends ChainRuntimeFactory {
        FailingRuntime(
                TlsContexts tls,
                MemoryConfig config,
                RetrievalConfig retrieval,
                CoreConfig core,
                ProposalConfig proposals,
                CategoryPolicy categories,
                EmbeddingsConfig embeddings,
                InstanceConfig instance,
                Embedder embedder,
                @Value("${micronaut.server.port:-1}") int httpPort) {
            super(tls, config, retrieval, core, proposals, categories, embeddings, instance, embedder, httpPort);
        }

        @Override
        ChainRuntime start(
                KafkaCluster cluster, Topics topics, SchemaRegistry registry, SigningKeyFiles keys, Path dataDir) {
            throw new IllegalStateException("the Streams runtime did not start");
        }
    }
}
