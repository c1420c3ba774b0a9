package io.memorychain.projector.linker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import org.junit.jupiter.api.Test;

class LinkerSettingsTest {

    @Test
    void defaultsLinkFiveNeighboursAtTheMeasuredCut() {
        LinkerSettings s = LinkerSettings.defaults("m");
        assertThat(s.topK()).isEqualTo(5);
        assertThat(s.linkMin()).isEqualTo(LinkerSettings.DEFAULT_LINK_MIN);
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
