package io.memorychain.api.routing;

import io.memorychain.api.backend.ChainRouting;
import io.memorychain.api.error.ApiException;
import io.memorychain.api.error.ErrorCodes;
import io.memorychain.projector.view.SpaceOwner;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpResponse;
import jakarta.inject.Singleton;
import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpTimeoutException;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Routes an MCP tool call about a space to the instance that owns it (docs/architecture.md §19), as
 * {@link SpaceRouting} does for REST: the JSON-RPC message is posted once to the owner's {@code /mcp} with the caller's
 * {@code Authorization} and {@link RoutingHeaders#FORWARDED_BY} ({@link OwnerForwarder}), and the owner's answer is
 * relayed as it is. A call this instance serves, or one no instance can serve now ({@link OwnerGuard} answers
 * REBALANCING), stays here.
 */
@Singleton
public class McpRouting {

    private static final Logger log = LoggerFactory.getLogger(McpRouting.class);

    private final ChainRouting backend;
    private final OwnerForwarder forwarder;

    public McpRouting(ChainRouting backend, OwnerForwarder forwarder) {
        this.backend = backend;
        this.forwarder = forwarder;
    }

    /**
     * The owner's answer to this MCP call, or empty when it is served here.
     *
     * @param request the caller's {@code POST /mcp}
     * @param space the space the tool call is about
     * @param body the JSON-RPC message as received
     * @throws ApiException REBALANCING when the owner is elsewhere but cannot be reached or the call was already
     *     forwarded once; TIMEOUT when the owner did not answer in time (a write may have been applied)
     */
    public Optional<HttpResponse<byte[]>> forward(HttpRequest<?> request, String space, byte[] body)
            throws InterruptedException {
        SpaceOwner owner = backend.ownerOf(space);
        Optional<URI> self = backend.advertisedUrl();
        if (owner.kind() != SpaceOwner.Kind.REMOTE || self.isEmpty()) {
            return Optional.empty();
        }
        String from = request.getHeaders().get(RoutingHeaders.FORWARDED_BY);
        if (from != null) {
            throw new ApiException(
                    ErrorCodes.REBALANCING,
                    "space " + space + " moved to another instance while " + from
                            + " forwarded the call; retry shortly");
        }
        URI ownerUrl = OwnerForwarder.baseUrl(self.get(), new SpaceOwner.Endpoint(owner.host(), owner.port()));
        try {
            return Optional.of(forwarder.forward(request, body, ownerUrl));
        } catch (ConnectException | HttpConnectTimeoutException e) {
            log.info("Owner {} of space {} is not reachable for an MCP call: {}", ownerUrl, space, e.toString());
            throw new ApiException(
                    ErrorCodes.REBALANCING,
                    "the owner of space " + space + " (" + ownerUrl + ") is not reachable; retry shortly");
        } catch (HttpTimeoutException e) {
            throw new ApiException(
                    ErrorCodes.TIMEOUT,
                    "the owner of space " + space + " (" + ownerUrl
                            + ") did not answer within its timeout; retry a write with the same idempotency_key");
        } catch (javax.net.ssl.SSLException e) {
            OwnerForwarder.logTlsFailure(ownerUrl, e);
            throw new ApiException(
                    ErrorCodes.REBALANCING,
                    "the TLS handshake with the owner of space " + space + " (" + ownerUrl + ") failed; retry shortly");
        } catch (IOException e) {
            log.info("Forwarding an MCP call to the owner {} of space {} failed: {}", ownerUrl, space, e.toString());
            throw new ApiException(
                    ErrorCodes.REBALANCING,
                    "the call to the owner of space " + space + " (" + ownerUrl + ") failed: " + e.getMessage()
                            + "; retry a write with the same idempotency_key");
        }
    }
}
