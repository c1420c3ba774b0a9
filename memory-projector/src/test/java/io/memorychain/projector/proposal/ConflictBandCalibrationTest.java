package io.memorychain.projector.proposal;

import static org.assertj.core.api.Assertions.assertThat;

import io.memorychain.embeddings.EmbeddingModel;
import io.memorychain.projector.SharedEmbedder;
import java.util.Arrays;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Each model's calibrated conflict band ({@link ConflictBand#forModel(String)}) against the real model: a sample of the
 * pairs measured when it was chosen (memory-api/README.md). Fails when a model change moves a pair across the band's
 * edge.
 */
class ConflictBandCalibrationTest {

    private static final String[][] CONTRADICTIONS = {
        {"Project deadline is March 15", "Project deadline is March 30"},
        {"The staging server is at 10.0.0.5", "The staging server is at 10.0.0.7"},
        {"Alice is allergic to peanuts.", "Alice is not allergic to peanuts."},
        {"User prefers dark mode", "User prefers light mode"},
        {"The team uses tabs for indentation", "The team uses spaces for indentation"},
        {"The user lives in Berlin.", "The user lives in Munich."},
        {"User wants short answers", "User wants detailed, long answers"},
    };

    private static final String[][] OTHER_SUBJECTS_AND_LOOSELY_RELATED = {
        {"Alice is allergic to peanuts.", "Bob is allergic to cats."},
        {"The user has a dog named Rex.", "The user has a cat named Tom."},
        {"The user has two children", "The user's daughter is called Mia"},
        {"The client meeting is on Tuesday", "The client is based in Paris"},
        {"Project deadline is March 15", "The user prefers dark mode"},
    };

    private static final String[][] NEAR_DUPLICATES = {
        {"User prefers dark mode", "The user prefers dark mode."},
        {"User prefers academic sources over blog posts", "user prefers academic sources over blog-posts"},
    };

    static Stream<Arguments> contradictions() {
        return perModel(CONTRADICTIONS);
    }

    static Stream<Arguments> otherSubjects() {
        return perModel(OTHER_SUBJECTS_AND_LOOSELY_RELATED);
    }

    static Stream<Arguments> nearDuplicates() {
        return perModel(NEAR_DUPLICATES);
    }

    private static Stream<Arguments> perModel(String[][] pairs) {
        return Arrays.stream(EmbeddingModel.values())
                .flatMap(model -> Arrays.stream(pairs).map(p -> Arguments.of(model, p[0], p[1])));
    }

    private static ConflictBand band(EmbeddingModel model) {
        return ConflictBand.forModel(SharedEmbedder.of(model).modelId());
    }

    private static double similarity(EmbeddingModel model, String a, String b) {
        return new ProposalConflicts(SharedEmbedder.of(model), band(model)).similarity(a, b);
    }

    @ParameterizedTest(name = "{0}: {1} ~ {2}")
    @MethodSource("contradictions")
    void contradictionsAboutOneSubjectFallInTheBand(EmbeddingModel model, String a, String b) {
        assertThat(similarity(model, a, b))
                .isBetween(band(model).min(), band(model).max());
        assertThat(ProposalConflicts.normalize(a)).isNotEqualTo(ProposalConflicts.normalize(b));
    }

    @ParameterizedTest(name = "{0}: {1} ~ {2}")
    @MethodSource("otherSubjects")
    void otherSubjectsAndLooselyRelatedFactsFallBelowIt(EmbeddingModel model, String a, String b) {
        assertThat(similarity(model, a, b)).isLessThan(band(model).min());
    }

    @ParameterizedTest(name = "{0}: {1} ~ {2}")
    @MethodSource("nearDuplicates")
    void nearDuplicatesScoreLikeContradictionsSoTheirTextTellsThemApart(EmbeddingModel model, String a, String b) {
        assertThat(similarity(model, a, b)).isGreaterThan(0.9);
        assertThat(ProposalConflicts.normalize(a)).isEqualTo(ProposalConflicts.normalize(b));
    }
}
