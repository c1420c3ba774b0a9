package io.memorychain.projector.lifecycle;

import java.time.Instant;

/** Told of what the lifecycle worker does (progress logs, /health, tests). */
public interface LifecycleListener {

    LifecycleListener NONE = new LifecycleListener() {};

    /** A request was published. */
    default void requested(String space, String requestId) {}

    /** A check (punctuation) ran at {@code at} (the injected clock): memories evaluated and requests published. */
    default void checked(Instant at, int evaluated, int requested) {}
}
