package io.memorychain.projector.projection;

import static io.memorychain.projector.ChainHarness.AGENT;
import static org.assertj.core.api.Assertions.assertThat;

import io.memorychain.avro.CreateMemory;
import io.memorychain.avro.MemoryEmbedding;
import io.memorychain.domain.category.CategoryPolicy;
import io.memorychain.embeddings.EmbeddingModel;
import io.memorychain.embeddings.OnnxSentenceEmbedder;
import io.memorychain.events.Requests;
import io.memorychain.events.chain.ChainVerifier;
import io.memorychain.events.chain.SignatureMode;
import io.memorychain.projector.ChainHarness;
import io.memorychain.projector.SharedEmbedder;
import io.memorychain.projector.retrieval.DecayModel;
import io.memorychain.projector.retrieval.QueryRequest;
import io.memorychain.projector.retrieval.QueryResult;
import io.memorychain.projector.retrieval.QueryService;
import io.memorychain.projector.retrieval.RankingWeights;
import io.memorychain.projector.search.Hit;
import io.memorychain.projector.search.SearchMode;
import io.memorychain.projector.search.SearchRequest;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Changing the embedding model (docs/architecture.md §7), at the topology level: the projection of a process configured
 * with the new model never uses the old model's vectors, answers queries by keywords meanwhile, and uses the new
 * vectors once the new embedder application has re-embedded the log.
 */
class EmbeddingModelSwitchTest {

    private static final String SPACE = "switch";

    private static String create(ChainHarness h, String content) {
        return h.submit(Requests.create(
                        SPACE,
                        AGENT,
                        CreateMemory.newBuilder().setContent(content).build()))
                .getMemoryId();
    }

    private static List<String> ids(QueryResult result) {
        return result.items().stream().map(QueryResult.Item::id).toList();
    }

    private static List<String> nearest(ChainHarness h, float[] query) {
        return h
                .views
                .search(SearchRequest.builder(SPACE)
                        .vector(query)
                        .mode(SearchMode.VECTOR)
                        .topK(3)
                        .build())
                .stream()
                .map(Hit::id)
                .toList();
    }

    @Test
    void anotherModelsVectorsAreIgnoredQueriesAnswerByKeywordsUntilTheNewEmbedderHasReembeddedTheLog() {
        OnnxSentenceEmbedder e5 = SharedEmbedder.of(EmbeddingModel.E5_SMALL);
        try (ChainHarness minilm = new ChainHarness(SharedEmbedder.of(EmbeddingModel.MINILM));
                ChainHarness restarted = new ChainHarness(e5)) {
            String cat = create(minilm, "The user adopted a kitten named Miso");
            String invoice = create(minilm, "Invoice INV-2024-117 was paid late by Globex");
            String revenue = create(minilm, "Quarterly revenue grew eleven percent");
            assertThat(minilm.views.embedding(SPACE, cat)).isPresent();
            // stores written under MiniLM, read by a process now configured for e5: the old vectors are not handed out
            assertThat(minilm.viewsConfiguredFor(e5.modelId()).embedding(SPACE, cat))
                    .isEmpty();

            // the projection replays the log (events and the MiniLM embeddings) before the e5 embedder caught up
            minilm.chain().forEach(restarted::replayIntoProjection);
            minilm.embeddings().forEach(restarted::pipeEmbedding);
            QueryService queries = new QueryService(
                    restarted.views,
                    e5,
                    CategoryPolicy.unrestricted(),
                    DecayModel.standard(),
                    RankingWeights.DEFAULTS,
                    a -> {},
                    restarted.clock);
            assertThat(restarted.views.embedding(SPACE, cat)).isEmpty();
            assertThat(nearest(restarted, e5.embedQuery("does the user have a pet?")))
                    .as("no e5 vector yet")
                    .isEmpty();
            assertThat(ids(queries.query(QueryRequest.of(SPACE, null, "kitten named Miso"), AGENT)))
                    .as("keywords")
                    .startsWith(cat);
            assertThat(ids(queries.query(QueryRequest.of(SPACE, null, "INV-2024-117"), AGENT)))
                    .startsWith(invoice);

            // the new embedder application reads the chain from the start
            minilm.chain().forEach(restarted::embedAgain);

            for (String id : List.of(cat, invoice, revenue)) {
                assertThat(restarted.views.embedding(SPACE, id))
                        .get()
                        .extracting(MemoryEmbedding::getModelId)
                        .isEqualTo(e5.modelId());
            }
            assertThat(nearest(restarted, e5.embedQuery("does the user have a pet?")))
                    .startsWith(cat);
            assertThat(ids(queries.query(QueryRequest.of(SPACE, null, "does the user have a pet?"), AGENT)))
                    .as("by meaning, with e5 vectors")
                    .startsWith(cat);
            // embeddings are off the chain: the chain is untouched and still verifies
            ChainVerifier verifier = new ChainVerifier(SPACE, minilm.keys.publicRing(), SignatureMode.ALL);
            assertThat(minilm.chain())
                    .hasSize(3)
                    .allSatisfy(e -> assertThat(verifier.accept(e)).isTrue());
        }
    }
}
