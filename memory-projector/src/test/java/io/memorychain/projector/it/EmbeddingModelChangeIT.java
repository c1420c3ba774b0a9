package io.memorychain.projector.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.memorychain.avro.ActorType;
import io.memorychain.avro.CreateMemory;
import io.memorychain.avro.MemoryEmbedding;
import io.memorychain.avro.MemoryOutcome;
import io.memorychain.domain.category.CategoryPolicy;
import io.memorychain.domain.decide.WriteSettings;
import io.memorychain.embeddings.EmbeddingModel;
import io.memorychain.embeddings.OnnxSentenceEmbedder;
import io.memorychain.events.Requests;
import io.memorychain.events.Topics;
import io.memorychain.events.chain.ChainKeys;
import io.memorychain.events.chain.KafkaChainReader;
import io.memorychain.events.chain.SignatureMode;
import io.memorychain.events.chain.VerificationResult;
import io.memorychain.events.publish.MemoryPublisher;
import io.memorychain.events.registry.KafkaTopicSchemaRegistry;
import io.memorychain.events.registry.SchemaRegistry;
import io.memorychain.events.testing.SharedKafka;
import io.memorychain.projector.MemoryChainRuntime;
import io.memorychain.projector.SharedEmbedder;
import io.memorychain.projector.embedding.EmbedderTopology;
import io.memorychain.projector.retrieval.DecayModel;
import io.memorychain.projector.retrieval.QueryRequest;
import io.memorychain.projector.retrieval.QueryResult;
import io.memorychain.projector.retrieval.QueryService;
import io.memorychain.projector.retrieval.RankingWeights;
import io.memorychain.projector.search.Hit;
import io.memorychain.projector.search.SearchMode;
import io.memorychain.projector.search.SearchRequest;
import io.memorychain.projector.view.MemoryViews;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Changing the embedding model on real Kafka (docs/architecture.md §7): memories written and embedded with MiniLM, then
 * the same instance restarted with e5-small. The new model's embedder is a new application that re-embeds the chain
 * from the start in the background; meanwhile queries answer (by keywords for memories without an e5 vector), then
 * every memory has an e5 vector, meaning search uses it, and the chain, untouched, still verifies.
 */
@Tag("integration")
@ExtendWith(SharedKafka.class)
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class EmbeddingModelChangeIT {

    private static final String SPACE = "switch";
    private static final String[] CONTENTS = {
        "The user adopted a kitten named Miso last spring",
        "Invoice INV-2024-117 was paid late by Globex",
        "The VPN drops every evening at 18:00 for the Lisbon office",
        "Quarterly revenue grew eleven percent",
        "Ana prefers window seats on long flights"
    };

    @Test
    void aNewModelReembedsEveryMemoryInTheBackgroundWhileQueriesKeepAnswering() throws Exception {
        String prefix = SharedKafka.uniquePrefix();
        Topics topics = Topics.withPrefix(prefix);
        Path state = Files.createTempDirectory("model-change-it");
        MemoryChainRuntime.Settings settings = new MemoryChainRuntime.Settings(
                SharedKafka.bootstrapServers(), topics, state, prefix + "app", 3, (short) 1, WriteSettings.defaults());
        ChainKeys keys = ChainKeys.generate();
        var actor = Requests.actor(ActorType.AGENT, "helper");
        List<String> ids = new ArrayList<>();
        OnnxSentenceEmbedder before = SharedEmbedder.of(EmbeddingModel.MINILM);
        String minilm = before.modelId();
        try (SchemaRegistry registry =
                        new KafkaTopicSchemaRegistry(SharedKafka.bootstrapServers(), topics.schemas(), (short) 1);
                OnnxSentenceEmbedder e5 = OnnxSentenceEmbedder.create(EmbeddingModel.E5_SMALL)) {
            assertThat(EmbedderTopology.applicationId(prefix, e5.modelId()))
                    .isNotEqualTo(EmbedderTopology.applicationId(prefix, minilm));
            try (MemoryChainRuntime runtime =
                            MemoryChainRuntime.start(settings, registry, keys, before, Duration.ofSeconds(90));
                    MemoryPublisher publisher = new MemoryPublisher(SharedKafka.bootstrapServers(), topics, registry)) {
                for (String content : CONTENTS) {
                    MemoryOutcome o = publisher
                            .publish(Requests.create(
                                            SPACE,
                                            actor,
                                            CreateMemory.newBuilder()
                                                    .setContent(content)
                                                    .build())
                                    .build())
                            .get(60, TimeUnit.SECONDS);
                    assertThat(o.getAccepted()).isTrue();
                    ids.add(o.getMemoryId());
                }
                MemoryViews views = runtime.views();
                Awaitility.await()
                        .atMost(Duration.ofSeconds(60))
                        .until(() -> ids.stream()
                                .allMatch(id -> views.embedding(SPACE, id)
                                        .map(e -> e.getModelId().equals(minilm))
                                        .orElse(false)));
            }

            try (MemoryChainRuntime restarted =
                    MemoryChainRuntime.start(settings, registry, keys, e5, Duration.ofSeconds(90))) {
                MemoryViews views = restarted.views();
                QueryService queries = new QueryService(
                        views,
                        e5,
                        CategoryPolicy.unrestricted(),
                        DecayModel.standard(),
                        RankingWeights.DEFAULTS,
                        a -> {},
                        Clock.systemUTC());
                AtomicInteger answeredWhileReembedding = new AtomicInteger();
                // (a) every poll while the e5 embedder catches up is a query that must answer, by keywords at least
                Awaitility.await()
                        .atMost(Duration.ofSeconds(120))
                        .pollInterval(Duration.ofMillis(50))
                        .until(() -> {
                            assertThat(ids(queries.query(QueryRequest.of(SPACE, null, "INV-2024-117 Globex"), actor)))
                                    .startsWith(ids.get(1));
                            answeredWhileReembedding.incrementAndGet();
                            // never a MiniLM vector for an e5 query: only e5 vectors are handed out
                            assertThat(ids)
                                    .allSatisfy(id -> assertThat(
                                                    views.embedding(SPACE, id).map(MemoryEmbedding::getModelId))
                                            .isIn(java.util.Optional.empty(), java.util.Optional.of(e5.modelId())));
                            return ids.stream()
                                    .allMatch(id -> views.embedding(SPACE, id).isPresent());
                        });
                assertThat(answeredWhileReembedding).hasPositiveValue();

                // (b) every memory has an e5 vector and meaning search uses them
                List<String> nearest = views
                        .search(SearchRequest.builder(SPACE)
                                .vector(e5.embedQuery("does the user have a pet?"))
                                .mode(SearchMode.VECTOR)
                                .topK(3)
                                .build())
                        .stream()
                        .map(Hit::id)
                        .toList();
                assertThat(nearest).startsWith(ids.get(0));
                assertThat(ids(queries.query(QueryRequest.of(SPACE, null, "does the user have a pet?"), actor)))
                        .startsWith(ids.get(0));
            }

            // (c) embeddings are off the chain: the chain still verifies, every signature checked
            VerificationResult verified = new KafkaChainReader(
                            SharedKafka.clientProps(), topics.events(), registry, keys.publicRing(), SignatureMode.ALL)
                    .verifySpace(SPACE);
            assertThat(verified.ok()).as(verified.message()).isTrue();
            assertThat(verified.events()).isEqualTo(CONTENTS.length);
        }
    }

    private static List<String> ids(QueryResult result) {
        return result.items().stream().map(QueryResult.Item::id).toList();
    }
}
