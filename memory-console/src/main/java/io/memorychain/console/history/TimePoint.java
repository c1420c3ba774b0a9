package io.memorychain.console.history;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.regex.Pattern;

/**
 * The point the time machine's form names: a seq, or a UTC date and time from the browser's date-time field
 * ({@code 2026-11-28T10:15}, which carries no zone: the form says UTC and this adds it). Either is handed to the
 * services as {@code as_of_seq} / {@code as_of} (or {@code to_seq} / {@code to_time}), which validate it.
 */
public record TimePoint(String seq, String at) {

    private static final Pattern LOCAL = Pattern.compile("\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}(:\\d{2}(\\.\\d+)?)?");

    public static TimePoint of(String seq, String at) {
        return new TimePoint(clean(seq), clean(at));
    }

    /** Whether the form named a point. */
    public boolean chosen() {
        return seq != null || at != null;
    }

    /** The time as ISO-8601 with a zone: the field's local value read as UTC, anything else as typed. */
    public String isoTime() {
        if (at == null) {
            return null;
        }
        if (LOCAL.matcher(at).matches()) {
            return at.length() == 16 ? at + ":00Z" : at + "Z";
        }
        return at;
    }

    /** The seq as a number, or null when none was given (a bad one is handed over as text and refused there). */
    public Long seqNumber() {
        if (seq == null) {
            return null;
        }
        try {
            return Long.parseLong(seq);
        } catch (NumberFormatException e) {
            return null;
        }
    }

    /** The query string naming this point ({@code seq=..} or {@code at=..}). */
    public String query() {
        if (seq != null) {
            return "seq=" + URLEncoder.encode(seq, StandardCharsets.UTF_8);
        }
        return at == null ? "" : "at=" + URLEncoder.encode(at, StandardCharsets.UTF_8);
    }

    private static String clean(String value) {
        return value == null || value.isBlank() ? null : value.strip();
    }
}
