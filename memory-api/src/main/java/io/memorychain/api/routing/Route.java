package io.memorychain.api.routing;

import io.memorychain.projector.view.SpaceOwner;
import java.util.List;
import java.util.OptionalLong;

/**
 * Where a REST call of a space is answered (docs/architecture.md §19), decided by {@link #decide}, a pure function of
 * what the instance knows at the time of the call.
 */
sealed interface Route {

    /** Answered here from the running active views (with a min seq, once they have applied it). */
    record Serve() implements Route {}

    /** Forwarded once to the owner. */
    record ToOwner(SpaceOwner.Endpoint owner) implements Route {}

    /**
     * Answered here from this instance's standby copy (or restoring active task), which has applied the space up to
     * {@code appliedSeq}; only for a read without a min seq, which accepts what the copy has.
     */
    record ServeStandby(long appliedSeq) implements Route {}

    /** Forwarded once to the instances with a standby copy, in this order, until one answers. */
    record ToStandby(List<SpaceOwner.Endpoint> standbys, String why) implements Route {}

    /** Nobody can answer now: 503 REBALANCING with this message. */
    record Rebalancing(String message) implements Route {}

    /**
     * The routing rule.
     *
     * @param space the space of the call
     * @param owner who owns it now ({@code SpaceOwners})
     * @param read whether the call is a read a standby may answer (GET or HEAD: it reads views only; writes need the
     *     owner's sequencer wait, and query and context need the search index, which only an active task builds)
     * @param forwardedBy the instance that forwarded the call here, or null: a forwarded call is never forwarded again
     * @param ownerUnreachable whether forwarding to the owner was tried and nothing was sent (refused connection) or
     *     the owner answered 503 REBALANCING
     * @param standbyHere the applied seq of this instance's copy of the space's views, empty when it holds none
     * @param minSeq the caller's {@code X-Memory-Min-Seq} (0: none)
     * @param self this instance's advertised endpoint (null: it does not route)
     */
    static Route decide(
            String space,
            SpaceOwner owner,
            boolean read,
            String forwardedBy,
            boolean ownerUnreachable,
            OptionalLong standbyHere,
            long minSeq,
            SpaceOwner.Endpoint self) {
        if (owner.kind() == SpaceOwner.Kind.LOCAL) {
            return new Serve();
        }
        String why;
        if (owner.kind() == SpaceOwner.Kind.UNAVAILABLE) {
            why = "no instance can answer for space " + space + " now: " + owner.reason();
        } else if (self == null) {
            why = "space " + space + " is owned by another instance and this one does not route";
        } else if (forwardedBy != null) {
            why = "space " + space + " moved to another instance while " + forwardedBy + " forwarded the call";
        } else if (ownerUnreachable) {
            why = "the owner of space " + space + " (" + owner.host() + ":" + owner.port() + ") cannot answer now "
                    + "(not reachable, or rebalancing)";
        } else {
            return new ToOwner(new SpaceOwner.Endpoint(owner.host(), owner.port()));
        }
        if (!read) {
            return new Rebalancing(why + " (writes, query and context need the owner: a standby replica has no "
                    + "sequencer wait and no search index)");
        }
        if (minSeq > 0) {
            // a standby's stores restore from their changelogs independently: its applied seq can pass the caller's
            // write before the store a read needs holds it (a 404 seen by the network fault harness)
            return new Rebalancing(why + "; a standby replica cannot vouch for the caller's last write ("
                    + RoutingHeaders.MIN_SEQ + " " + minSeq + "): its views catch up store by store");
        }
        if (standbyHere.isPresent()) {
            return new ServeStandby(standbyHere.getAsLong());
        }
        List<SpaceOwner.Endpoint> others =
                owner.standbys().stream().filter(e -> !e.equals(self)).toList();
        if (forwardedBy != null || self == null || others.isEmpty()) {
            return new Rebalancing(why + (forwardedBy != null ? "" : "; no standby replica of it to read from"));
        }
        return new ToStandby(others, why);
    }
}
