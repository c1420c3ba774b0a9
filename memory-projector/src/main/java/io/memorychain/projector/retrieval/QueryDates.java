package io.memorychain.projector.retrieval;

import java.time.Instant;

/**
 * How {@code memory.query} reads the dates of its query (docs/architecture.md §7, dates).
 *
 * @param asOf what relative expressions ("last week") are resolved against: the request's point in time ({@code as_of},
 *     {@code as_of_seq}); null: the time the query is asked
 * @param filter when the query names exactly one date expression, return only memories whose days meet it (their
 *     creation day or a date their content mentions); otherwise, and by default, dates only boost
 */
public record QueryDates(Instant asOf, boolean filter) {

    /** Dates boost, relative ones resolved against the time the query is asked. */
    public static final QueryDates BOOST = new QueryDates(null, false);
}
