package io.memorychain.api.backend;

import io.memorychain.projector.view.SpaceOwner;
import java.net.URI;
import java.util.Optional;

/**
 * Which instance owns a space's views and how far a standby copy is (docs/architecture.md §19). A port of the running
 * chain ({@link MemoryBackend}); a feature asks for the narrowest it needs.
 */
public interface ChainRouting {

    /**
     * Which instance serves the space's views now (docs/architecture.md §19): this one, another one (forward there), or
     * none while the projection rebalances. Default: this one (a single instance).
     */
    default SpaceOwner ownerOf(String space) {
        return SpaceOwner.UNROUTED;
    }

    /**
     * How far this instance's own copy of the space's views (a standby replica, or the active task while it restores)
     * has applied the space (docs/architecture.md §19); empty when this instance holds no such copy. Default: none.
     *
     * @param owner what {@link #ownerOf} said (its partition, when known)
     */
    default java.util.OptionalLong standbyAppliedSeq(String space, SpaceOwner owner) {
        return java.util.OptionalLong.empty();
    }

    /** This instance's advertised REST base URL ({@code memory.instance.advertised-url}); empty: routing is off. */
    default Optional<URI> advertisedUrl() {
        return Optional.empty();
    }
}
