package io.memorychain.domain.messages;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The writing constraints of seed 004 §9 (docs/architecture.md §20) for a memory text a model wrote: semantic memories
 * are complete, self-contained, third-person, without pronouns, neutral, 1-2 sentences and at most 280 characters;
 * episodic ones are in the past tense and 1-2 sentences. What can be trimmed is trimmed (whitespace, wrapping quotes,
 * sentences after the second, an exclamation, the length at a sentence or word boundary); what cannot is rejected
 * (empty after normalisation; first or second person, or a sentence opening with a pronoun, in a semantic memory; no
 * past-tense verb in an episodic one). Pure and deterministic.
 */
public final class WritingConstraints {

    /** Which guard applies. */
    public enum Style {
        SEMANTIC,
        EPISODIC,
        PROCEDURAL
    }

    /** First-time pass, trimmed into shape, or rejected. */
    public enum Outcome {
        PASS,
        TRIMMED,
        REJECTED
    }

    /**
     * @param text the text to store (trimmed when {@link Outcome#TRIMMED}; the normalised input when rejected)
     * @param reasons what was trimmed, or why it was rejected (empty for a pass)
     */
    public record Verdict(Outcome outcome, String text, List<String> reasons) {

        public Verdict {
            Objects.requireNonNull(outcome, "outcome");
            Objects.requireNonNull(text, "text");
            reasons = List.copyOf(reasons);
        }

        public boolean accepted() {
            return outcome != Outcome.REJECTED;
        }
    }

    public static final int MAX_CHARS = 280;
    public static final int MAX_SENTENCES = 2;

    /** The semantic prompt guard of seed 004 §9, word for word. */
    public static final String SEMANTIC_GUARD =
            "Write a complete, self-contained, third-person summary with no pronouns; "
                    + "neutral tone; 1-2 sentences; <=280 chars.";
    /** The episodic prompt guard of seed 004 §9, word for word. */
    public static final String EPISODIC_GUARD = "Past tense; 1-2 sentences; focus on what was discussed/decided/done; "
            + "exclude stable facts unless updated.";

    /**
     * First person, case-sensitive for "I" (so the Roman numeral in "World War I" is rare enough to accept); in a
     * model's text these refer to the model or the speaker, never to a third party.
     */
    public static final Pattern FIRST_PERSON = Pattern.compile(
            "(?<![\\w'])(I|I'm|I've|I'd|I'll|[Mm]e|[Mm]y|[Mm]ine|[Mm]yself|[Ww]e|[Ww]e're|[Ww]e've|[Uu]s|[Oo]ur|[Oo]urs"
                    + "|[Oo]urselves)(?![\\w'])");

    private static final Pattern SECOND_PERSON = Pattern.compile(
            "(?<![\\w'])([Yy]ou|[Yy]ou're|[Yy]ou've|[Yy]ou'd|[Yy]ou'll|[Yy]our|[Yy]ours|[Yy]ourself|[Yy]ourselves)(?![\\w'])");
    /** A sentence opening with a personal pronoun is not self-contained ("She lives in Porto."). */
    private static final Pattern PRONOUN_OPENING =
            Pattern.compile("(?:^|[.!?]\\s+)(He|She|They|Him|Her|His|Hers|Them|Their|Theirs|It|Its)(?![\\w'])");

    private static final Pattern SENTENCE_END = Pattern.compile("(?<=[.!?])\\s+(?=[\\p{Lu}\\p{N}\"'(])");
    private static final Pattern SPACES = Pattern.compile("\\s+");
    private static final Pattern PAST = Pattern.compile("(?i)(?<![\\w'])(\\w{2,}ed|was|were|had|did|went|said|made|"
            + "chose|took|met|got|gave|came|left|found|told|thought|bought|brought|began|became|ran|saw|spent|sent|"
            + "won|lost|paid|built|wrote|spoke|knew|felt|kept|held|set|put|moved|agreed|decided|used to)(?![\\w'])");
    private static final String ELLIPSIS = "…";

    private WritingConstraints() {}

    /** The guard text a prompt carries for {@code style}. */
    public static String guard(Style style) {
        return switch (style) {
            case SEMANTIC -> SEMANTIC_GUARD;
            case EPISODIC -> EPISODIC_GUARD;
            case PROCEDURAL -> "Imperative mood; numbered steps if there are several; <=280 chars.";
        };
    }

    /** Whitespace collapsed and stripped, wrapping quotes removed. */
    public static String normalise(String text) {
        if (text == null) {
            return "";
        }
        String t = SPACES.matcher(text).replaceAll(" ").strip();
        while (t.length() >= 2
                && (t.startsWith("\"") && t.endsWith("\"")
                        || t.startsWith("'") && t.endsWith("'")
                        || t.startsWith("“") && t.endsWith("”"))) {
            t = t.substring(1, t.length() - 1).strip();
        }
        return t;
    }

    public static Verdict check(Style style, String text) {
        Objects.requireNonNull(style, "style");
        List<String> trimmed = new ArrayList<>();
        String raw = text == null ? "" : text;
        String t = normalise(raw);
        if (!t.equals(raw)) {
            trimmed.add("whitespace or quotes");
        }
        if (t.isEmpty() || !t.codePoints().anyMatch(Character::isLetterOrDigit)) {
            return new Verdict(Outcome.REJECTED, t, List.of("empty after normalisation"));
        }
        if (style == Style.SEMANTIC) {
            Matcher person = FIRST_PERSON.matcher(t);
            if (person.find()) {
                return new Verdict(Outcome.REJECTED, t, List.of("first person (\"" + person.group(1) + "\")"));
            }
            Matcher second = SECOND_PERSON.matcher(t);
            if (second.find()) {
                return new Verdict(Outcome.REJECTED, t, List.of("second person (\"" + second.group(1) + "\")"));
            }
            Matcher opening = PRONOUN_OPENING.matcher(t);
            if (opening.find()) {
                return new Verdict(
                        Outcome.REJECTED, t, List.of("not self-contained (opens with \"" + opening.group(1) + "\")"));
            }
        }
        if (style == Style.EPISODIC && !PAST.matcher(t).find()) {
            return new Verdict(Outcome.REJECTED, t, List.of("not in the past tense"));
        }
        if (style != Style.PROCEDURAL) {
            String[] sentences = SENTENCE_END.split(t);
            if (sentences.length > MAX_SENTENCES) {
                t = String.join(" ", sentences[0], sentences[1]);
                trimmed.add("more than " + MAX_SENTENCES + " sentences");
            }
        }
        if (style == Style.SEMANTIC && t.indexOf('!') >= 0) {
            t = t.replaceAll("!+", ".").replaceAll("\\.{2,}", ".");
            trimmed.add("exclamation (not neutral)");
        }
        if (t.codePointCount(0, t.length()) > MAX_CHARS) {
            t = shorten(t);
            trimmed.add("longer than " + MAX_CHARS + " characters");
        }
        return trimmed.isEmpty() ? new Verdict(Outcome.PASS, t, List.of()) : new Verdict(Outcome.TRIMMED, t, trimmed);
    }

    /** At most {@link #MAX_CHARS}: at the last sentence end that fits, else at the last word that fits, with "…". */
    static String shorten(String t) {
        int limit = t.offsetByCodePoints(0, MAX_CHARS);
        Matcher ends = SENTENCE_END.matcher(t);
        int cut = -1;
        while (ends.find() && ends.start() <= limit) {
            cut = ends.start();
        }
        if (cut > 0) {
            return t.substring(0, cut).strip();
        }
        int room = t.offsetByCodePoints(0, MAX_CHARS - 1);
        int space = t.lastIndexOf(' ', room);
        String head = (space > 0 ? t.substring(0, space) : t.substring(0, room)).replaceAll("[\\s,;:.\\-–—]+$", "");
        return head + ELLIPSIS;
    }
}
