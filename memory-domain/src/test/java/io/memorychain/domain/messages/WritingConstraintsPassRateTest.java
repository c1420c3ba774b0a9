package io.memorychain.domain.messages;

import static org.assertj.core.api.Assertions.assertThat;

import io.memorychain.domain.messages.WritingConstraints.Outcome;
import io.memorychain.domain.messages.WritingConstraints.Style;
import io.memorychain.domain.messages.WritingConstraints.Verdict;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The measured check of seed 004 §9 ("≥ 95% of new items pass format checks on first pass"): the validator on 40
 * hand-written router outputs (src/test/resources/messages/router-outputs.tsv, labelled by hand, not model output),
 * printing the first-pass pass rate it computes and asserting each item gets the outcome its label expects.
 */
class WritingConstraintsPassRateTest {

    private record Item(Outcome expected, Style style, String text) {}

    @Test
    void computesThePassRateOfTheHandWrittenRouterOutputs() throws IOException {
        List<Item> items = load();
        assertThat(items).hasSize(40);
        Map<Outcome, Integer> counts = new EnumMap<>(Outcome.class);
        List<String> mismatches = new ArrayList<>();
        for (Item item : items) {
            Verdict v = WritingConstraints.check(item.style(), item.text());
            counts.merge(v.outcome(), 1, Integer::sum);
            if (v.outcome() != item.expected()) {
                mismatches.add(item.expected() + " expected, " + v.outcome() + " " + v.reasons() + ": " + item.text());
            }
            assertThat(v.text().codePointCount(0, v.text().length())).isLessThanOrEqualTo(WritingConstraints.MAX_CHARS);
        }
        int pass = counts.getOrDefault(Outcome.PASS, 0);
        int trimmed = counts.getOrDefault(Outcome.TRIMMED, 0);
        int rejected = counts.getOrDefault(Outcome.REJECTED, 0);
        double firstPass = (double) pass / items.size();
        System.out.printf(
                Locale.ROOT,
                "writing constraints on %d hand-written router outputs: pass %d, trimmed %d, "
                        + "rejected %d; first-pass pass rate %.3f, accepted (pass + trimmed) %.3f%n",
                items.size(),
                pass,
                trimmed,
                rejected,
                firstPass,
                (double) (pass + trimmed) / items.size());
        assertThat(mismatches).isEmpty();
        assertThat(pass).isEqualTo(27);
        assertThat(trimmed).isEqualTo(6);
        assertThat(rejected).isEqualTo(7);
    }

    private static List<Item> load() throws IOException {
        try (InputStream in =
                WritingConstraintsPassRateTest.class.getResourceAsStream("/messages/router-outputs.tsv")) {
            List<Item> items = new ArrayList<>();
            for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
                if (line.startsWith("#") || line.isEmpty()) {
                    continue;
                }
                String[] cols = line.split("\t", 3);
                items.add(new Item(
                        Outcome.valueOf(cols[0].toUpperCase(Locale.ROOT)),
                        Style.valueOf(cols[1].toUpperCase(Locale.ROOT)),
                        cols[2]));
            }
            return items;
        }
    }
}
