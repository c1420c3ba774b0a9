package io.memorychain.api.audit;

import java.util.List;

/**
 * One page of a space's audit log newest first ({@link AuditLog#timeline}).
 *
 * @param items the matching entries, newest first
 * @param olderThan the cursor of the next (older) page: pass it as {@code beforeSeq}; null when the log (or the query's
 *     {@code since}) was read to its start
 * @param searchedTo the oldest seq this page read: when the page is not full but {@code olderThan} is set, the search
 *     stopped at its bound and older entries are still unread
 */
public record AuditTimeline(List<AuditEntryJson> items, Long olderThan, long searchedTo) {

    public AuditTimeline {
        items = List.copyOf(items);
    }
}
