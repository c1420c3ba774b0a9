package io.memorychain.api.request;

import io.memorychain.events.Limits;
import io.memorychain.api.error.ApiException;
import io.memorychain.api.error.ErrorCodes;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The input checks every write makes before anything is published: a request that fails here never reaches Kafka.
 * The sequencer re-checks what depends on state (existence, versions, constitutional flags, block labels).
 */
public final class InputRules {

    public static final int MAX_SHORT_TEXT = Limits.MAX_SHORT_TEXT;
    public static final int MAX_SUMMARY = Limits.MAX_SUMMARY;
    public static final int MAX_REASON = Limits.MAX_REASON;
    public static final int MAX_TAGS = Limits.MAX_TAGS;
    public static final int MAX_TAG_LENGTH = Limits.MAX_TAG_LENGTH;

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
        if (value == null) {
            throw ApiException.invalid(field + " is required");
        }
        return optionalContent(field, value);
    }

    public String optionalContent(String field, String value) {
        if (value == null) {
            return null;
        }
        if (value.isBlank()) {
            throw ApiException.invalid(field + " must not be blank");
        }
        int bytes = Texts.utf8Length(value);
        if (bytes > maxContentBytes) {
            throw new ApiException(ErrorCodes.TOO_LARGE, field + " is " + bytes + " bytes; at most " + maxContentBytes
                    + " UTF-8 bytes are allowed");
        }
        return value;
    }

    /** Optional short text: null stays null; otherwise not blank and at most {@code maxLength} characters. */
    public static String text(String field, String value, int maxLength) {
        if (value == null) {
            return null;
        }
        if (value.isBlank()) {
            throw ApiException.invalid(field + " must not be blank (omit it instead)");
        }
        if (value.length() > maxLength) {
            throw ApiException.invalid(field + " is " + value.length() + " characters; at most " + maxLength + " are allowed");
        }
        return value;
    }

    public static List<String> tags(String field, List<String> tags) {
        if (tags == null) {
            return null;
        }
        if (tags.size() > MAX_TAGS) {
            throw ApiException.invalid(field + " has " + tags.size() + " entries; at most " + MAX_TAGS + " are allowed");
        }
        for (String tag : tags) {
            if (tag == null || tag.isBlank()) {
                throw ApiException.invalid(field + " must not contain null or blank entries");
            }
            if (tag.length() > MAX_TAG_LENGTH) {
                throw ApiException.invalid(field + " entries are at most " + MAX_TAG_LENGTH + " characters");
            }
        }
        return List.copyOf(tags);
    }

    public static Integer importance(Integer importance) {
        if (importance != null && (importance < 1 || importance > 5)) {
            throw ApiException.invalid("importance must be between 1 and 5, was " + importance);
        }
        return importance;
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
            MemoryIds.require(space, id);
        }
        return List.copyOf(ids);
    }
}
