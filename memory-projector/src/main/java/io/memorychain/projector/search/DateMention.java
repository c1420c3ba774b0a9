package io.memorychain.projector.search;

/**
 * A date expression found in a text: where it is ({@code start} inclusive, {@code end} exclusive), what it says, and
 * the days it means. {@code relative} expressions ("yesterday", "last week") were resolved against a reference date.
 */
public record DateMention(int start, int end, String text, DateSpan span, boolean relative) {}
