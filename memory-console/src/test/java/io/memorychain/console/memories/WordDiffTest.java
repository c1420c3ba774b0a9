package io.memorychain.console.memories;

import static org.assertj.core.api.Assertions.assertThat;

import io.memorychain.console.memories.WordDiff.Kind;
import io.memorychain.console.memories.WordDiff.Part;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class WordDiffTest {

    private static String side(List<Part> parts, Kind skipped) {
        return parts.stream().filter(p -> p.kind() != skipped).map(Part::text).collect(Collectors.joining());
    }

    @Test
    void aChangedWordIsRemovedAndAddedBetweenKeptWords() {
        List<Part> parts = WordDiff.of("Launch is on Thursday at noon", "Launch is on Friday at noon");

        assertThat(parts)
                .containsExactly(
                        new Part(Kind.SAME, "Launch is on "),
                        new Part(Kind.REMOVED, "Thursday "),
                        new Part(Kind.ADDED, "Friday "),
                        new Part(Kind.SAME, "at noon"));
        assertThat(WordDiff.changed(parts)).isTrue();
    }

    @Test
    void thePartsPutBackTogetherGiveBothTexts() {
        String before = "one two\nthree  four five";
        String after = "zero one\nthree five six";
        List<Part> parts = WordDiff.of(before, after);

        assertThat(side(parts, Kind.ADDED)).isEqualTo(before);
        assertThat(side(parts, Kind.REMOVED)).isEqualTo(after);
    }

    @Test
    void equalTextsHaveNoChangeAndACreationIsAllAdded() {
        assertThat(WordDiff.changed(WordDiff.of("same text", "same text"))).isFalse();
        assertThat(WordDiff.of(null, "new memory")).containsExactly(new Part(Kind.ADDED, "new memory"));
        assertThat(WordDiff.of("", "")).isEmpty();
    }

    @Test
    void textsPastTheBoundAreOneRemovedAndOneAddedRun() {
        String before = "w ".repeat(WordDiff.MAX_TOKENS + 1);
        String after = before + "extra";
        List<Part> parts = WordDiff.of(before, after);

        assertThat(parts).extracting(Part::kind).containsExactly(Kind.REMOVED, Kind.ADDED);
        assertThat(parts.get(1).text()).isEqualTo(after);
    }
}
