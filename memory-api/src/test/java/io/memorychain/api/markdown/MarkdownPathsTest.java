package io.memorychain.api.markdown;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.memorychain.api.error.ApiException;
import io.memorychain.api.error.ErrorCodes;
import java.time.YearMonth;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class MarkdownPathsTest {

    @Test
    void acceptsTheFourKindsOfFiles() {
        assertThat(MarkdownPaths.parse("MEMORY.md")).isEqualTo(MarkdownPath.MEMORY);
        assertThat(MarkdownPaths.parse("facts/preferences.md")).isEqualTo(MarkdownPath.facts("preferences"));
        assertThat(MarkdownPaths.parse("facts/relationship_dynamic.md").name()).isEqualTo("relationship_dynamic");
        assertThat(MarkdownPaths.parse("episodes/2024-05.md").month()).isEqualTo(YearMonth.of(2024, 5));
        assertThat(MarkdownPaths.parse("procedures/deploy-the-api.md"))
                .isEqualTo(MarkdownPath.procedures("deploy-the-api"));
        assertThat(MarkdownPaths.parse("procedures/deploy-the-api.md")).hasToString("procedures/deploy-the-api.md");
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "",
                "../x",
                "../x.md",
                "/etc/passwd",
                "/MEMORY.md",
                "facts/../../x.md",
                "facts/./a.md",
                "%2e%2e/x.md",
                "facts/%2e%2e.md",
                "facts\\a.md",
                "..\\x.md",
                "facts//a.md",
                "facts/",
                "facts/a.md/",
                "notes/a.md",
                "etc/passwd",
                "memory.md",
                "MEMORY.txt",
                "facts/a.txt",
                "facts/a",
                "facts/a/b.md",
                "facts/.hidden.md",
                "facts/-a.md",
                "facts/a b.md",
                "episodes/2024-13.md",
                "episodes/24-05.md",
                "episodes/may.md",
                "C:/x.md",
                "~/x.md",
                "facts/a\u0000.md",
                "procedures/..md"
            })
    void rejectsEverythingOutsideTheSandboxWithInvalidPath(String path) {
        assertThatThrownBy(() -> MarkdownPaths.parse(path))
                .isInstanceOfSatisfying(
                        ApiException.class, e -> assertThat(e.code()).isEqualTo(ErrorCodes.INVALID_PATH));
    }

    @Test
    void rejectsOverLongPaths() {
        assertThatThrownBy(() -> MarkdownPaths.parse("facts/" + "a".repeat(64) + ".md/" + "b".repeat(100)))
                .isInstanceOfSatisfying(
                        ApiException.class, e -> assertThat(e.getMessage()).contains("longer than 128"));
        assertThatThrownBy(() -> MarkdownPaths.parse("facts/" + "a".repeat(65) + ".md"))
                .isInstanceOfSatisfying(
                        ApiException.class, e -> assertThat(e.code()).isEqualTo(ErrorCodes.INVALID_PATH));
    }

    @Test
    void invalidPathIsABadRequest() {
        assertThat(ErrorCodes.statusOf(ErrorCodes.INVALID_PATH).getCode()).isEqualTo(400);
        assertThat(ErrorCodes.statusOf(ErrorCodes.PATCH_CONFLICT).getCode()).isEqualTo(409);
    }
}
