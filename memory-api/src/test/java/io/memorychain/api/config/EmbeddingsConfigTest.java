package io.memorychain.api.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.memorychain.api.topology.TopologyBackend;
import io.memorychain.embeddings.EmbeddingModel;
import io.memorychain.embeddings.OnnxSentenceEmbedder;
import io.micronaut.context.ApplicationContext;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@code memory.embeddings.model}: which model embeds memories and queries. */
class EmbeddingsConfigTest {

    @Test
    void e5SmallIsTheDefaultAndEachModelIsChosenByName() {
        try (ApplicationContext ctx = ApplicationContext.run(TopologyBackend.ENV)) {
            assertThat(ctx.getBean(EmbeddingsConfig.class).embeddingModel()).isEqualTo(EmbeddingModel.E5_SMALL);
        }
        for (EmbeddingModel model : EmbeddingModel.values()) {
            try (ApplicationContext ctx = ApplicationContext.run(
                    Map.of("memory.embeddings.model", model.configName()), TopologyBackend.ENV)) {
                assertThat(ctx.getBean(EmbeddingsConfig.class).embeddingModel()).isEqualTo(model);
            }
        }
    }

    @Test
    void anUnknownModelNamesThePropertyAndTheAcceptedValues() {
        try (ApplicationContext ctx =
                ApplicationContext.run(Map.of("memory.embeddings.model", "ada-002"), TopologyBackend.ENV)) {
            assertThatThrownBy(() -> ctx.getBean(EmbeddingsConfig.class).embeddingModel())
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("memory.embeddings.model")
                    .hasMessageContaining("minilm, bge-small, e5-small");
        }
    }

    @Test
    void theEmbedderRunsOneStreamThreadAndOnTheCallersThreadUnlessConfiguredOtherwise() {
        try (ApplicationContext ctx =
                ApplicationContext.run(Map.of("memory.embeddings.model", "minilm"), TopologyBackend.ENV)) {
            assertThat(ctx.getBean(OnnxSentenceEmbedder.class).intraOpThreads()).isEqualTo(1);
        }
        try (ApplicationContext ctx = ApplicationContext.run(
                Map.of("memory.embeddings.model", "minilm", "memory.embeddings.intra-op-threads", 2),
                TopologyBackend.ENV)) {
            OnnxSentenceEmbedder embedder = ctx.getBean(OnnxSentenceEmbedder.class);
            assertThat(embedder.intraOpThreads()).isEqualTo(2);
            assertThat(embedder.embed("the pool embeds too")).hasSize(OnnxSentenceEmbedder.DIMENSIONS);
        }
        try (ApplicationContext ctx = ApplicationContext.run(TopologyBackend.ENV)) {
            assertThat(ctx.getBean(EmbeddingsConfig.class).getStreamThreads()).isEqualTo(1);
        }
        assertThatThrownBy(() -> {
                    try (ApplicationContext ctx = ApplicationContext.run(
                            Map.of("memory.embeddings.stream-threads", 0), TopologyBackend.ENV)) {
                        ctx.getBean(EmbeddingsConfig.class);
                    }
                })
                .hasStackTraceContaining("streamThreads");
        assertThatThrownBy(() -> {
                    try (ApplicationContext ctx = ApplicationContext.run(
                            Map.of("memory.embeddings.intra-op-threads", -1), TopologyBackend.ENV)) {
                        ctx.getBean(EmbeddingsConfig.class);
                    }
                })
                .hasStackTraceContaining("intraOpThreads");
    }

    @Test
    void theCosineThresholdsFollowTheModelUnlessConfigured() {
        String e5 = EmbeddingModel.E5_SMALL.expectedModelId().orElseThrow();
        String minilm = EmbeddingModel.MINILM.expectedModelId().orElseThrow();
        try (ApplicationContext ctx = ApplicationContext.run(TopologyBackend.ENV)) {
            RetrievalConfig retrieval = ctx.getBean(RetrievalConfig.class);
            assertThat(retrieval.linker(e5).linkMin()).isEqualTo(0.86);
            assertThat(retrieval.linker(minilm).linkMin()).isEqualTo(0.6);
            assertThat(ctx.getBean(ProposalConfig.class).band(e5).min()).isEqualTo(0.86);
            assertThat(ctx.getBean(ConsolidateConfig.class)
                            .settings(true, minilm)
                            .orElseThrow())
                    .extracting(c -> c.bandLow(), c -> c.nearExact())
                    .containsExactly(0.80, 0.99);
        }
        try (ApplicationContext ctx = ApplicationContext.run(
                Map.of(
                        "memory.retrieval.link-min",
                        "0.7",
                        "memory.proposals.conflict-min",
                        "0.75",
                        "memory.consolidate.band-low",
                        "0.85"),
                TopologyBackend.ENV)) {
            assertThat(ctx.getBean(RetrievalConfig.class).linker(e5).linkMin()).isEqualTo(0.7);
            assertThat(ctx.getBean(ProposalConfig.class).band(e5).min()).isEqualTo(0.75);
            assertThat(ctx.getBean(ConsolidateConfig.class).settings(true, e5).orElseThrow())
                    .extracting(c -> c.bandLow(), c -> c.nearExact())
                    .containsExactly(0.85, 0.995);
        }
    }
}
