package io.memorychain.projector.linker;

/** Told of every link request the linker proposes (for progress logs and metrics; called on the stream thread). */
@FunctionalInterface
public interface LinkListener {

    LinkListener NONE = (space, fromId, toId, strength) -> {};

    void proposed(String space, String fromId, String toId, double strength);
}
