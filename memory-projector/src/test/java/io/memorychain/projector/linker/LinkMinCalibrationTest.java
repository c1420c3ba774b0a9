package io.memorychain.projector.linker;

import static org.assertj.core.api.Assertions.assertThat;

import io.memorychain.embeddings.EmbeddingModel;
import io.memorychain.projector.SharedEmbedder;
import java.util.Arrays;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Each model's calibrated link_min ({@link io.memorychain.embeddings.CosineThresholds#linkMin()}) against the real
 * model: a sample of the pairs measured when it was chosen (memory-worker/README.md). Fails when a model change moves a
 * pair across its model's cut.
 */
class LinkMinCalibrationTest {

    private static final String[][] RELATED = {
        {"Alice is allergic to peanuts.", "Alice has a peanut allergy."},
        {"The user lives in Berlin.", "The user's home city is Berlin, Germany."},
        {"Project Atlas uses PostgreSQL 16.", "The Atlas project database is Postgres."},
        {"The user prefers dark mode in all editors.", "User wants the editor color scheme to be dark."},
        {"The user prefers tea over coffee.", "The user dislikes coffee."},
        {"The deploy pipeline runs on GitHub Actions.", "CI builds run on GitHub Actions workflows."},
    };

    private static final String[][] LOOK_ALIKES_AND_UNRELATED = {
        {"Alice is allergic to peanuts.", "Bob is allergic to cats."},
        {"The user has a dog named Rex.", "The user has a cat named Tom."},
        {"Project Atlas uses PostgreSQL 16.", "Project Hermes uses MySQL."},
        {"The user lives in Berlin.", "Project Atlas uses PostgreSQL 16."},
        {"The user prefers dark mode in all editors.", "The user prefers tea over coffee."},
    };

    static Stream<Arguments> related() {
        return perModel(RELATED);
    }

    static Stream<Arguments> lookAlikesAndUnrelated() {
        return perModel(LOOK_ALIKES_AND_UNRELATED);
    }

    static Stream<Arguments> perModel(String[][] pairs) {
        return Arrays.stream(EmbeddingModel.values())
                .flatMap(model -> Arrays.stream(pairs).map(p -> Arguments.of(model, p[0], p[1])));
    }

    private static double similarity(EmbeddingModel model, String a, String b) {
        return LinkerEntry.cosine(
                SharedEmbedder.of(model).embed(a), SharedEmbedder.of(model).embed(b));
    }

    @ParameterizedTest(name = "{0}: {1} ~ {2}")
    @MethodSource("related")
    void relatedFactsScoreAtOrAboveTheModelsLinkMin(EmbeddingModel model, String a, String b) {
        assertThat(similarity(model, a, b))
                .isGreaterThanOrEqualTo(model.thresholds().linkMin());
    }

    @ParameterizedTest(name = "{0}: {1} ~ {2}")
    @MethodSource("lookAlikesAndUnrelated")
    void lookAlikesAndUnrelatedFactsScoreBelowIt(EmbeddingModel model, String a, String b) {
        assertThat(similarity(model, a, b)).isLessThan(model.thresholds().linkMin());
    }
}
