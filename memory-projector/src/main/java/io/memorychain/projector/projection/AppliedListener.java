package io.memorychain.projector.projection;

/** Told after the projection applied an event, so read-your-writes waits can wake up. Must not block. */
@FunctionalInterface
public interface AppliedListener {

    AppliedListener NONE = (space, seq) -> {};

    void applied(String space, long seq);
}
