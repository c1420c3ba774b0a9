package io.memorychain.api.history;

import io.memorychain.api.error.ApiException;
import io.memorychain.api.request.InputRules;
import io.memorychain.avro.view.HistoryEntry;
import java.time.Instant;

/**
 * A point in a space's history (docs/architecture.md §17): after the event at {@code seq}, or at {@code time} (after
 * every event that occurred at or before it).
 */
public record AsOf(Long seq, Instant time) {

    /** Documentation of the point-in-time parameters. */
    public static final String SEQ_DOC = "point-in-time read: as it was after this seq (1 to the space's head)";

    public static final String TIME_DOC = "point-in-time read: as it was at this ISO-8601 time (not with as_of_seq)";

    /**
     * The point a read names with {@code as_of_seq} or {@code as_of}; null when it names none. 400 INVALID_ARGUMENT for
     * both, a seq that is not a whole number from 1 to the space's head, or a time that is not ISO-8601.
     */
    public static AsOf of(String asOfSeq, String asOf, long head) {
        if (asOfSeq == null && asOf == null) {
            return null;
        }
        if (asOfSeq != null && asOf != null) {
            throw ApiException.invalid("give at most one of as_of_seq and as_of");
        }
        if (asOf != null) {
            return new AsOf(null, InputRules.instant("as_of", asOf));
        }
        long seq;
        try {
            seq = Long.parseLong(asOfSeq.trim());
        } catch (NumberFormatException e) {
            throw ApiException.invalid("as_of_seq must be a whole number, not '" + asOfSeq + "'");
        }
        if (seq < 1 || seq > head) {
            throw ApiException.invalid("as_of_seq must be between 1 and the space's head " + head + ", was " + seq);
        }
        return new AsOf(seq, null);
    }

    /** Whether the history entry's event happened at or before this point. */
    public boolean covers(HistoryEntry entry) {
        return seq != null ? entry.getSeq() <= seq : !entry.getOccurredAt().isAfter(time);
    }

    @Override
    public String toString() {
        return seq != null ? "seq " + seq : time.toString();
    }
}
