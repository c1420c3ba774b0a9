package io.memorychain.api.routing;

import io.memorychain.api.config.MemoryConfig;
import io.memorychain.api.error.ApiException;
import io.memorychain.api.tls.TlsContexts;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpStatus;
import io.micronaut.http.MutableHttpResponse;
import io.micronaut.http.ServerHttpRequest;
import io.micronaut.http.body.CloseableAvailableByteBody;
import jakarta.inject.Singleton;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Forwards one request to the instance that owns its space and relays the answer (docs/architecture.md §19): the same
 * method, path, query and body, the caller's headers (its {@code Authorization} included: the owner authenticates and
 * authorizes the caller itself) plus {@link RoutingHeaders#FORWARDED_BY}; the owner's status, headers and body back.
 * Hop-by-hop headers are not copied either way.
 */
@Singleton
public class OwnerForwarder {

    private static final org.slf4j.Logger log = org.slf4j.LoggerFactory.getLogger(OwnerForwarder.class);
    /** Longer than any wait of the owner's (a write waits up to memory.write-timeout for its outcome and view). */
    private static final Duration MARGIN = Duration.ofSeconds(5);

    private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(2);

    private final HttpClient client;
    private final Duration timeout;
    private final String instanceId;

    public OwnerForwarder(MemoryConfig config, TlsContexts tls) {
        this.client = client(tls);
        this.timeout = config.getWriteTimeout().plus(MARGIN);
        this.instanceId = config.instanceName();
    }

    /**
     * An HTTP/1.1 client for calls to other instances: with {@code memory.tls.*} on, over TLS trusting
     * {@code memory.tls.trust} and presenting this instance's certificate (mutual TLS between instances).
     */
    static HttpClient client(TlsContexts tls) {
        HttpClient.Builder builder = HttpClient.newBuilder()
                .connectTimeout(CONNECT_TIMEOUT)
                .followRedirects(HttpClient.Redirect.NEVER)
                .version(HttpClient.Version.HTTP_1_1);
        tls.httpClient().ifPresent(builder::sslContext);
        return builder.build();
    }

    /**
     * Sends {@code request} (with {@code body}) to {@code owner} ({@code scheme://host:port}) and returns the owner's
     * answer as a response of this server.
     *
     * @throws java.net.ConnectException the owner is not reachable (nothing was sent)
     * @throws javax.net.ssl.SSLException the TLS handshake failed: the owner's certificate is not trusted, or it
     *     refused this instance's (nothing was sent)
     * @throws java.net.http.HttpTimeoutException the owner did not answer in time (a write may have been applied)
     * @throws IOException the connection failed (a write may have been applied)
     */
    public MutableHttpResponse<byte[]> forward(HttpRequest<?> request, byte[] body, URI owner)
            throws IOException, InterruptedException {
        return forward(request, body, owner, Map.of(), Set.of());
    }

    /**
     * As {@link #forward(HttpRequest, byte[], URI)}, with {@code set} headers replacing the caller's of the same name
     * and the {@code dropped} ones (lower case) copied in neither direction.
     */
    public MutableHttpResponse<byte[]> forward(
            HttpRequest<?> request, byte[] body, URI owner, Map<String, String> set, Set<String> dropped)
            throws IOException, InterruptedException {
        URI target = target(owner, request.getUri());
        java.net.http.HttpRequest.Builder out = java.net.http.HttpRequest.newBuilder(target)
                .timeout(timeout)
                .method(
                        request.getMethodName(),
                        body.length == 0
                                ? java.net.http.HttpRequest.BodyPublishers.noBody()
                                : java.net.http.HttpRequest.BodyPublishers.ofByteArray(body));
        for (Map.Entry<String, List<String>> header : request.getHeaders()) {
            if (copied(header.getKey(), dropped)) {
                header.getValue().forEach(value -> out.header(header.getKey(), value));
            }
        }
        set.forEach(out::setHeader);
        out.setHeader(RoutingHeaders.FORWARDED_BY, instanceId);
        HttpResponse<byte[]> answer = client.send(out.build(), HttpResponse.BodyHandlers.ofByteArray());
        MutableHttpResponse<byte[]> relayed =
                io.micronaut.http.HttpResponse.status(HttpStatus.valueOf(answer.statusCode()));
        answer.headers().map().forEach((name, values) -> {
            if (copied(name, dropped) && !name.startsWith(":")) {
                values.forEach(value -> relayed.getHeaders().add(name, value));
            }
        });
        byte[] bytes = answer.body();
        return bytes == null || bytes.length == 0 ? relayed : relayed.body(bytes);
    }

    private static boolean copied(String header, Set<String> dropped) {
        return RoutingHeaders.crossesHop(header) && !dropped.contains(header.toLowerCase(Locale.ROOT));
    }

    /**
     * The whole body of a request this server answers (empty for none), read within {@code limit}.
     *
     * @throws ApiException INVALID_ARGUMENT when it cannot be read
     */
    public static byte[] body(HttpRequest<?> request, Duration limit) throws InterruptedException {
        if (!(request instanceof ServerHttpRequest<?> server)
                || server.byteBody().expectedLength().orElse(-1) == 0) {
            return new byte[0];
        }
        try (CloseableAvailableByteBody bytes =
                server.byteBody().buffer().get(limit.toMillis(), TimeUnit.MILLISECONDS)) {
            return bytes.toByteArray();
        } catch (ExecutionException | TimeoutException e) {
            throw ApiException.invalid("cannot read the request body: " + e.getMessage());
        }
    }

    /**
     * Logs a failed TLS handshake with another instance, once per failure, at WARN: a configuration problem (its
     * certificate not signed by a CA of {@code memory.tls.trust}, not naming its advertised host, or this instance's
     * certificate refused by it), not a rebalance.
     */
    static void logTlsFailure(URI peer, javax.net.ssl.SSLException e) {
        log.warn(
                "TLS handshake with the instance at {} failed: {} (is its certificate signed by a CA in memory.tls.trust "
                        + "and issued for its advertised host, and does it trust this instance's certificate?)",
                peer,
                e.getMessage());
    }

    /** The base URL of another instance's advertised endpoint, in this instance's scheme. */
    static URI baseUrl(URI self, io.memorychain.projector.view.SpaceOwner.Endpoint endpoint) {
        String host = endpoint.host().contains(":") && !endpoint.host().startsWith("[")
                ? "[" + endpoint.host() + "]"
                : endpoint.host();
        return URI.create(self.getScheme() + "://" + host + ":" + endpoint.port());
    }

    /** The owner's base URL with this request's raw path and query (no re-encoding). */
    static URI target(URI owner, URI requestUri) {
        String query = requestUri.getRawQuery();
        return URI.create(owner.getScheme() + "://" + owner.getRawAuthority() + requestUri.getRawPath()
                + (query == null ? "" : "?" + query));
    }
}
