package io.memorychain.api.routing;

import io.grpc.Channel;
import io.grpc.ManagedChannel;
import io.grpc.ManagedChannelBuilder;
import io.grpc.netty.NettyChannelBuilder;
import io.memorychain.api.backend.ChainRouting;
import io.memorychain.api.error.ApiException;
import io.memorychain.api.error.ErrorCodes;
import io.memorychain.api.tls.TlsContexts;
import io.memorychain.projector.view.SpaceOwner;
import io.micronaut.json.JsonMapper;
import jakarta.annotation.PreDestroy;
import jakarta.inject.Singleton;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Finds where a gRPC call about a space is answered (docs/architecture.md §19): here, or the owner's gRPC address (read
 * once per owner from its {@code GET /instance} and kept until a call to it cannot connect), with one channel per owner
 * address (TLS with {@code memory.tls.*} on, else plaintext). The call itself is relayed by the gRPC transport
 * ({@code api.grpc.OwnerProxy}) with the caller's metadata and {@link RoutingHeaders#FORWARDED_BY}.
 */
@Singleton
public class GrpcRouting {

    /** The gRPC metadata key of {@link RoutingHeaders#FORWARDED_BY}. */
    public static final String FORWARDED_BY = RoutingHeaders.FORWARDED_BY.toLowerCase(java.util.Locale.ROOT);

    private static final Logger log = LoggerFactory.getLogger(GrpcRouting.class);
    private static final Duration LOOKUP_TIMEOUT = Duration.ofSeconds(5);

    private final ChainRouting backend;
    private final JsonMapper json;
    private final HttpClient http;
    private final TlsContexts tls;
    private final Map<SpaceOwner.Endpoint, String> addresses = new ConcurrentHashMap<>();
    private final Map<String, ManagedChannel> channels = new ConcurrentHashMap<>();

    public GrpcRouting(ChainRouting backend, JsonMapper json, TlsContexts tls) {
        this.backend = backend;
        this.json = json;
        this.tls = tls;
        this.http = OwnerForwarder.client(tls);
    }

    /** Where a call about a space goes: its owner's channel and REST endpoint. */
    public record Target(Channel channel, SpaceOwner.Endpoint owner, String address) {}

    /**
     * The owner to forward this call to, or empty when it stays here (served here, or refused here by
     * {@link OwnerGuard} because no instance can serve it now, or because this instance does not route).
     *
     * @param forwardedBy the call's {@code x-memory-forwarded-by} metadata, or null
     * @throws ApiException REBALANCING when the owner is elsewhere but the call was already forwarded once or the owner
     *     cannot be reached
     */
    public Optional<Target> ownerOf(String space, String forwardedBy) throws InterruptedException {
        SpaceOwner owner = backend.ownerOf(space);
        Optional<URI> self = backend.advertisedUrl();
        if (owner.kind() != SpaceOwner.Kind.REMOTE || self.isEmpty()) {
            return Optional.empty();
        }
        if (forwardedBy != null) {
            throw new ApiException(
                    ErrorCodes.REBALANCING,
                    "space " + space + " moved to another instance while " + forwardedBy
                            + " forwarded the call; retry shortly");
        }
        SpaceOwner.Endpoint endpoint = new SpaceOwner.Endpoint(owner.host(), owner.port());
        String address = addresses.get(endpoint);
        if (address == null) {
            address = lookUp(self.get(), endpoint, space);
            addresses.put(endpoint, address);
        }
        return Optional.of(new Target(channels.computeIfAbsent(address, this::channel), endpoint, address));
    }

    /** A channel to another instance's gRPC address: TLS with {@code memory.tls.*} on, else plaintext. */
    private ManagedChannel channel(String address) {
        if (!tls.enabled()) {
            return ManagedChannelBuilder.forTarget(address).usePlaintext().build();
        }
        return NettyChannelBuilder.forTarget(address)
                .sslContext(tls.grpcClient())
                .build();
    }

    /** A call to the owner could not connect: its address is read again next time (it may have restarted). */
    public void unreachable(Target target) {
        addresses.remove(target.owner(), target.address());
    }

    private String lookUp(URI self, SpaceOwner.Endpoint owner, String space) throws InterruptedException {
        URI url = OwnerForwarder.baseUrl(self, owner).resolve("/instance");
        try {
            HttpResponse<String> answer = http.send(
                    HttpRequest.newBuilder(url)
                            .timeout(LOOKUP_TIMEOUT)
                            .GET()
                            .header("Accept", "application/json")
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            Object address = answer.statusCode() == 200
                    ? json.readValue(answer.body(), Map.class).get("grpc_address")
                    : null;
            if (address instanceof String a && !a.isBlank()) {
                return a;
            }
            throw new ApiException(
                    ErrorCodes.REBALANCING,
                    "the owner of space " + space + " (" + url + ") advertises no gRPC address (" + answer.statusCode()
                            + "); retry shortly");
        } catch (javax.net.ssl.SSLException e) {
            OwnerForwarder.logTlsFailure(url, e);
            throw new ApiException(
                    ErrorCodes.REBALANCING,
                    "the TLS handshake with the owner of space " + space + " (" + url + ") failed; retry shortly");
        } catch (IOException e) {
            log.info("Owner {} of space {} is not reachable for its gRPC address: {}", url, space, e.toString());
            throw new ApiException(
                    ErrorCodes.REBALANCING,
                    "the owner of space " + space + " (" + url + ") is not reachable; retry shortly");
        }
    }

    @PreDestroy
    void close() throws InterruptedException {
        channels.values().forEach(ManagedChannel::shutdownNow);
        for (ManagedChannel channel : channels.values()) {
            channel.awaitTermination(5, TimeUnit.SECONDS);
        }
    }
}
