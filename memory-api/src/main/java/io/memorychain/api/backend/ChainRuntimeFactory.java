package io.memorychain.api.backend;

import io.memorychain.api.config.CoreConfig;
import io.memorychain.api.config.EmbeddingsConfig;
import io.memorychain.api.config.InstanceConfig;
import io.memorychain.api.config.MemoryConfig;
import io.memorychain.api.config.ProposalConfig;
import io.memorychain.api.config.RetrievalConfig;
import io.memorychain.api.tls.TlsContexts;
import io.memorychain.domain.category.CategoryPolicy;
import io.memorychain.domain.decide.WriteSettings;
import io.memorychain.embeddings.Embedder;
import io.memorychain.events.Topics;
import io.memorychain.events.content.MasterKey;
import io.memorychain.events.registry.SchemaRegistry;
import io.memorychain.projector.MemoryChainRuntime;
import io.micronaut.context.annotation.Value;
import jakarta.inject.Singleton;
import java.net.URI;
import java.nio.file.Path;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Starts the chain's Kafka Streams applications (sequencer, projection, embedder, linker; state under
 * {@code <data-dir>/streams}) with the sequencer's rules from the configuration, the content master key and the routing
 * between instances. Reading the TLS settings when it is made means a bad TLS configuration fails start-up before
 * anything starts.
 */
@Singleton
class ChainRuntimeFactory {

    private static final Logger log = LoggerFactory.getLogger(ChainRuntimeFactory.class);

    private final MemoryConfig config;
    private final RetrievalConfig retrieval;
    private final WriteSettings sequencer;
    private final InstanceConfig instance;
    private final Embedder embedder;
    private final int embedderThreads;
    private final int httpPort;
    private final boolean tls;

    ChainRuntimeFactory(
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
        this.tls = tls.enabled();
        this.config = config;
        this.retrieval = retrieval;
        this.sequencer = new WriteSettings(
                        config.getMaxContentBytes(), config.getBlockLabels(), config.getMaxConsolidationInputs())
                .withCategories(categories)
                .withGovernance(config.governancePolicy())
                .withCoreCap(core.policy())
                .withReviews(proposals.reviewPolicy());
        this.instance = instance;
        this.embedder = embedder;
        this.embedderThreads = embeddings.getStreamThreads();
        this.httpPort = httpPort;
    }

    ChainRuntime start(
            KafkaCluster cluster, Topics topics, SchemaRegistry registry, SigningKeyFiles keys, Path dataDir) {
        String hostName = MemoryChainRuntime.Settings.defaultInstanceId();
        boolean embedded = cluster.embedded();
        Optional<URI> advertised = instance.advertised(embedded, httpPort, hostName, tls);
        MemoryChainRuntime.Routing routing = instance.routing(embedded, httpPort, hostName, tls);
        if (advertised.isPresent()) {
            log.info(
                    "Routing spaces by owner: this instance is {} ({} standby replicas)",
                    advertised.get(),
                    routing.standbyReplicas());
        } else if (!embedded) {
            log.warn("No advertised address (memory.instance.advertised-url, or a fixed micronaut.server.port): this "
                    + "instance answers only for the spaces it owns; run a single instance or set the address");
        }
        MemoryChainRuntime.Settings settings = new MemoryChainRuntime.Settings(
                cluster.bootstrapServers(),
                topics,
                dataDir.resolve("streams"),
                config.getTopicPrefix() + config.getApplicationId(),
                config.getKafka().partitions(),
                cluster.replicationFactor(),
                sequencer,
                config.instanceName(),
                routing);
        Optional<MasterKey> contentKey = contentKey(dataDir);
        MemoryChainRuntime runtime = MemoryChainRuntime.start(
                settings,
                registry,
                keys.signingKeys().orElseThrow(),
                embedder,
                retrieval.linker(embedder.modelId()),
                config.getStartupTimeout(),
                contentKey.orElse(null),
                embedderThreads);
        return new ChainRuntime(runtime, settings, contentKey, advertised);
    }

    private Optional<MasterKey> contentKey(Path dataDir) {
        if (!config.isContentEncryption()) {
            log.info("Content encryption off: memory texts are plain on the chain");
            return Optional.empty();
        }
        MasterKey key = MasterKey.loadOrCreate(config.getContentKeyFile()
                .orElseGet(() -> dataDir.resolve("keys").resolve(MasterKey.FILE_NAME)));
        log.info("Content encryption on (master key {})", key.id());
        return Optional.of(key);
    }
}
