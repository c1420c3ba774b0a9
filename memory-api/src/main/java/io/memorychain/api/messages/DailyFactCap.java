package io.memorychain.api.messages;

import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.Map;

/**
 * The per-user daily cap of extracted facts (seed 004 §13): counts per space and user per UTC day, in this process only
 * (a restart starts from zero and N instances allow N times the cap; documented in docs/architecture.md §20).
 */
final class DailyFactCap {

    private final int cap;
    private final Map<String, Integer> counts = new HashMap<>();
    private LocalDate day;

    DailyFactCap(int cap) {
        this.cap = cap;
    }

    /** Takes one unit of the user's cap for today; false when it is used up. */
    synchronized boolean take(String space, String user, Instant now) {
        LocalDate today = now.atZone(ZoneOffset.UTC).toLocalDate();
        if (!today.equals(day)) {
            counts.clear();
            day = today;
        }
        String key = space + "\n" + user;
        int used = counts.getOrDefault(key, 0);
        if (used >= cap) {
            return false;
        }
        counts.put(key, used + 1);
        return true;
    }
}
