package io.memorychain.projector.linker;

import static org.assertj.core.api.Assertions.assertThat;

import io.memorychain.projector.SharedEmbedder;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The default link_min against the real model: pairs measured when it was chosen (see
 * {@link LinkerSettings#DEFAULT_LINK_MIN}). Fails when a model change moves a pair across the cut.
 */
class LinkMinCalibrationTest {

    private static double similarity(String a, String b) {
        return LinkerEntry.cosine(SharedEmbedder.get().embed(a), SharedEmbedder.get().embed(b));
    }

    @ParameterizedTest(name = "{0} ~ {1}")
    @CsvSource(delimiter = '|', value = {
        "Alice is allergic to peanuts.               | Alice has a peanut allergy.",
        "The user lives in Berlin.                   | The user's home city is Berlin, Germany.",
        "Project Atlas uses PostgreSQL 16.           | The Atlas project database is Postgres.",
        "The user prefers dark mode in all editors.  | User wants the editor color scheme to be dark.",
        "The user prefers tea over coffee.           | The user dislikes coffee.",
        "The deploy pipeline runs on GitHub Actions. | CI builds run on GitHub Actions workflows.",
    })
    void relatedFactsScoreAtOrAboveTheDefault(String a, String b) {
        assertThat(similarity(a, b)).isGreaterThanOrEqualTo(LinkerSettings.DEFAULT_LINK_MIN);
    }

    @ParameterizedTest(name = "{0} ~ {1}")
    @CsvSource(delimiter = '|', value = {
        "Alice is allergic to peanuts.               | Bob is allergic to cats.",
        "The user has a dog named Rex.               | The user has a cat named Tom.",
        "Project Atlas uses PostgreSQL 16.           | Project Hermes uses MySQL.",
        "The user lives in Berlin.                   | Project Atlas uses PostgreSQL 16.",
        "The user prefers dark mode in all editors.  | The user prefers tea over coffee.",
    })
    void lookAlikesAndUnrelatedFactsScoreBelowIt(String a, String b) {
        assertThat(similarity(a, b)).isLessThan(LinkerSettings.DEFAULT_LINK_MIN);
    }
}
