package io.memorychain.api.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class ContradictionConfigTest {

    @Test
    void detectsEverywhereByDefaultAndPerSpaceOverridesWin() {
        ContradictionConfig config = new ContradictionConfig();
        assertThat(config.detects("any")).isTrue();
        config.setSpaceDetect(List.of("scratch=off", " team = ON "));
        assertThat(config.detects("scratch")).isFalse();
        assertThat(config.detects("team")).isTrue();
        config.setDetect(false);
        assertThat(config.detects("any")).isFalse();
        assertThat(config.detects("team")).isTrue();
    }

    @Test
    void aMalformedOverrideNamesTheProperty() {
        ContradictionConfig config = new ContradictionConfig();
        for (String entry : List.of("scratch", "=on", "scratch=maybe")) {
            config.setSpaceDetect(List.of(entry));
            assertThatThrownBy(config::overrides)
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("memory.contradictions.space-detect")
                    .hasMessageContaining(entry);
        }
    }
}
