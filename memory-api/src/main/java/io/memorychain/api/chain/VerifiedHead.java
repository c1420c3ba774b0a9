package io.memorychain.api.chain;

import java.time.Instant;

/**
 * The outcome of the last verification this instance ran on a space's chain: the head it reached, how many events it
 * read, when, and the verdict.
 */
public record VerifiedHead(long seq, long events, Instant at, boolean ok, String problem) {}
