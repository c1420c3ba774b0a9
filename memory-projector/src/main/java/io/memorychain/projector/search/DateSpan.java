package io.memorychain.projector.search;

import java.time.LocalDate;

/**
 * A range of calendar days, both ends included (docs/architecture.md §7, dates): what a date expression means ("May
 * 2023" is 1 to 31 May 2023) or the day a memory was created.
 */
public record DateSpan(LocalDate first, LocalDate last) {

    public DateSpan {
        if (first == null || last == null || last.isBefore(first)) {
            throw new IllegalArgumentException("a date span needs first <= last, was " + first + ".." + last);
        }
    }

    public static DateSpan day(LocalDate day) {
        return new DateSpan(day, day);
    }

    /** Whether the two spans share at least one day. */
    public boolean overlaps(DateSpan other) {
        return !first.isAfter(other.last) && !other.first.isAfter(last);
    }

    /** Number of days in the span. */
    public long days() {
        return last.toEpochDay() - first.toEpochDay() + 1;
    }

    @Override
    public String toString() {
        return first.equals(last) ? first.toString() : first + ".." + last;
    }
}
