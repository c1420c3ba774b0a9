package io.memorychain.api.backend;

import io.micronaut.http.context.ServerRequestContext;

/**
 * Marks the REST read the routing decided to answer from this instance's standby copy of a space's views
 * (docs/architecture.md §19, {@code api.routing.SpaceRouting}): while that request runs, {@link MemoryBackend#views()}
 * of the service backend includes the standby stores. Every other call reads the running active tasks only.
 */
public final class StandbyReads {

    /** The request attribute: the applied seq of the standby copy that answers (a {@code Long}). */
    public static final String ATTRIBUTE = "memorychain.standby-seq";

    private StandbyReads() {}

    /** Whether the request being served on this thread was routed to a standby copy. */
    public static boolean requested() {
        return ServerRequestContext.currentRequest()
                .flatMap(r -> r.getAttribute(ATTRIBUTE))
                .isPresent();
    }
}
