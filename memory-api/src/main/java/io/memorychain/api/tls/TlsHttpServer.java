package io.memorychain.api.tls;

import io.micronaut.context.annotation.Primary;
import io.micronaut.context.annotation.Replaces;
import io.micronaut.context.annotation.Requires;
import io.micronaut.context.env.Environment;
import io.micronaut.http.server.HttpServerConfiguration;
import io.micronaut.http.server.netty.ssl.CertificateProvidedSslBuilder;
import io.micronaut.http.server.netty.ssl.ServerSslBuilder;
import io.micronaut.http.ssl.ClientAuthentication;
import io.micronaut.http.ssl.ServerSslConfiguration;
import io.netty.handler.ssl.SslContext;
import jakarta.inject.Singleton;
import java.util.Optional;

/**
 * TLS on the HTTP listener with {@code memory.tls.*} ({@link TlsContexts}), in place of Micronaut's own
 * {@code micronaut.server.ssl} key material: the server then listens with TLS only, on {@code micronaut.server.port}
 * (no plaintext listener, no silent fallback), and its URLs are https. Primary, so that it also wins over a
 * {@code micronaut.server.ssl.build-self-signed} builder.
 */
@Singleton
@Primary
@Requires(property = "memory.tls.enabled", value = "true")
@Replaces(CertificateProvidedSslBuilder.class)
class TlsHttpServer implements ServerSslBuilder {

    private final TlsContexts contexts;
    private final ServerSslConfiguration ssl;

    public TlsHttpServer(TlsContexts contexts, HttpServerConfiguration server, Environment environment) {
        this.contexts = contexts;
        // the TLS listener takes the HTTP port (a test environment's default: a random port, as for plain HTTP)
        this.ssl = new OnHttpPort(server.getPort()
                .orElse(
                        environment.getActiveNames().contains(Environment.TEST)
                                ? -1
                                : HttpServerConfiguration.DEFAULT_PORT));
        ssl.setEnabled(true);
        switch (contexts.clientAuth()) {
            case WANT -> ssl.setClientAuthentication(ClientAuthentication.WANT);
            case NEED -> ssl.setClientAuthentication(ClientAuthentication.NEED);
            case NONE -> {}
        }
    }

    /** The SSL settings of the one listener, on the HTTP port ({@code micronaut.server.ssl.port} is not used). */
    private static final class OnHttpPort extends ServerSslConfiguration {
        OnHttpPort(int port) {
            this.port = port;
        }
    }

    @Override
    public ServerSslConfiguration getSslConfiguration() {
        return ssl;
    }

    @Override
    public Optional<SslContext> build() {
        return Optional.of(contexts.httpServer());
    }
}
