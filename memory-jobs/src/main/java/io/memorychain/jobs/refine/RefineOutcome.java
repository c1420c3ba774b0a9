package io.memorychain.jobs.refine;

/** How a run of the refinement agent ended. */
public sealed interface RefineOutcome {

    int steps();

    long tokens();

    /** The agent completed the session; {@code line} is what the chain recorded. */
    record Completed(String summary, String line, int steps, long tokens) implements RefineOutcome {}

    /** The session was left open (the model failed, the step or token bound was reached); {@code reason} is logged. */
    record LeftOpen(String reason, int steps, long tokens) implements RefineOutcome {}
}
