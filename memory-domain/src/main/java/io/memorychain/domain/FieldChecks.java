package io.memorychain.domain;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;

/**
 * The field checks of a request, written once: the API runs them before it publishes (and answers 400 or 413), the
 * deciders run them on requests published directly (and reject with the same code and message).
 */
public final class FieldChecks {

    /**
     * The prefix of the chain's encrypted texts ({@code memory-events} {@code ContentCipher.PREFIX},
     * docs/architecture.md §4). A submitted text never starts with it: a client that copied a text off the raw chain,
     * or a tool run without the content key, would otherwise have its ciphertext sealed as if it were the text.
     */
    public static final String CIPHERTEXT_PREFIX = "enc1:";

    private FieldChecks() {}

    /** Whether a submitted text is chain ciphertext (see {@link #CIPHERTEXT_PREFIX}). */
    public static boolean isCiphertext(String text) {
        return text != null && text.startsWith(CIPHERTEXT_PREFIX);
    }

    private static Optional<Problem> ciphertext(String field) {
        return invalid(field + " starts with '" + CIPHERTEXT_PREFIX + "', the chain's ciphertext marker: submit the "
                + "text itself");
    }

    /** A request field that fails its check: the rejection code and a message naming the field. */
    public record Problem(RejectionCode code, String message) {}

    /** Required content: present, not blank, at most {@code maxBytes} UTF-8 bytes (else TOO_LARGE). */
    public static Optional<Problem> content(String field, String value, int maxBytes) {
        if (value == null) {
            return invalid(field + " is required");
        }
        if (value.isBlank()) {
            return invalid(field + " must not be blank");
        }
        if (isCiphertext(value)) {
            return ciphertext(field);
        }
        int bytes = value.getBytes(StandardCharsets.UTF_8).length;
        if (bytes > maxBytes) {
            return Optional.of(new Problem(
                    RejectionCode.TOO_LARGE,
                    field + " is " + bytes + " bytes; at most " + maxBytes + " UTF-8 bytes are allowed"));
        }
        return Optional.empty();
    }

    /** Optional short text: null is fine; otherwise at most {@code maxLength} characters. */
    public static Optional<Problem> length(String field, String value, int maxLength) {
        if (value != null && value.length() > maxLength) {
            return invalid(field + " is " + value.length() + " characters; at most " + maxLength + " are allowed");
        }
        return Optional.empty();
    }

    public static Optional<Problem> importance(int importance) {
        return importance < 1 || importance > 5
                ? invalid("importance must be between 1 and 5, was " + importance)
                : Optional.empty();
    }

    /** At most {@link Rules#MAX_TAGS} entries of 1 to {@link Rules#MAX_TAG_LENGTH} non-blank characters. */
    public static Optional<Problem> tags(String field, List<String> tags) {
        if (tags == null) {
            return Optional.empty();
        }
        if (tags.size() > Rules.MAX_TAGS) {
            return invalid(field + " has " + tags.size() + " entries; at most " + Rules.MAX_TAGS + " are allowed");
        }
        for (String tag : tags) {
            if (tag == null || tag.isBlank()) {
                return invalid(field + " must not contain null or blank entries");
            }
            if (tag.length() > Rules.MAX_TAG_LENGTH) {
                return invalid(field + " entries are at most " + Rules.MAX_TAG_LENGTH + " characters");
            }
            if (isCiphertext(tag)) {
                return ciphertext(field);
            }
        }
        return Optional.empty();
    }

    private static Optional<Problem> invalid(String message) {
        return Optional.of(new Problem(RejectionCode.INVALID_ARGUMENT, message));
    }
}
