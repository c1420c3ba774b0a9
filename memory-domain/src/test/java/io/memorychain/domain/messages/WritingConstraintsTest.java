package io.memorychain.domain.messages;

import static org.assertj.core.api.Assertions.assertThat;

import io.memorychain.domain.messages.WritingConstraints.Outcome;
import io.memorychain.domain.messages.WritingConstraints.Style;
import io.memorychain.domain.messages.WritingConstraints.Verdict;
import org.junit.jupiter.api.Test;

class WritingConstraintsTest {

    @Test
    void aCompleteThirdPersonFactPasses() {
        Verdict v = WritingConstraints.check(Style.SEMANTIC, "The user's sister Ana lives in Porto.");
        assertThat(v.outcome()).isEqualTo(Outcome.PASS);
        assertThat(v.text()).isEqualTo("The user's sister Ana lives in Porto.");
        assertThat(v.reasons()).isEmpty();
    }

    @Test
    void trimsWhitespaceQuotesAndAThirdSentence() {
        Verdict v = WritingConstraints.check(
                Style.SEMANTIC,
                "  \"The user likes tea.  The user dislikes coffee. The user drinks water at night.\" ");
        assertThat(v.outcome()).isEqualTo(Outcome.TRIMMED);
        assertThat(v.text()).isEqualTo("The user likes tea. The user dislikes coffee.");
        assertThat(v.reasons()).contains("whitespace or quotes", "more than 2 sentences");
    }

    @Test
    void cutsALongSentenceAtAWordBoundary() {
        String longText = "The user collects " + "vintage mechanical keyboards from several manufacturers ".repeat(8)
                + "and restores them.";
        Verdict v = WritingConstraints.check(Style.SEMANTIC, longText);
        assertThat(v.outcome()).isEqualTo(Outcome.TRIMMED);
        assertThat(v.text().codePointCount(0, v.text().length())).isLessThanOrEqualTo(280);
        assertThat(v.text()).endsWith("…").startsWith("The user collects vintage");
        assertThat(longText).startsWith(v.text().substring(0, v.text().length() - 1));
    }

    @Test
    void cutsATooLongTwoSentenceTextAtTheSentenceEnd() {
        String first = "The user works as a nurse at the Hospital de Santo António in Porto on night shifts.";
        String second =
                "The user " + "also volunteers at the local animal shelter on weekends ".repeat(5) + "regularly.";
        Verdict v = WritingConstraints.check(Style.SEMANTIC, first + " " + second);
        assertThat(v.outcome()).isEqualTo(Outcome.TRIMMED);
        assertThat(v.text()).isEqualTo(first);
    }

    @Test
    void rejectsEmptyAndPronounsForSemantic() {
        assertThat(WritingConstraints.check(Style.SEMANTIC, "  \" \" ").outcome())
                .isEqualTo(Outcome.REJECTED);
        assertThat(WritingConstraints.check(Style.SEMANTIC, "...").outcome()).isEqualTo(Outcome.REJECTED);
        assertThat(WritingConstraints.check(Style.SEMANTIC, "My sister lives in Porto.")
                        .reasons())
                .containsExactly("first person (\"My\")");
        assertThat(WritingConstraints.check(Style.SEMANTIC, "Your sister lives in Porto.")
                        .reasons())
                .containsExactly("second person (\"Your\")");
        assertThat(WritingConstraints.check(Style.SEMANTIC, "She lives in Porto.")
                        .reasons())
                .containsExactly("not self-contained (opens with \"She\")");
    }

    @Test
    void episodicNeedsThePastTenseButMayUseNoSemanticGuard() {
        assertThat(WritingConstraints.check(Style.EPISODIC, "The team decided to ship on Friday.")
                        .outcome())
                .isEqualTo(Outcome.PASS);
        assertThat(WritingConstraints.check(Style.EPISODIC, "The team ships on Friday.")
                        .reasons())
                .containsExactly("not in the past tense");
        assertThat(WritingConstraints.check(Style.EPISODIC, "We met Ana at the airport.")
                        .outcome())
                .isEqualTo(Outcome.PASS);
    }

    @Test
    void anExclamationIsMadeNeutral() {
        Verdict v = WritingConstraints.check(Style.SEMANTIC, "The user loves jazz!");
        assertThat(v.outcome()).isEqualTo(Outcome.TRIMMED);
        assertThat(v.text()).isEqualTo("The user loves jazz.");
    }
}
