package io.memorychain.domain;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Locale;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ContentHashTest {

    @ParameterizedTest
    @ValueSource(
            strings = {
                "User prefers dark mode",
                "  User\\tprefers\\n\\n dark   MODE  ",
                "",
                "   ",
                "a",
                "Ünïcode  Ärger\\u00a0x"
            })
    void normalizationTrimsCollapsesWhitespaceAndLowerCases(String escaped) {
        String text = escaped.replace("\\t", "\t").replace("\\n", "\n").replace("\\u00a0", "\u00a0");
        String byRegex = text.strip().replaceAll("\\s+", " ").toLowerCase(Locale.ROOT);
        assertThat(ContentHash.normalize(text)).isEqualTo(byRegex);
    }

    @ParameterizedTest
    @ValueSource(strings = {"User prefers dark mode", "user   PREFERS dark mode\n"})
    void equalAfterNormalizationMeansEqualHash(String text) {
        assertThat(ContentHash.of(text)).isEqualTo(ContentHash.of("user prefers dark mode"));
    }
}
