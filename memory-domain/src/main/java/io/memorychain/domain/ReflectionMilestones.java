package io.memorychain.domain;

import io.memorychain.avro.ReflectionMilestone;

/**
 * The evolution milestones of the reflection engine (docs/architecture.md §18, seed 001 §10.4): the 10th reflection of
 * a space is the first evolution summary, the 25th consolidates the evolution record's threads, the 50th is a synthesis
 * of what has fundamentally changed, the 100th a deep retrospective. A pure function of the reflection's number in its
 * space (counted from the chain, never a clock), shared by the reflection job (which writes the milestone into the
 * document) and the sequencer (which refuses a document whose milestone does not match its number).
 */
public final class ReflectionMilestones {

    private ReflectionMilestones() {}

    /**
     * The milestone the reflection numbered {@code number} (1, 2, ...) in its space is, or null for an ordinary one.
     */
    public static ReflectionMilestone of(int number) {
        return switch (number) {
            case 10 -> ReflectionMilestone.SUMMARY;
            case 25 -> ReflectionMilestone.CONSOLIDATION;
            case 50 -> ReflectionMilestone.SYNTHESIS;
            case 100 -> ReflectionMilestone.RETROSPECTIVE;
            default -> null;
        };
    }
}
