package io.memorychain.api.request;

import io.memorychain.api.error.ApiException;
import io.memorychain.domain.FieldChecks;
import io.memorychain.domain.Rules;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The input checks every write makes before anything is published: a request that fails here never reaches Kafka. The
 * sequencer re-checks what depends on state (existence, versions, constitutional flags, block labels).
 */
public final class InputRules {

    public static final int MAX_SHORT_TEXT = Rules.MAX_SHORT_TEXT;
    public static final int MAX_SUMMARY = Rules.MAX_SUMMARY;
    public static final int MAX_REASON = Rules.MAX_REASON;
    public static final int MAX_TAGS = Rules.MAX_TAGS;
    public static final int MAX_TAG_LENGTH = Rules.MAX_TAG_LENGTH;

    private final int maxContentBytes;
    private final int maxConsolidationInputs;

    public InputRules(int maxContentBytes, int maxConsolidationInputs) {
        this.maxContentBytes = maxContentBytes;
        this.maxConsolidationInputs = maxConsolidationInputs;
    }

    public int maxContentBytes() {
        return maxContentBytes;
    }

    public int maxConsolidationInputs() {
        return maxConsolidationInputs;
    }

    /** Required content: present, not blank, at most the configured size (else 413 TOO_LARGE). */
    public String content(String field, String value) {
        return check(FieldChecks.content(field, value, maxContentBytes), value);
    }

    public String optionalContent(String field, String value) {
        return value == null ? null : content(field, value);
    }

    /** Optional short text: null stays null; otherwise not blank and at most {@code maxLength} characters. */
    public static String text(String field, String value, int maxLength) {
        if (value != null && value.isBlank()) {
            throw ApiException.invalid(field + " must not be blank (omit it instead)");
        }
        return check(FieldChecks.length(field, value, maxLength), value);
    }

    public static List<String> tags(String field, List<String> tags) {
        return tags == null ? null : List.copyOf(check(FieldChecks.tags(field, tags), tags));
    }

    private static <T> T check(Optional<FieldChecks.Problem> problem, T value) {
        problem.ifPresent(p -> {
            throw new ApiException(p.code().name(), p.message());
        });
        return value;
    }

    public static Integer importance(Integer importance) {
        return importance == null ? null : check(FieldChecks.importance(importance), importance);
    }

    /**
     * Whether a {@code format} parameter asks for Markdown: {@code markdown}, or {@code json} / absent for JSON (case
     * ignored); anything else is 400 INVALID_ARGUMENT.
     */
    public static boolean markdown(String format) {
        if (format == null || format.equalsIgnoreCase("json")) {
            return false;
        }
        if (format.equalsIgnoreCase("markdown")) {
            return true;
        }
        throw ApiException.invalid("format must be json or markdown, was '" + format + "'");
    }

    /** ISO-8601 instant ({@code 2024-05-01T10:00:00Z}) or offset date-time ({@code 2024-05-01T12:00:00+02:00}). */
    public static Instant instant(String field, String value) {
        if (value == null) {
            return null;
        }
        try {
            return Instant.parse(value);
        } catch (DateTimeException notAnInstant) {
            try {
                return OffsetDateTime.parse(value).toInstant();
            } catch (DateTimeException e) {
                throw ApiException.invalid(field + " must be an ISO-8601 date-time such as 2024-05-01T10:00:00Z, was '"
                        + Texts.abbreviate(value) + "'");
            }
        }
    }

    /** Consolidation inputs: 1 to max distinct plausible ids (an id that cannot exist is NOT_FOUND). */
    public List<String> consolidationIds(String space, List<String> ids) {
        if (ids == null || ids.isEmpty()) {
            throw ApiException.invalid("ids is required: the memories to consolidate");
        }
        if (ids.size() > maxConsolidationInputs) {
            throw ApiException.invalid("ids has " + ids.size() + " entries; at most " + maxConsolidationInputs
                    + " memories can be consolidated at once");
        }
        Set<String> seen = new HashSet<>();
        for (String id : ids) {
            if (id == null || id.isBlank()) {
                throw ApiException.invalid("ids must not contain null or blank entries");
            }
            if (!seen.add(id)) {
                throw ApiException.invalid("ids contains '" + Texts.abbreviate(id) + "' twice");
            }
            PathIds.require(space, id);
        }
        return List.copyOf(ids);
    }
}
