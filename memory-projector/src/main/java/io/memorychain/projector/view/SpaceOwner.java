package io.memorychain.projector.view;

import java.util.List;

/**
 * Which instance answers for a space right now (docs/architecture.md §19): this one, another one (its
 * {@code application.server} endpoint), or none while the projection rebalances; and which instances keep a standby
 * replica of the space's views (a read may be answered there while the owner cannot answer).
 *
 * @param kind where the space's views are served
 * @param host the owner's advertised host ({@link Kind#REMOTE} only, else null)
 * @param port the owner's advertised port ({@link Kind#REMOTE} only, else -1)
 * @param partition the space's partition, -1 when unknown
 * @param reason why no instance serves it ({@link Kind#UNAVAILABLE} only, else null)
 * @param standbys the advertised endpoints of the instances with a standby replica of the space's partition (this one
 *     included when it has one); empty when unknown
 */
public record SpaceOwner(Kind kind, String host, int port, int partition, String reason, List<Endpoint> standbys) {

    /** Where a space's views are served. */
    public enum Kind {
        /** This instance runs the space's active projection task and it is queryable. */
        LOCAL,
        /** Another instance runs it: forward there. */
        REMOTE,
        /** No instance can answer now (no metadata yet, the task is moving or restoring). */
        UNAVAILABLE
    }

    /** An instance's advertised {@code application.server} endpoint. */
    public record Endpoint(String host, int port) {

        public Endpoint {
            if (host == null || host.isBlank() || port <= 0) {
                throw new IllegalArgumentException("an endpoint needs its host and port");
            }
        }
    }

    /** Routing is off (no advertised address): this instance answers every space, as a single instance does. */
    public static final SpaceOwner UNROUTED = new SpaceOwner(Kind.LOCAL, null, -1, -1, null);

    public SpaceOwner {
        if (kind == null) {
            throw new IllegalArgumentException("kind is required");
        }
        if (kind == Kind.REMOTE && (host == null || host.isBlank() || port <= 0)) {
            throw new IllegalArgumentException("a remote owner needs its host and port");
        }
        standbys = standbys == null ? List.of() : List.copyOf(standbys);
    }

    /** Without standby replicas. */
    public SpaceOwner(Kind kind, String host, int port, int partition, String reason) {
        this(kind, host, port, partition, reason, List.of());
    }

    public static SpaceOwner local(int partition) {
        return new SpaceOwner(Kind.LOCAL, null, -1, partition, null);
    }

    public static SpaceOwner remote(String host, int port, int partition) {
        return new SpaceOwner(Kind.REMOTE, host, port, partition, null);
    }

    public static SpaceOwner unavailable(int partition, String reason) {
        return new SpaceOwner(Kind.UNAVAILABLE, null, -1, partition, reason);
    }

    /** The same owner with these standby replicas. */
    public SpaceOwner withStandbys(List<Endpoint> replicas) {
        return new SpaceOwner(kind, host, port, partition, reason, replicas);
    }
}
