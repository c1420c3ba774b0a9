package io.memorychain.embeddings;

import static io.memorychain.embeddings.OnnxSentenceEmbedderTest.dot;
import static io.memorychain.embeddings.OnnxSentenceEmbedderTest.longText;
import static io.memorychain.embeddings.OnnxSentenceEmbedderTest.norm;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.langchain4j.model.embedding.onnx.allminilml6v2q.AllMiniLmL6V2QuantizedEmbeddingModel;
import dev.langchain4j.model.embedding.onnx.bgesmallenv15q.BgeSmallEnV15QuantizedEmbeddingModel;
import dev.langchain4j.model.embedding.onnx.e5smallv2q.E5SmallV2QuantizedEmbeddingModel;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** What every model of {@link EmbeddingModel} must give, and what tells them apart. */
class EmbeddingModelsTest {

    private static final String SENTENCE =
            "The user prefers dark mode in the editor and wants the sidebar collapsed on small laptop screens";
    /** Anchor, paraphrase, unrelated sentence. */
    private static final List<List<String>> TRIPLES = List.of(
            List.of(
                    "The user prefers dark mode in the editor",
                    "User likes a dark theme in VS Code",
                    "The invoice is due on Friday"),
            List.of(
                    "Ana is allergic to peanuts",
                    "Ana cannot eat nuts because of an allergy",
                    "The deployment pipeline runs every night"),
            List.of(
                    "The meeting was moved to 3 pm tomorrow",
                    "Tomorrow's meeting now starts at three in the afternoon",
                    "Python lists are indexed from zero"),
            List.of(
                    "Always answer the user in Spanish",
                    "Respond to the user in Spanish",
                    "The database backup failed last night"));

    private static final Map<EmbeddingModel, OnnxSentenceEmbedder> LOADED = new EnumMap<>(EmbeddingModel.class);

    private static synchronized OnnxSentenceEmbedder embedder(EmbeddingModel model) {
        return LOADED.computeIfAbsent(model, OnnxSentenceEmbedder::create);
    }

    @AfterAll
    static void release() {
        LOADED.values().forEach(OnnxSentenceEmbedder::close);
    }

    @ParameterizedTest
    @EnumSource(EmbeddingModel.class)
    void twoIntraOpThreadsGiveByteIdenticalVectorsToOne(EmbeddingModel model) {
        // what lets a benchmark embed its writes on both cores (RetrievalHarness --write-intra-op-threads 2) and
        // still build the index a single-threaded embedder would
        OnnxSentenceEmbedder one = embedder(model);
        try (OnnxSentenceEmbedder two =
                OnnxSentenceEmbedder.builder(model).intraOpThreads(2).build()) {
            List<String> texts = new ArrayList<>(List.of("", "hi", SENTENCE, longText(10_000)));
            TRIPLES.forEach(texts::addAll);
            for (String text : texts) {
                assertThat(two.embed(text)).containsExactly(one.embed(text));
                assertThat(two.embedQuery(text)).containsExactly(one.embedQuery(text));
            }
            assertThat(two.embedAll(texts))
                    .usingElementComparator(Arrays::compare)
                    .containsExactlyElementsOf(one.embedAll(texts));
        }
    }

    @ParameterizedTest
    @EnumSource(EmbeddingModel.class)
    void theArenaAllocatorChangesNoBitOfAnyVector(EmbeddingModel model) {
        // the embedded service may run without ONNX Runtime's arena and memory patterns (docs/benchmarks.md "Memory of
        // the embedded service"): its vectors must be what an arena session gives, whatever ran before
        OnnxSentenceEmbedder arena = embedder(model);
        try (OnnxSentenceEmbedder lean =
                OnnxSentenceEmbedder.builder(model).arenaAllocator(false).build()) {
            // a long passage, short ones, the longest (truncated) after them, a short one last: each size after
            // another, as in a live service (one comparison per text: a query's prefix changes nothing here)
            List<String> texts = new ArrayList<>(List.of(longText(2_000), "", "hi", SENTENCE));
            TRIPLES.forEach(texts::addAll);
            texts.add(longText(10_000));
            texts.add("hi");
            for (String text : texts) {
                assertThat(lean.embed(text)).containsExactly(arena.embed(text));
            }
            assertThat(lean.embedQuery(SENTENCE)).containsExactly(arena.embedQuery(SENTENCE));
            assertThat(lean.embedAll(texts))
                    .usingElementComparator(Arrays::compare)
                    .containsExactlyElementsOf(arena.embedAll(texts));
        }
    }

    @ParameterizedTest
    @EnumSource(EmbeddingModel.class)
    void everyModelGivesDeterministicUnitVectorsOf384Components(EmbeddingModel model) {
        OnnxSentenceEmbedder embedder = embedder(model);

        assertThat(embedder.dimensions()).isEqualTo(384);
        for (String text : List.of("", "hi", SENTENCE, longText(10_000))) {
            for (float[] vector : List.of(embedder.embed(text), embedder.embedQuery(text))) {
                assertThat(vector).hasSize(384);
                assertThat(norm(vector)).isCloseTo(1.0, within(1e-5));
            }
            assertThat(embedder.embed(text)).containsExactly(embedder.embed(text));
            assertThat(embedder.embedQuery(text)).containsExactly(embedder.embedQuery(text));
        }
    }

    @ParameterizedTest
    @EnumSource(EmbeddingModel.class)
    void embedAllGivesTheSameVectorsAsEmbed(EmbeddingModel model) {
        OnnxSentenceEmbedder embedder = embedder(model);
        List<String> texts = List.of("one", "", SENTENCE, "Ana prefers dark mode", longText(4_000), "the last one");

        List<float[]> all = embedder.embedAll(texts);

        for (int i = 0; i < texts.size(); i++) {
            assertThat(all.get(i)).as("text %d", i).containsExactly(embedder.embed(texts.get(i)));
        }
    }

    @ParameterizedTest
    @EnumSource(EmbeddingModel.class)
    void queriesAndPassagesDifferExactlyForModelsTrainedWithPrefixes(EmbeddingModel model) {
        OnnxSentenceEmbedder embedder = embedder(model);

        if (model == EmbeddingModel.MINILM) {
            assertThat(model.distinguishesQueries()).isFalse();
            assertThat(embedder.embedQuery(SENTENCE)).containsExactly(embedder.embed(SENTENCE));
        } else {
            assertThat(model.distinguishesQueries()).isTrue();
            assertThat(embedder.embedQuery(SENTENCE)).isNotEqualTo(embedder.embed(SENTENCE));
        }
    }

    @ParameterizedTest
    @EnumSource(EmbeddingModel.class)
    void aParaphraseIsCloserThanAnUnrelatedSentence(EmbeddingModel model) {
        OnnxSentenceEmbedder embedder = embedder(model);
        for (List<String> triple : TRIPLES) {
            float[] passage = embedder.embed(triple.get(0));
            double toParaphrase = dot(passage, embedder.embed(triple.get(1)));
            double toUnrelated = dot(passage, embedder.embed(triple.get(2)));
            assertThat(toParaphrase).as("%s: %s", model, triple).isGreaterThan(toUnrelated + 0.05);

            // a query finds its passage before an unrelated one
            float[] query = embedder.embedQuery(triple.get(1));
            assertThat(dot(query, passage))
                    .as("query %s", triple)
                    .isGreaterThan(dot(query, embedder.embed(triple.get(2))));
        }
    }

    @ParameterizedTest
    @EnumSource(EmbeddingModel.class)
    void vectorsAreTheSameAsLangchain4jsForTextsWithinItsWindow(EmbeddingModel model) {
        // langchain4j's encoder (same ONNX file and tokenizer, the same pooling) embeds what it is given: the
        // passage prefix is prepended here as OnnxSentenceEmbedder does
        dev.langchain4j.model.embedding.EmbeddingModel reference = switch (model) {
            case MINILM -> new AllMiniLmL6V2QuantizedEmbeddingModel();
            case BGE_SMALL -> new BgeSmallEnV15QuantizedEmbeddingModel();
            case E5_SMALL -> new E5SmallV2QuantizedEmbeddingModel();
        };
        OnnxSentenceEmbedder embedder = embedder(model);
        for (String text : List.of("hi", SENTENCE, longText(300))) {
            float[] expected =
                    reference.embed(model.passagePrefix() + text).content().vector();
            float[] actual = embedder.embed(text);
            for (int d = 0; d < actual.length; d++) {
                assertThat(actual[d])
                        .as("%s component %d of '%s'", model, d, text)
                        .isCloseTo(expected[d], within(1e-5f));
            }
        }
    }

    @Test
    void modelIdsNameTheModelVersionPoolingWindowAndPrefixesAndAreAllDistinct() {
        String version = System.getProperty("expected.model.version");
        assertThat(version).as("set by surefire from the pom").isNotBlank();
        Set<String> ids = new HashSet<>();

        for (EmbeddingModel model : EmbeddingModel.values()) {
            String id = model.expectedModelId().orElseThrow();
            assertThat(embedder(model).modelId()).isEqualTo(id);
            ids.add(id);
        }

        assertThat(ids)
                .containsExactlyInAnyOrder(
                        "all-MiniLM-L6-v2-q@" + version + "#mean-256",
                        "bge-small-en-v1.5-q@" + version + "#cls-512#query-instruction",
                        "e5-small-v2-q@" + version + "#mean-512#query-passage");
    }

    @Test
    void modelsAreChosenByTheirConfigurationName() {
        assertThat(EmbeddingModel.fromConfigName("minilm")).isEqualTo(EmbeddingModel.MINILM);
        assertThat(EmbeddingModel.fromConfigName(" BGE-small ")).isEqualTo(EmbeddingModel.BGE_SMALL);
        assertThat(EmbeddingModel.fromConfigName("e5-small")).isEqualTo(EmbeddingModel.E5_SMALL);
        assertThatThrownBy(() -> EmbeddingModel.fromConfigName("gpt"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("minilm, bge-small, e5-small");
    }

    @Test
    void eachModelIsFoundByItsModelIdAndCarriesItsOwnCalibratedThresholds() {
        for (EmbeddingModel model : EmbeddingModel.values()) {
            String id = model.expectedModelId().orElseThrow();
            assertThat(EmbeddingModel.ofModelId(id)).contains(model);
            assertThat(EmbeddingModel.thresholdsOf(id)).isSameAs(model.thresholds());
        }
        assertThat(EmbeddingModel.ofModelId("some-other-model@1#mean-128")).isEmpty();
        assertThat(EmbeddingModel.thresholdsOf("some-other-model@1#mean-128"))
                .isSameAs(EmbeddingModel.DEFAULT.thresholds());
        assertThat(EmbeddingModel.E5_SMALL.thresholds().linkMin())
                .as("e5's cosines run higher: unrelated facts score 0.72-0.80 there, about 0 with MiniLM")
                .isGreaterThan(EmbeddingModel.MINILM.thresholds().linkMin());
        assertThatThrownBy(() -> new CosineThresholds(0.6, 0.7, 0.99, 0.99))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
