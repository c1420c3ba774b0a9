package io.memorychain.api.refinement;

import io.memorychain.avro.Memory;

/**
 * A completed refinement session.
 *
 * @param session the session with its outcome (summary line, counts, tokens after)
 * @param journal the JOURNAL memory the outcome was written to
 * @param seq chain position of RefinementCompleted
 */
public record Completion(SessionView session, Memory journal, long seq) {}
