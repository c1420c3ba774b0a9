package io.memorychain.projector.linker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import io.memorychain.embeddings.EmbeddingModel;
import org.junit.jupiter.api.Test;

class LinkerSettingsTest {

    @Test
    void defaultsLinkFiveNeighboursAtTheCutMeasuredForTheirModel() {
        assertThat(LinkerSettings.defaults("all-MiniLM-L6-v2-q@1.20.0-beta30#mean-256"))
                .isEqualTo(new LinkerSettings(5, 0.6, "all-MiniLM-L6-v2-q@1.20.0-beta30#mean-256"));
        assertThat(LinkerSettings.defaults("e5-small-v2-q@1.20.0-beta30#mean-512#query-passage")
                        .linkMin())
                .isEqualTo(EmbeddingModel.E5_SMALL.thresholds().linkMin());
        assertThat(LinkerSettings.defaults("an-unknown-model").linkMin())
                .as("an embedder this build does not know gets the default model's cut")
                .isEqualTo(EmbeddingModel.DEFAULT.thresholds().linkMin());
    }

    @Test
    void rejectsOutOfRangeValues() {
        assertThatIllegalArgumentException().isThrownBy(() -> new LinkerSettings(0, 0.5, "m"));
        assertThatIllegalArgumentException().isThrownBy(() -> new LinkerSettings(101, 0.5, "m"));
        assertThatIllegalArgumentException().isThrownBy(() -> new LinkerSettings(5, 0, "m"));
        assertThatIllegalArgumentException().isThrownBy(() -> new LinkerSettings(5, 1.01, "m"));
        assertThatIllegalArgumentException().isThrownBy(() -> new LinkerSettings(5, Double.NaN, "m"));
        assertThatIllegalArgumentException().isThrownBy(() -> new LinkerSettings(5, 0.5, " "));
        assertThatIllegalArgumentException().isThrownBy(() -> new LinkerSettings(5, 0.5, null));
    }
}
