package io.memorychain.api.config;

import io.memorychain.projector.MemoryChainRuntime;
import io.micronaut.context.annotation.ConfigurationProperties;
import io.micronaut.core.annotation.Nullable;
import java.net.URI;
import java.util.Locale;
import java.util.Optional;

/**
 * {@code memory.instance.*}: how this instance is reached by the others when several share the views
 * (docs/architecture.md §19). Each instance advertises its REST address as the projection's {@code application.server};
 * a request for a space another instance owns is forwarded to that address.
 */
@ConfigurationProperties("memory.instance")
public class InstanceConfig {

    /**
     * This instance's REST base URL as the other instances reach it ({@code http://api-0.memory-api:8080}). Absent:
     * {@code http://<host name>:<micronaut.server.port>} against an external cluster, nothing with the embedded broker
     * (one instance) or a random HTTP port.
     */
    @Nullable
    private String advertisedUrl;

    /**
     * This instance's gRPC address as the other instances reach it ({@code api-0.memory-api:9090}), which a gRPC call
     * forwarded to this instance's spaces is sent to (docs/architecture.md §19); the others read it from {@code GET
     * /instance}. Absent: the advertised REST host with the port the gRPC server listens on.
     */
    @Nullable
    private String advertisedGrpcAddress;

    /**
     * {@code num.standby.replicas} of the sequencer and the projection: warm copies of their state on other instances,
     * so a task that moves (an instance stops) restores from a nearly full local copy. Absent: 0 with the embedded
     * broker, 1 against an external cluster.
     */
    @Nullable
    private Integer standbyReplicas;

    /**
     * The advertised base URL (scheme, host, port, no path), or empty when this instance does not route.
     *
     * @param embedded whether the service runs its own broker (a single instance)
     * @param httpPort {@code micronaut.server.port} (-1 or 0: a random port, which cannot be advertised)
     * @param hostName this host's name, the default host
     * @throws IllegalArgumentException naming the property when the URL is not an absolute http(s) URL
     */
    public Optional<URI> advertised(boolean embedded, int httpPort, String hostName) {
        return advertised(embedded, httpPort, hostName, false);
    }

    /**
     * The advertised base URL as {@link #advertised(boolean, int, String)}, for an instance whose HTTP listener serves
     * TLS ({@code memory.tls.enabled}) when {@code tls}: the default URL is https, and an http one is refused.
     */
    public Optional<URI> advertised(boolean embedded, int httpPort, String hostName, boolean tls) {
        if (advertisedUrl == null || advertisedUrl.isBlank()) {
            if (embedded || httpPort <= 0) {
                return Optional.empty();
            }
            return Optional.of(URI.create((tls ? "https" : "http") + "://" + hostName + ":" + httpPort));
        }
        URI uri;
        try {
            uri = new URI(advertisedUrl.trim());
        } catch (java.net.URISyntaxException e) {
            throw new IllegalArgumentException("memory.instance.advertised-url is not a URL: " + advertisedUrl, e);
        }
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        if (!scheme.equals("http") && !scheme.equals("https")
                || uri.getHost() == null
                || uri.getRawPath() != null
                        && !uri.getRawPath().isEmpty()
                        && !uri.getRawPath().equals("/")
                || uri.getRawQuery() != null) {
            throw new IllegalArgumentException("memory.instance.advertised-url must be http(s)://host[:port] with no "
                    + "path, not " + advertisedUrl);
        }
        if (tls && !scheme.equals("https")) {
            throw new IllegalArgumentException(
                    "memory.instance.advertised-url must be https:// with memory.tls.enabled "
                            + "(the HTTP listener serves TLS only), not " + advertisedUrl);
        }
        int port = uri.getPort() > 0 ? uri.getPort() : scheme.equals("https") ? 443 : 80;
        return Optional.of(URI.create(scheme + "://" + uri.getHost() + ":" + port));
    }

    /** The standby replicas in effect. */
    public int standbyReplicas(boolean embedded) {
        int replicas = standbyReplicas != null ? standbyReplicas : embedded ? 0 : 1;
        if (replicas < 0 || replicas > 10) {
            throw new IllegalArgumentException("memory.instance.standby-replicas must be in 0..10, not " + replicas);
        }
        return replicas;
    }

    /** The Streams side of both settings: {@code application.server} as {@code host:port}, and the standbys. */
    public MemoryChainRuntime.Routing routing(boolean embedded, int httpPort, String hostName) {
        return routing(embedded, httpPort, hostName, false);
    }

    /** The Streams side of both settings for an instance with or without TLS on its HTTP listener. */
    public MemoryChainRuntime.Routing routing(boolean embedded, int httpPort, String hostName, boolean tls) {
        return new MemoryChainRuntime.Routing(
                advertised(embedded, httpPort, hostName, tls)
                        .map(uri -> uri.getHost() + ":" + uri.getPort())
                        .orElse(null),
                standbyReplicas(embedded));
    }

    public String getAdvertisedUrl() {
        return advertisedUrl;
    }

    public void setAdvertisedUrl(@Nullable String advertisedUrl) {
        this.advertisedUrl = advertisedUrl;
    }

    /**
     * The advertised gRPC address as {@code host:port}, or empty when this instance does not route or the gRPC server
     * is not listening.
     *
     * @param advertisedRest the advertised REST base URL (empty: routing is off)
     * @param grpcPort the port the gRPC server listens on (-1: unknown)
     * @throws IllegalArgumentException naming the property when it is not host:port
     */
    public Optional<String> grpcAddress(Optional<URI> advertisedRest, int grpcPort) {
        if (advertisedRest.isEmpty()) {
            return Optional.empty();
        }
        if (advertisedGrpcAddress != null && !advertisedGrpcAddress.isBlank()) {
            String address = advertisedGrpcAddress.trim();
            if (!address.matches("(\\[[0-9A-Fa-f:.]+]|[A-Za-z0-9._-]+):[0-9]{1,5}")) {
                throw new IllegalArgumentException(
                        "memory.instance.advertised-grpc-address must be host:port, not " + advertisedGrpcAddress);
            }
            return Optional.of(address);
        }
        return grpcPort <= 0
                ? Optional.empty()
                : Optional.of(advertisedRest.get().getHost() + ":" + grpcPort);
    }

    public String getAdvertisedGrpcAddress() {
        return advertisedGrpcAddress;
    }

    public void setAdvertisedGrpcAddress(@Nullable String advertisedGrpcAddress) {
        this.advertisedGrpcAddress = advertisedGrpcAddress;
    }

    public Integer getStandbyReplicas() {
        return standbyReplicas;
    }

    public void setStandbyReplicas(@Nullable Integer standbyReplicas) {
        this.standbyReplicas = standbyReplicas;
    }
}
