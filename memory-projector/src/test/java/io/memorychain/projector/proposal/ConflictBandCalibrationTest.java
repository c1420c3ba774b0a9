package io.memorychain.projector.proposal;

import static org.assertj.core.api.Assertions.assertThat;

import io.memorychain.projector.SharedEmbedder;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The default conflict band against the real model: pairs measured when it was chosen (see {@link ConflictBand}, and
 * the table in the README). Fails when a model change moves a pair across the band's edge.
 */
class ConflictBandCalibrationTest {

    private static final ProposalConflicts CONFLICTS = new ProposalConflicts(SharedEmbedder.get(), ConflictBand.DEFAULT);

    private static double similarity(String a, String b) {
        return CONFLICTS.similarity(a, b);
    }

    @ParameterizedTest(name = "{0} ~ {1}")
    @CsvSource(delimiter = '|', value = {
        "Project deadline is March 15                | Project deadline is March 30",
        "The staging server is at 10.0.0.5           | The staging server is at 10.0.0.7",
        "Alice is allergic to peanuts.               | Alice is not allergic to peanuts.",
        "Deploys happen on Fridays                   | Never deploy on Fridays",
        "User prefers dark mode                      | User prefers light mode",
        "The team uses tabs for indentation          | The team uses spaces for indentation",
        "The user lives in Berlin.                   | The user lives in Munich.",
        "User wants short answers                    | User wants detailed, long answers",
        "The user has two children                   | The user has no children",
    })
    void contradictionsAboutOneSubjectFallInTheBand(String a, String b) {
        assertThat(similarity(a, b)).isBetween(ConflictBand.DEFAULT_MIN, ConflictBand.DEFAULT_MAX);
        assertThat(ProposalConflicts.normalize(a)).isNotEqualTo(ProposalConflicts.normalize(b));
    }

    @ParameterizedTest(name = "{0} ~ {1}")
    @CsvSource(delimiter = '|', value = {
        "The user lives in Berlin.                   | The user works in Munich.",
        "Alice is allergic to peanuts.               | Bob is allergic to cats.",
        "The user has a dog named Rex.               | The user has a cat named Tom.",
        "The user has two children                   | The user's daughter is called Mia",
        "The client meeting is on Tuesday            | The client is based in Paris",
        "Project deadline is March 15                | The user prefers dark mode",
    })
    void otherSubjectsAndLooselyRelatedFactsFallBelowIt(String a, String b) {
        assertThat(similarity(a, b)).isLessThan(ConflictBand.DEFAULT_MIN);
    }

    @ParameterizedTest(name = "{0} ~ {1}")
    @CsvSource(delimiter = '|', value = {
        "User prefers dark mode                        | The user prefers dark mode.",
        "User prefers academic sources over blog posts | user prefers academic sources over blog-posts",
    })
    void nearDuplicatesScoreLikeContradictionsSoTheirTextTellsThemApart(String a, String b) {
        assertThat(similarity(a, b)).isGreaterThan(0.9);
        assertThat(ProposalConflicts.normalize(a)).isEqualTo(ProposalConflicts.normalize(b));
    }
}
