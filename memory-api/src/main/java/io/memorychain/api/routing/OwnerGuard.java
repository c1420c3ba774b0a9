package io.memorychain.api.routing;

import io.memorychain.api.backend.ChainRouting;
import io.memorychain.api.error.ApiException;
import io.memorychain.api.error.ErrorCodes;
import io.memorychain.projector.view.SpaceOwner;
import jakarta.inject.Singleton;
import java.net.URI;
import java.util.Optional;

/**
 * The last guard of gRPC and MCP calls (docs/architecture.md §19), after {@link GrpcRouting} and {@link McpRouting}
 * forwarded what another instance owns: a call about a space this instance does not serve is refused instead of being
 * answered from views that do not hold the space: REBALANCING while no instance can serve it, NOT_OWNER naming the
 * owner when this instance cannot forward (it advertises no address, or the call came in-process).
 */
@Singleton
public class OwnerGuard {

    private final ChainRouting backend;

    public OwnerGuard(ChainRouting backend) {
        this.backend = backend;
    }

    /**
     * Where to forward a call about the space: the REST base URL of the instance that serves it when that is another
     * instance and this one routes ({@code memory.instance.advertised-url}); empty when this instance serves the space,
     * when none can now, or when this instance cannot forward ({@link #requireServedHere} then says why).
     */
    public Optional<URI> ownerUrl(String space) {
        SpaceOwner owner = backend.ownerOf(space);
        if (owner.kind() != SpaceOwner.Kind.REMOTE) {
            return Optional.empty();
        }
        return backend.advertisedUrl()
                .map(self -> OwnerForwarder.baseUrl(self, new SpaceOwner.Endpoint(owner.host(), owner.port())));
    }

    /**
     * Returns when this instance serves the space.
     *
     * @throws ApiException NOT_OWNER (another instance serves it: its REST address is in the message) or REBALANCING
     *     (no instance can answer now)
     */
    public void requireServedHere(String space) {
        SpaceOwner owner = backend.ownerOf(space);
        switch (owner.kind()) {
            case LOCAL -> {}
            case REMOTE ->
                throw new ApiException(
                        ErrorCodes.NOT_OWNER,
                        "space " + space + " is served by the instance "
                                + "at " + owner.host() + ":" + owner.port()
                                + " (its REST address) and this call was not forwarded "
                                + "there (this instance routes only with memory.instance.advertised-url); send it to that instance");
            case UNAVAILABLE ->
                throw new ApiException(
                        ErrorCodes.REBALANCING,
                        "no instance can answer for space " + space + " now: " + owner.reason() + "; retry shortly");
        }
    }
}
