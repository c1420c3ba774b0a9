package io.memorychain.domain.messages;

import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The trigger phrases of a user message (seed 001 §8.1, docs/architecture.md §20): remember, forget, reflect and recall
 * ("what do you remember about ...?"), found without a model, case-insensitively, and only where a clause starts (the
 * start of the message or after {@code . ! ? ;}, optionally after "please", "hey", "ok", "also", "and", "btw"), so "I
 * don't remember the name" or "forget it, let's eat" fire nothing. The first phrase in the message wins. Pure and
 * deterministic.
 */
public final class TriggerDetector {

    /** What a message asks of the memory. */
    public enum Trigger {
        NONE,
        REMEMBER,
        FORGET,
        REFLECT,
        RECALL;

        /** The lower-case wire name ({@code none}, {@code remember}, ...). */
        public String wireName() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /**
     * @param trigger what fired ({@link Trigger#NONE}: nothing)
     * @param phrase the phrase as written in the message (empty for none)
     * @param text what it applies to: the rest of the clause and message after the phrase, or for a phrase that names
     *     no target ("scratch that", "that's no longer relevant") the text before it; may be empty
     */
    public record Detection(Trigger trigger, String phrase, String text) {

        public static final Detection NONE = new Detection(Trigger.NONE, "", "");

        public Detection {
            Objects.requireNonNull(trigger, "trigger");
            Objects.requireNonNull(phrase, "phrase");
            Objects.requireNonNull(text, "text");
        }
    }

    /** One phrase pattern; {@code targetBefore}: the phrase names no target, the text before it is the target. */
    private record Phrase(Trigger trigger, Pattern pattern, boolean targetBefore) {}

    private static final String CLAUSE_START =
            "(?:^|(?<=[.!?;]\\s{0,3}))\\s*" + "(?:(?:please|pls|hey|ok|okay|oh|also|and|so|btw|by the way)\\s*,?\\s+)*";
    /** A phrase that refers back to its target may also follow it after a comma or a dash. */
    private static final String AFTER_TARGET = "(?:^|(?<=[.!?;,:\\-–—]\\s{0,3}))\\s*";

    private static final String THAT = "(?:\\s+that\\b)?";

    /**
     * Order matters where phrases overlap: "don't forget" (remember) before the forget phrases, "what do you remember
     * about" (recall) before "remember".
     */
    private static final List<Phrase> PHRASES = List.of(
            phrase(Trigger.RECALL, "what (?:do|did) you (?:remember|recall|know) about", false),
            phrase(Trigger.RECALL, "do you (?:still )?remember anything about", false),
            phrase(Trigger.REMEMBER, "(?:don't|dont|do not) forget" + THAT, false),
            phrase(Trigger.REMEMBER, "remember (?:this|that)?\\s*:", false),
            phrase(Trigger.REMEMBER, "remember that", false),
            phrase(
                    Trigger.REMEMBER,
                    "remember(?=\\s+\\S)(?!\\s+(?:when|what|who|whom|how|why|where|whether|if|me|it"
                            + "|him|her|them|anything|something|the name|the time|you)\\b)",
                    false),
            phrase(Trigger.REMEMBER, "keep in mind" + THAT, false),
            phrase(Trigger.REMEMBER, "note that", false),
            phrase(Trigger.REMEMBER, "note\\s*:", false),
            phrase(Trigger.REMEMBER, "important\\s*:", false),
            phrase(Trigger.REMEMBER, "for future reference" + THAT, false),
            phrase(Trigger.REMEMBER, "save this" + THAT, false),
            phrase(Trigger.REMEMBER, "fyi for later" + THAT, false),
            phrase(Trigger.FORGET, "forget (?:about|everything about|what i (?:said|told you) about|that)", false),
            phrase(Trigger.FORGET, "never ?mind about", false),
            phrase(Trigger.FORGET, "disregard(?: what i (?:said|told you) about)?", false),
            phrase(Trigger.FORGET, "ignore what i (?:said|told you) about", false),
            phrase(Trigger.FORGET, "remove (?:this |that )?from (?:your |the )?memory", false),
            phrase(Trigger.FORGET, "delete (?:the |any |all )?memor(?:y|ies) (?:about|of)", false),
            phrase(Trigger.FORGET, "(?:that's|that is|thats) no longer relevant", true),
            phrase(Trigger.FORGET, "scratch that", true),
            phrase(Trigger.REFLECT, "reflect on", false),
            phrase(Trigger.REFLECT, "consolidate (?:your|the) memor(?:y|ies)", false),
            phrase(Trigger.REFLECT, "review (?:your|the) memor(?:y|ies)", false),
            phrase(Trigger.REFLECT, "clean up (?:your|the) memor(?:y|ies)", false));

    private static final Pattern SPACES = Pattern.compile("\\s+");
    private static final String STRIP_LEADING = "^[\\s:,;.\\-–—]+";
    private static final String STRIP_TRAILING = "[\\s.?!,;:\\-–—]+$";

    private TriggerDetector() {}

    private static Phrase phrase(Trigger trigger, String regex, boolean targetBefore) {
        String start = targetBefore ? AFTER_TARGET : CLAUSE_START;
        return new Phrase(
                trigger,
                Pattern.compile(start + "(" + regex + ")(?![\\w'])", Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE),
                targetBefore);
    }

    /** The first trigger of {@code message} (whitespace collapsed), or {@link Detection#NONE}. */
    public static Detection detect(String message) {
        if (message == null || message.isBlank()) {
            return Detection.NONE;
        }
        String text = SPACES.matcher(message.strip()).replaceAll(" ");
        Phrase best = null;
        Matcher bestMatch = null;
        for (Phrase p : PHRASES) {
            Matcher m = p.pattern().matcher(text);
            if (m.find() && (bestMatch == null || m.start(1) < bestMatch.start(1))) {
                best = p;
                bestMatch = m;
            }
        }
        if (best == null) {
            return Detection.NONE;
        }
        String target = best.targetBefore()
                ? text.substring(0, bestMatch.start(1)) + " " + text.substring(bestMatch.end(1))
                : text.substring(bestMatch.end(1));
        return new Detection(best.trigger(), bestMatch.group(1), clean(target, best.trigger()));
    }

    private static String clean(String target, Trigger trigger) {
        String t = target.replaceAll(STRIP_LEADING, "");
        t = trigger == Trigger.REMEMBER ? t.replaceAll("[\\s,;:\\-–—]+$", "") : t.replaceAll(STRIP_TRAILING, "");
        return SPACES.matcher(t.strip()).replaceAll(" ");
    }
}
