package io.memorychain.domain.core;

import static org.assertj.core.api.Assertions.assertThat;

import com.knuddels.jtokkit.Encodings;
import com.knuddels.jtokkit.api.Encoding;
import com.knuddels.jtokkit.api.EncodingType;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Every count equals jtokkit's {@code countTokensOrdinary}, which the counter replaces to save its ~17 MB of heap. */
class Cl100kCounterTest {

    private static Encoding jtokkit;
    private static Cl100kCounter counter;

    @BeforeAll
    static void load() {
        jtokkit = Encodings.newLazyEncodingRegistry().getEncoding(EncodingType.CL100K_BASE);
        counter = Cl100kCounter.load();
    }

    private static void assertSameCounts(List<String> texts) {
        for (String text : texts) {
            assertThat(counter.count(text)).as("%s", text).isEqualTo(jtokkit.countTokensOrdinary(text));
        }
    }

    @Test
    void edgeCases() {
        assertSameCounts(List.of(
                "",
                " ",
                "\n",
                "\r\n\r\n",
                "  \n  ",
                "a",
                "hello world",
                "Hello, World!",
                "I'm sure they'll say it's what we've DONE'S",
                "'s",
                "'S'LL'Ve",
                "1234567890",
                "3.14159 and 2,718",
                "<|endoftext|>",
                "prompts end with <|endoftext|> and <|fim_prefix|>",
                "tab\tseparated\tvalues",
                "non\u00a0breaking\u3000ideographic\u2003em space",
                "trailing spaces   ",
                "   leading",
                "emoji 😀👍🏽 and flags 🇵🇹",
                "café naïve façade",
                "日本語のテキストと中文",
                "mixed123abc___---",
                "line one\nline two\n\n\nline five",
                "combining e\u0301 and a\u0308",
                "\u0000control\u0007chars",
                "url https://example.com/path?q=1&r=2#frag",
                "code: for (int i = 0; i < n; i++) { x += y; }",
                "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"));
    }

    @Test
    void unpairedSurrogatesAreCountedAsReplacementCharacters() {
        // jtokkit refuses such text (an assertion); a memory's text can still hold one, so it is counted as the '?'
        // it becomes in UTF-8
        assertThat(counter.count("unpaired \ud800 surrogate"))
                .isEqualTo(jtokkit.countTokensOrdinary("unpaired ? surrogate"));
        assertThat(counter.count("\udc00")).isEqualTo(1);
    }

    @Test
    void randomTextsFromAMixedAlphabet() {
        String[] atoms = {
            "a",
            "e",
            "Z",
            "q",
            "th",
            "ing",
            " ",
            "  ",
            "\n",
            "\r\n",
            "\t",
            "1",
            "42",
            "999",
            "0.5",
            ".",
            ",",
            "!",
            "?",
            "'",
            "'s",
            "'LL",
            "-",
            "_",
            "/",
            "(",
            ")",
            "{",
            "}",
            "#",
            "@",
            "é",
            "ß",
            "ø",
            "ñ",
            "ж",
            "λ",
            "中",
            "日本",
            "한",
            "😀",
            "🏽",
            "\u0301",
            "\u00a0",
            "\u3000",
            "\u200b",
            "<|endoftext|>",
            "<",
            "|",
            "\u0085",
            "\u2028"
        };
        Random random = new Random(20261127);
        List<String> texts = new ArrayList<>();
        for (int i = 0; i < 20_000; i++) {
            StringBuilder text = new StringBuilder();
            int n = 1 + random.nextInt(40);
            for (int j = 0; j < n; j++) {
                text.append(atoms[random.nextInt(atoms.length)]);
            }
            texts.add(text.toString());
        }
        assertSameCounts(texts);
    }

    @Test
    void theRepositorysOwnProseAndCode() throws IOException {
        Path root = Path.of("..").toAbsolutePath().normalize();
        List<String> texts = new ArrayList<>();
        for (String name : List.of(
                "README.md",
                "docs/architecture.md",
                "docs/testing.md",
                "docs/benchmarks.md",
                "memory-domain/src/main/java/io/memorychain/domain/core/Cl100kCounter.java")) {
            Path file = root.resolve(name);
            if (Files.exists(file)) {
                String whole = Files.readString(file);
                texts.add(whole);
                texts.addAll(List.of(whole.split("\n\n")));
            }
        }
        assertThat(texts).hasSizeGreaterThan(200);
        assertSameCounts(texts);
    }
}
