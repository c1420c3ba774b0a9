package io.memorychain.jobs.tom;

import com.fasterxml.jackson.databind.JsonNode;
import io.memorychain.domain.messages.WritingConstraints;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Checks a model's ToM answer against docs/architecture.md §12: at most 3 insights, each one non-blank, at most 280
 * characters, in the third person (no first-person pronouns: "I", "me", "my", "we", "us", "our", ..., which in a
 * model's answer refer to the model) and not about "the AI" / "the assistant" itself. Invalid insights are dropped one
 * by one with a reason, never the whole answer.
 */
public final class InsightValidator {

    /** An accepted insight: the summary (stripped) and tags (lower-case, at most 5, plus {@code tom}). */
    public record Insight(String summary, List<String> tags) {}

    /** The accepted insights, in the model's order, and why the others were dropped. */
    public record Result(List<Insight> accepted, List<String> dropped) {

        public Result {
            accepted = List.copyOf(accepted);
            dropped = List.copyOf(dropped);
        }
    }

    /** First person: the same rule as the writing constraints of seed 004 §9 (docs/architecture.md §20). */
    private static final Pattern FIRST_PERSON = WritingConstraints.FIRST_PERSON;

    private static final Pattern ABOUT_THE_AI = Pattern.compile(
            "\\b(the|this|an) (AI|assistant|language model|chatbot)\\b|\\bas an AI\\b", Pattern.CASE_INSENSITIVE);
    private static final int MAX_TAGS = 5;
    private static final int MAX_TAG_LENGTH = 32;

    private InsightValidator() {}

    public static Result validate(JsonNode answer) {
        List<Insight> accepted = new ArrayList<>();
        List<String> dropped = new ArrayList<>();
        Set<String> seen = new LinkedHashSet<>();
        JsonNode insights = answer == null ? null : answer.get("insights");
        if (insights == null || !insights.isArray()) {
            return new Result(accepted, List.of("no insights array"));
        }
        for (int i = 0; i < insights.size(); i++) {
            JsonNode item = insights.get(i);
            String summary = item.path("summary").isTextual()
                    ? item.path("summary").asText().strip()
                    : "";
            String problem = problem(summary);
            if (problem == null && !seen.add(summary.toLowerCase(Locale.ROOT))) {
                problem = "duplicate";
            }
            if (problem == null && accepted.size() >= TomSettings.MAX_INSIGHTS) {
                problem = "more than " + TomSettings.MAX_INSIGHTS + " insights";
            }
            if (problem != null) {
                dropped.add("insights[" + i + "]: " + problem);
                continue;
            }
            accepted.add(new Insight(summary, tags(item.path("tags"))));
        }
        return new Result(accepted, dropped);
    }

    /** Why a summary is not acceptable, or null. */
    static String problem(String summary) {
        if (summary.isEmpty()) {
            return "empty";
        }
        if (summary.codePointCount(0, summary.length()) > TomSettings.MAX_CHARS) {
            return "longer than " + TomSettings.MAX_CHARS + " characters";
        }
        if (FIRST_PERSON.matcher(summary).find()) {
            return "not third person";
        }
        if (ABOUT_THE_AI.matcher(summary).find()) {
            return "refers to the AI";
        }
        return null;
    }

    private static List<String> tags(JsonNode tags) {
        Set<String> result = new LinkedHashSet<>();
        result.add("tom");
        if (tags.isArray()) {
            for (JsonNode tag : tags) {
                String t = tag.asText("").strip().toLowerCase(Locale.ROOT);
                if (!t.isEmpty() && t.length() <= MAX_TAG_LENGTH && result.size() <= MAX_TAGS) {
                    result.add(t);
                }
            }
        }
        return List.copyOf(result);
    }
}
