package io.memorychain.embeddings;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import ai.djl.util.Utils;
import dev.langchain4j.model.embedding.onnx.allminilml6v2q.AllMiniLmL6V2QuantizedEmbeddingModel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The embedder on the default model (all-MiniLM-L6-v2); what differs per model is in {@link EmbeddingModelsTest}. */
class OnnxSentenceEmbedderTest {

    private static final String SENTENCE =
            "The user prefers dark mode in the editor and wants the sidebar collapsed on small laptop screens";

    private static OnnxSentenceEmbedder embedder;

    @BeforeAll
    static void load() {
        embedder = OnnxSentenceEmbedder.create(EmbeddingModel.MINILM);
    }

    @AfterAll
    static void release() {
        embedder.close();
    }

    @Test
    void theExpectedModelIdIsKnownWithoutLoadingAndIsTheLoadedModelsId() {
        assertThat(EmbeddingModel.MINILM.expectedModelId()).contains(embedder.modelId());
    }

    @Test
    void vectorsHave384ComponentsAndUnitNorm() {
        assertThat(embedder.dimensions()).isEqualTo(384);
        for (String text : List.of("hi", SENTENCE, "Ana prefers dark mode", longText(10_000))) {
            float[] vector = embedder.embed(text);
            assertThat(vector).hasSize(384);
            assertThat(norm(vector)).isCloseTo(1.0, within(1e-5));
        }
    }

    @Test
    void embeddingTheSameTextTwiceGivesIdenticalVectors() {
        assertThat(embedder.embed(SENTENCE)).containsExactly(embedder.embed(SENTENCE));
    }

    @Test
    void differentTextsGiveDifferentVectors() {
        assertThat(embedder.embed("Ana prefers dark mode")).isNotEqualTo(embedder.embed("Ana prefers light mode"));
    }

    @ParameterizedTest(name = "[{index}] {0}")
    @CsvSource(delimiter = '|', textBlock = """
            The user prefers dark mode in the editor | User likes a dark theme in VS Code | The invoice is due on Friday
            Ana is allergic to peanuts | Ana cannot eat nuts because of an allergy | The deployment pipeline runs every night
            Deploy the service to Kubernetes on Monday | The Kubernetes rollout of the service is planned for Monday | My cat enjoys sleeping in the sun
            The meeting was moved to 3 pm tomorrow | Tomorrow's meeting now starts at three in the afternoon | Python lists are indexed from zero
            Always answer the user in Spanish | Respond to the user in Spanish | The database backup failed last night
            """)
    void aParaphraseIsCloserThanAnUnrelatedSentence(String anchor, String paraphrase, String unrelated) {
        float[] a = embedder.embed(anchor);
        double toParaphrase = dot(a, embedder.embed(paraphrase));
        double toUnrelated = dot(a, embedder.embed(unrelated));

        assertThat(toParaphrase).isGreaterThan(toUnrelated + 0.3);
    }

    @Test
    void embedAllGivesTheSameVectorsAsEmbeddingOneByOneAcrossBatchBoundaries() {
        List<String> texts = new ArrayList<>();
        for (int i = 0; i < 2 * OnnxSentenceEmbedder.DEFAULT_BATCH_SIZE + 5; i++) {
            texts.add(
                    switch (i % 4) {
                        case 0 -> "memory number " + i + " about the user's preferences";
                        case 1 -> "";
                        case 2 -> "short " + i;
                        default -> SENTENCE + " " + i;
                    });
        }
        // a few texts beyond the model's window, in different batches (they cost ~50x a short one)
        texts.set(7, longText(3_000));
        texts.set(OnnxSentenceEmbedder.DEFAULT_BATCH_SIZE + 9, longText(5_000));

        List<float[]> all = embedder.embedAll(texts);

        assertThat(all).hasSize(texts.size());
        for (int i = 0; i < texts.size(); i++) {
            assertThat(all.get(i)).as("text %d", i).containsExactly(embedder.embed(texts.get(i)));
        }
    }

    @Test
    void aSmallBatchSizeGivesTheSameVectorsAsTheDefault() {
        List<String> texts = List.of("one", "two words", SENTENCE, "", "Ana prefers dark mode", "the last one");
        try (OnnxSentenceEmbedder small =
                OnnxSentenceEmbedder.builder(EmbeddingModel.MINILM).batchSize(4).build()) {
            assertThat(small.batchSize()).isEqualTo(4);
            List<float[]> expected = embedder.embedAll(texts);
            List<float[]> actual = small.embedAll(texts);
            for (int i = 0; i < texts.size(); i++) {
                assertThat(actual.get(i)).as("text %d", i).containsExactly(expected.get(i));
            }
        }
    }

    @Test
    void embedAllOfNoTextsIsEmpty() {
        assertThat(embedder.embedAll(List.of())).isEmpty();
    }

    @Test
    void blankTextsGiveTheEmptySequenceVector() {
        float[] empty = embedder.embed("");

        assertThat(norm(empty)).isCloseTo(1.0, within(1e-5));
        assertThat(embedder.embed("   ")).containsExactly(empty);
        assertThat(embedder.embed("\n\t \r\n")).containsExactly(empty);
    }

    @Test
    void textLongerThanTheModelWindowIsTruncatedToItsBeginning() {
        String tenThousandChars = longText(10_000);

        float[] vector = embedder.embed(tenThousandChars);

        assertThat(norm(vector)).isCloseTo(1.0, within(1e-5));
        assertThat(embedder.embed(tenThousandChars + " and a completely different ending about invoices"))
                .containsExactly(vector);
        assertThat(embedder.embed(tenThousandChars.substring(0, 200))).isNotEqualTo(vector);
    }

    @Test
    void modelIdNamesTheModelArtifactVersionPoolingAndWindow() {
        String version = System.getProperty("expected.model.version");
        assertThat(version).as("set by surefire from the pom").isNotBlank();

        assertThat(embedder.modelId()).isEqualTo("all-MiniLM-L6-v2-q@" + version + "#mean-256");
    }

    @Test
    void anotherInstanceWithAThreadPoolHasTheSameModelIdAndGivesTheSameVectors() {
        try (OnnxSentenceEmbedder other = OnnxSentenceEmbedder.builder(EmbeddingModel.MINILM)
                .intraOpThreads(0)
                .build()) {
            assertThat(other.modelId()).isEqualTo(embedder.modelId());
            assertThat(other.embed(SENTENCE)).containsExactly(embedder.embed(SENTENCE));
        }
    }

    @Test
    void vectorsAreTheSameAsLangchain4jsForTextsWithinItsWindow() {
        // langchain4j truncates at 128 tokens (its tokenizer.json); below that both routes must agree
        var reference = new AllMiniLmL6V2QuantizedEmbeddingModel();
        for (String text : List.of("hi", SENTENCE, "User likes a dark theme in VS Code", longText(400))) {
            float[] expected = reference.embed(text).content().vector();
            float[] actual = embedder.embed(text);
            for (int d = 0; d < actual.length; d++) {
                assertThat(actual[d]).as("component %d of '%s'", d, text).isCloseTo(expected[d], within(1e-6f));
            }
        }
    }

    @Test
    void concurrentCallsGiveTheSameVectorsAsSequentialOnes() throws Exception {
        List<String> texts = IntStream.range(0, 40)
                .mapToObj(i -> "concurrent memory " + i + " " + SENTENCE)
                .toList();
        List<float[]> expected = embedder.embedAll(texts);

        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Callable<float[]>> calls = new ArrayList<>();
            for (String text : texts) {
                calls.add(() -> embedder.embed(text));
            }
            List<Future<float[]>> results = pool.invokeAll(calls);
            for (int i = 0; i < texts.size(); i++) {
                assertThat(results.get(i).get()).as("text %d", i).containsExactly(expected.get(i));
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void aClosedEmbedderRejectsCalls() {
        OnnxSentenceEmbedder closed = OnnxSentenceEmbedder.create(EmbeddingModel.MINILM);
        closed.close();
        closed.close();

        assertThatThrownBy(() -> closed.embed("text"))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("closed");
        assertThatThrownBy(() -> closed.embedAll(List.of("text"))).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void nullTextsAreRejectedNamingTheirPosition() {
        assertThatThrownBy(() -> embedder.embed(null)).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> embedder.embedAll(java.util.Arrays.asList("a", null)))
                .isInstanceOf(NullPointerException.class)
                .hasMessageContaining("texts[1]");
    }

    @Test
    void builderRejectsInvalidSettings() {
        assertThatThrownBy(() ->
                        OnnxSentenceEmbedder.builder(EmbeddingModel.MINILM).batchSize(0))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() ->
                        OnnxSentenceEmbedder.builder(EmbeddingModel.MINILM).intraOpThreads(-1))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void djlRunsOfflineAndUnpacksItsNativeLibraryInTheCacheDirItWasGiven() {
        Path cacheDir = Utils.getCacheDir();

        assertThat(Utils.isOfflineMode()).isTrue();
        assertThat(System.getProperty(DjlSetup.OPT_OUT_TRACKING)).isEqualTo("true");
        if (System.getenv(DjlSetup.CACHE_DIR) == null) {
            // surefire passes target/djl-cache; without it DjlSetup sets the property itself
            assertThat(cacheDir).isEqualTo(Path.of(System.getProperty(DjlSetup.CACHE_DIR)));
        }
        assertThat(Files.isDirectory(cacheDir.resolve("tokenizers")))
                .as("unpacked under %s", cacheDir)
                .isTrue();
    }

    /** Text of the given length made of varied words, so it tokenizes to far more than 256 word pieces. */
    static String longText(int chars) {
        String[] words = {
            "memory",
            "agents",
            "remember",
            "preferences",
            "chain",
            "events",
            "replay",
            "Kafka",
            "projection",
            "verification",
            "signature",
            "consolidation",
            "importance",
            "decay",
            "retrieval"
        };
        StringBuilder text = new StringBuilder(chars + 16);
        for (int i = 0; text.length() < chars; i++) {
            text.append(words[(i * 7 + i / 3) % words.length]).append(' ');
        }
        return text.substring(0, chars);
    }

    static double dot(float[] a, float[] b) {
        double sum = 0;
        for (int i = 0; i < a.length; i++) {
            sum += a[i] * b[i];
        }
        return sum;
    }

    static double norm(float[] v) {
        return Math.sqrt(dot(v, v));
    }
}
