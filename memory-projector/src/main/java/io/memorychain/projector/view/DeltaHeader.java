package io.memorychain.projector.view;

import io.memorychain.avro.view.ThreadChange;
import java.util.List;
import java.util.Map;

/**
 * The memory delta header of docs/architecture.md §6: what changed in a thread since the revision the caller last saw,
 * at most {@value #MAX_BULLETS} bullets (the latest), e.g.
 *
 * <pre>
 * Memory updates since rev 4:
 * - +created: [preferences] Preferred name is Ana (imp=2)
 * - ↑updated: [goals] Ship v1 by Sep (imp=3)
 * - ↔merged: Combined 2 notes: lactose intolerant (imp=4)
 * </pre>
 *
 * Empty when nothing changed.
 */
public final class DeltaHeader {

    public static final int MAX_BULLETS = 3;
    private static final Map<String, String> SIGNS = Map.ofEntries(
            Map.entry("created", "+"),
            Map.entry("updated", "↑"),
            Map.entry("merged", "↔"),
            Map.entry("deleted", "−"),
            Map.entry("restored", "↺"),
            Map.entry("fading", "↘"),
            Map.entry("dormant", "↘"),
            Map.entry("archived", "⌫"),
            Map.entry("expired", "−"),
            Map.entry("reactivated", "↗"),
            Map.entry("purged", "⌧"));

    private DeltaHeader() {}

    /** @param changes the thread's changes after {@code sinceRev}, oldest first */
    public static String format(long sinceRev, List<ThreadChange> changes) {
        if (changes.isEmpty()) {
            return "";
        }
        StringBuilder sb = new StringBuilder("Memory updates since rev ").append(sinceRev);
        if (changes.size() > MAX_BULLETS) {
            sb.append(" (")
                    .append(changes.size())
                    .append(" changes, latest ")
                    .append(MAX_BULLETS)
                    .append(')');
        }
        sb.append(':');
        for (ThreadChange c : changes.subList(Math.max(0, changes.size() - MAX_BULLETS), changes.size())) {
            sb.append("\n- ")
                    .append(SIGNS.getOrDefault(c.getChange(), ""))
                    .append(c.getChange())
                    .append(": ");
            if (c.getCategory() != null) {
                sb.append('[').append(c.getCategory()).append("] ");
            }
            sb.append(c.getText()).append(" (imp=").append(c.getImportance()).append(')');
        }
        return sb.toString();
    }
}
