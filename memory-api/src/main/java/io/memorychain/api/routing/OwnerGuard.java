package io.memorychain.api.routing;

import io.memorychain.api.backend.MemoryBackend;
import io.memorychain.api.error.ApiException;
import io.memorychain.api.error.ErrorCodes;
import io.memorychain.projector.view.SpaceOwner;
import jakarta.inject.Singleton;

/**
 * For the transports that are not forwarded (gRPC, MCP; docs/architecture.md §19): a call about a space this instance
 * does not serve is refused, naming the owner, instead of being answered from views that do not hold the space.
 */
@Singleton
public class OwnerGuard {

    private final MemoryBackend backend;

    public OwnerGuard(MemoryBackend backend) {
        this.backend = backend;
    }

    /**
     * Returns when this instance serves the space.
     *
     * @throws ApiException NOT_OWNER (another instance serves it: its REST address is in the message) or REBALANCING
     *                      (no instance can answer now)
     */
    public void requireServedHere(String space) {
        SpaceOwner owner = backend.ownerOf(space);
        switch (owner.kind()) {
            case LOCAL -> {
            }
            case REMOTE -> throw new ApiException(ErrorCodes.NOT_OWNER, "space " + space + " is served by the instance "
                    + "at " + owner.host() + ":" + owner.port() + " (its REST address); send gRPC and MCP calls of this "
                    + "space to that instance (REST calls are forwarded)");
            case UNAVAILABLE -> throw new ApiException(ErrorCodes.REBALANCING, "no instance can answer for space "
                    + space + " now: " + owner.reason() + "; retry shortly");
        }
    }
}
