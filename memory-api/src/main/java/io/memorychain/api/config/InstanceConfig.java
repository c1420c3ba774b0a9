package io.memorychain.api.config;

import io.memorychain.projector.MemoryChainRuntime;
import io.micronaut.context.annotation.ConfigurationProperties;
import io.micronaut.core.annotation.Nullable;
import java.net.URI;
import java.util.Locale;
import java.util.Optional;

/**
 * {@code memory.instance.*}: how this instance is reached by the others when several share the views
 * (docs/architecture.md §19). Each instance advertises its REST address as the projection's
 * {@code application.server}; a request for a space another instance owns is forwarded to that address.
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
     * {@code num.standby.replicas} of the sequencer and the projection: warm copies of their state on other
     * instances, so a task that moves (an instance stops) restores from a nearly full local copy. Absent: 0 with the
     * embedded broker, 1 against an external cluster.
     */
    @Nullable
    private Integer standbyReplicas;

    /**
     * The advertised base URL (scheme, host, port, no path), or empty when this instance does not route.
     *
     * @param embedded  whether the service runs its own broker (a single instance)
     * @param httpPort  {@code micronaut.server.port} (-1 or 0: a random port, which cannot be advertised)
     * @param hostName  this host's name, the default host
     * @throws IllegalArgumentException naming the property when the URL is not an absolute http(s) URL
     */
    public Optional<URI> advertised(boolean embedded, int httpPort, String hostName) {
        if (advertisedUrl == null || advertisedUrl.isBlank()) {
            if (embedded || httpPort <= 0) {
                return Optional.empty();
            }
            return Optional.of(URI.create("http://" + hostName + ":" + httpPort));
        }
        URI uri;
        try {
            uri = new URI(advertisedUrl.trim());
        } catch (java.net.URISyntaxException e) {
            throw new IllegalArgumentException("memory.instance.advertised-url is not a URL: " + advertisedUrl, e);
        }
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        if (!scheme.equals("http") && !scheme.equals("https") || uri.getHost() == null
                || uri.getRawPath() != null && !uri.getRawPath().isEmpty() && !uri.getRawPath().equals("/")
                || uri.getRawQuery() != null) {
            throw new IllegalArgumentException("memory.instance.advertised-url must be http(s)://host[:port] with no "
                    + "path, not " + advertisedUrl);
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
        return new MemoryChainRuntime.Routing(advertised(embedded, httpPort, hostName)
                .map(uri -> uri.getHost() + ":" + uri.getPort()).orElse(null), standbyReplicas(embedded));
    }

    public String getAdvertisedUrl() {
        return advertisedUrl;
    }

    public void setAdvertisedUrl(@Nullable String advertisedUrl) {
        this.advertisedUrl = advertisedUrl;
    }

    public Integer getStandbyReplicas() {
        return standbyReplicas;
    }

    public void setStandbyReplicas(@Nullable Integer standbyReplicas) {
        this.standbyReplicas = standbyReplicas;
    }
}
