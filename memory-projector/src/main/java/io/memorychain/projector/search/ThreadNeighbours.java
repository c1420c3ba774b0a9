package io.memorychain.projector.search;

/**
 * The memories next to one memory in its thread (docs/architecture.md §7, thread context): ids, null where there is
 * none.
 *
 * @param previous the active memory of the thread written just before it
 * @param next the active memory of the thread written just after it
 */
public record ThreadNeighbours(String previous, String next) {}
