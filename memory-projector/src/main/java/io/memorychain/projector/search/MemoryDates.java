package io.memorychain.projector.search;

import io.memorychain.avro.Memory;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;

/**
 * The days a memory is about (docs/architecture.md §7, dates): the day it was created ({@code created_at}, UTC) and the
 * date expressions of its content, relative ones resolved against that day (a turn of 8 May 2023 saying "yesterday"
 * mentions 7 May 2023). A pure function of the memory version, so the index fields built from it stay a function of the
 * log.
 */
public final class MemoryDates {

    private MemoryDates() {}

    /** The UTC day of {@code created_at}: the reference of the content's relative expressions. */
    public static LocalDate createdDay(Memory m) {
        return LocalDate.ofInstant(m.getCreatedAt(), ZoneOffset.UTC);
    }

    /** The date expressions of the content. */
    public static List<DateMention> mentioned(Memory m) {
        return DateExpressions.find(m.getContent(), createdDay(m));
    }

    /** The creation day, then the spans the content mentions. */
    public static List<DateSpan> all(Memory m) {
        List<DateSpan> spans = new ArrayList<>();
        spans.add(DateSpan.day(createdDay(m)));
        mentioned(m).forEach(d -> spans.add(d.span()));
        return spans;
    }

    /** Whether any of the memory's days falls in any of {@code wanted}. */
    public static boolean overlaps(List<DateSpan> memory, List<DateSpan> wanted) {
        return memory.stream().anyMatch(s -> wanted.stream().anyMatch(s::overlaps));
    }
}
