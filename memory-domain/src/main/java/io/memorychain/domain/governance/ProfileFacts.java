package io.memorychain.domain.governance;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Where a sensitive profile field is written outside {@code SetProfileField} (docs/architecture.md §21 "Consent beyond
 * the profile store"): the {@code field: value} lines of the {@code user_profile} block and the {@code profile:<field>}
 * tags of memories. Exact grammar, no language understanding.
 *
 * <ul>
 *   <li>A block line: optional indentation, an optional list bullet ({@code -}, {@code *} or {@code +}), a field name
 *       (a letter, then up to 63 letters, digits, spaces, {@code _} or {@code -}), optionally in {@code **bold**}, a
 *       colon, a non-blank value. The name is compared case-insensitively with runs of spaces and {@code -} read as
 *       {@code _}: {@code Preferred name}, {@code preferred-name} and {@code PREFERRED_NAME} all name
 *       {@code preferred_name} (the profile's own rendering, {@code - preferred_name: Sam}, is one such line).
 *   <li>A memory tag: {@code profile:<field>}, the field normalised the same way.
 * </ul>
 */
public final class ProfileFacts {

    /** The block whose lines are profile facts. */
    public static final String PROFILE_BLOCK = "user_profile";
    /** The tag prefix marking a memory as a profile fact. */
    public static final String TAG_PREFIX = "profile:";

    private static final Pattern LINE = Pattern.compile(
            "^\\s*(?:[-*+]\\s+)?(?:\\*\\*)?([A-Za-z][A-Za-z0-9 _-]{0,63}?)\\s*(?:\\*\\*)?\\s*:(?:\\*\\*)?\\s*(\\S.*?)\\s*$");

    private ProfileFacts() {}

    /** A field name as the policy spells it: lower case, runs of spaces and hyphens as one underscore. */
    public static String normalise(String name) {
        return name.trim().toLowerCase(Locale.ROOT).replaceAll("[\\s-]+", "_");
    }

    /** The {@code field: value} lines of a block's content, by normalised field (the first line of a field wins). */
    public static Map<String, String> lines(String content) {
        Map<String, String> out = new LinkedHashMap<>();
        if (content == null) {
            return out;
        }
        for (String line : content.split("\\R")) {
            Matcher m = LINE.matcher(line);
            if (m.matches()) {
                out.putIfAbsent(normalise(m.group(1)), m.group(2));
            }
        }
        return out;
    }

    /** The fields a memory's {@code profile:<field>} tags name, normalised, in tag order. */
    public static List<String> taggedFields(List<String> tags) {
        return tags == null
                ? List.of()
                : tags.stream()
                        .filter(t -> t.regionMatches(true, 0, TAG_PREFIX, 0, TAG_PREFIX.length()))
                        .map(t -> normalise(t.substring(TAG_PREFIX.length())))
                        .filter(f -> !f.isEmpty())
                        .distinct()
                        .toList();
    }

    /** One sensitive change: the field, its new value and its value before (null: none). */
    public record Change(String field, String value, String previous) {}

    /** The first configured-sensitive field whose line the new content adds or changes. */
    public static Optional<Change> blockChange(GovernancePolicy policy, String before, String after) {
        Map<String, String> old = lines(before);
        for (Map.Entry<String, String> e : lines(after).entrySet()) {
            if (policy.sensitiveFields().contains(e.getKey()) && !e.getValue().equals(old.get(e.getKey()))) {
                return Optional.of(new Change(e.getKey(), e.getValue(), old.get(e.getKey())));
            }
        }
        return Optional.empty();
    }

    /** The first sensitive field (configured, or any field not configured benign) a memory's tags name. */
    public static Optional<String> taggedSensitive(GovernancePolicy policy, List<String> tags) {
        return taggedFields(tags).stream()
                .filter(f -> GovernancePolicy.isValidField(f) && policy.isSensitive(f))
                .findFirst();
    }
}
