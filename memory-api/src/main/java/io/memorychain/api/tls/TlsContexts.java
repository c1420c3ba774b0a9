package io.memorychain.api.tls;

import io.grpc.netty.GrpcSslContexts;
import io.micronaut.context.annotation.Context;
import io.netty.handler.ssl.ClientAuth;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.X509Certificate;
import java.util.List;
import java.util.Optional;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLException;
import javax.net.ssl.TrustManagerFactory;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The TLS contexts of this instance from {@code memory.tls.*}, loaded and checked once with the application context
 * (fail fast: a missing file, a wrong password or a key that does not match its certificate stops start-up with one
 * {@link TlsConfigException} line naming the key and the file). The HTTP and gRPC listeners serve with the identity
 * (and ask for client certificates per {@code client-auth}); forwarding to another instance trusts {@code trust} (the
 * JDK's trusted CAs without it) and presents the same identity as its client certificate.
 */
@Context
public class TlsContexts {

    private static final Logger log = LoggerFactory.getLogger(TlsContexts.class);
    private static final char[] IN_MEMORY = "memory-chain".toCharArray();

    private final TlsConfig.ClientAuth clientAuth;
    private final KeyManagerFactory keys;
    private final TrustManagerFactory trust;
    private final boolean enabled;

    public TlsContexts(TlsConfig config) {
        this.enabled = config.isEnabled();
        this.clientAuth = config.getClientAuth();
        Managers managers = enabled ? load(config) : new Managers(null, null);
        this.keys = managers.keys();
        this.trust = managers.trust();
    }

    private record Managers(KeyManagerFactory keys, TrustManagerFactory trust) {}

    /** The key and trust managers of {@code memory.tls.*}; a bad configuration is logged in one line and thrown. */
    private static Managers load(TlsConfig config) {
        try {
            TlsConfig.ClientAuth clientAuth = config.getClientAuth();
            TlsMaterial.Identity identity = identity(config);
            List<X509Certificate> trusted = config.getTrust()
                    .map(file -> TlsMaterial.trusted("memory.tls.trust", file, password(config.getTrustPassword())))
                    .orElse(null);
            if (trusted == null && clientAuth != TlsConfig.ClientAuth.NONE) {
                throw new TlsConfigException("memory.tls.trust: required with memory.tls.client-auth "
                        + clientAuth.name().toLowerCase(java.util.Locale.ROOT) + " (the CA that signs the client "
                        + "certificates)");
            }
            Managers managers;
            try {
                managers = new Managers(keyManagers(identity), trustManagers(trusted));
            } catch (GeneralSecurityException | java.io.IOException e) {
                throw new TlsConfigException("memory.tls: cannot build the TLS context (" + e.getMessage() + ")");
            }
            log.info(
                    "TLS on the HTTP and gRPC listeners as {} (client certificates: {}; peers trusted: {})",
                    identity.chain().get(0).getSubjectX500Principal().getName(),
                    clientAuth.name().toLowerCase(java.util.Locale.ROOT),
                    trusted == null ? "the JDK's CAs" : trusted.size() + " CA certificate(s) of memory.tls.trust");
            return managers;
        } catch (TlsConfigException e) {
            log.error("Memory Chain could not start: {}", e.getMessage());
            throw e;
        }
    }

    /** Whether TLS is on ({@code memory.tls.enabled}). */
    public boolean enabled() {
        return enabled;
    }

    /** The client authentication of both listeners. */
    public TlsConfig.ClientAuth clientAuth() {
        return clientAuth;
    }

    /** The HTTP listener's context (HTTP/1.1). */
    public SslContext httpServer() {
        return server(SslContextBuilder.forServer(requireEnabled().keys));
    }

    /** The gRPC listener's context (HTTP/2 with ALPN). */
    public SslContext grpcServer() {
        return server(GrpcSslContexts.configure(SslContextBuilder.forServer(requireEnabled().keys)));
    }

    /** The context of gRPC calls relayed to another instance: its certificate verified, this one presented. */
    public SslContext grpcClient() {
        try {
            return GrpcSslContexts.forClient()
                    .keyManager(requireEnabled().keys)
                    .trustManager(trust)
                    .build();
        } catch (SSLException e) {
            throw new TlsConfigException("memory.tls: cannot build the gRPC client context (" + e.getMessage() + ")");
        }
    }

    /** The context of HTTP calls forwarded to another instance, or empty when TLS is off. */
    public Optional<SSLContext> httpClient() {
        if (!enabled) {
            return Optional.empty();
        }
        try {
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(keys.getKeyManagers(), trust.getTrustManagers(), null);
            return Optional.of(context);
        } catch (GeneralSecurityException e) {
            throw new TlsConfigException("memory.tls: cannot build the HTTP client context (" + e.getMessage() + ")");
        }
    }

    private SslContext server(SslContextBuilder builder) {
        builder.trustManager(trust)
                .clientAuth(
                        switch (clientAuth) {
                            case NONE -> ClientAuth.NONE;
                            case WANT -> ClientAuth.OPTIONAL;
                            case NEED -> ClientAuth.REQUIRE;
                        });
        try {
            return builder.build();
        } catch (SSLException e) {
            throw new TlsConfigException("memory.tls: cannot build the server context (" + e.getMessage() + ")");
        }
    }

    private TlsContexts requireEnabled() {
        if (!enabled) {
            throw new IllegalStateException("memory.tls.enabled is false");
        }
        return this;
    }

    private static TlsMaterial.Identity identity(TlsConfig config) {
        Optional<Path> cert = config.getCert();
        Optional<Path> key = config.getKey();
        Optional<Path> store = config.getKeystore();
        if (store.isPresent() && (cert.isPresent() || key.isPresent())) {
            throw new TlsConfigException("memory.tls: set either memory.tls.keystore (PKCS#12) or memory.tls.cert and "
                    + "memory.tls.key (PEM), not both");
        }
        if (store.isPresent()) {
            return TlsMaterial.fromPkcs12("memory.tls.keystore", store.get(), password(config.getKeystorePassword()));
        }
        if (cert.isEmpty() || key.isEmpty()) {
            throw new TlsConfigException("memory.tls.enabled is true but "
                    + (cert.isEmpty() && key.isEmpty()
                            ? "neither memory.tls.cert and memory.tls.key (PEM) nor memory.tls.keystore (PKCS#12) is set"
                            : (cert.isEmpty() ? "memory.tls.cert" : "memory.tls.key")
                                    + " is not set (PEM needs both)"));
        }
        return TlsMaterial.fromPem("memory.tls.cert", cert.get(), "memory.tls.key", key.get());
    }

    private static char[] password(Optional<String> password) {
        return password.map(String::toCharArray).orElse(new char[0]);
    }

    private static KeyManagerFactory keyManagers(TlsMaterial.Identity identity)
            throws GeneralSecurityException, java.io.IOException {
        KeyStore store = KeyStore.getInstance("PKCS12");
        store.load(null, null);
        store.setKeyEntry(
                "identity", identity.key(), IN_MEMORY, identity.chain().toArray(new java.security.cert.Certificate[0]));
        KeyManagerFactory factory = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        factory.init(store, IN_MEMORY);
        return factory;
    }

    private static TrustManagerFactory trustManagers(List<X509Certificate> trusted)
            throws GeneralSecurityException, java.io.IOException {
        TrustManagerFactory factory = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        if (trusted == null) {
            factory.init((KeyStore) null);
            return factory;
        }
        KeyStore store = KeyStore.getInstance("PKCS12");
        store.load(null, null);
        for (int i = 0; i < trusted.size(); i++) {
            store.setCertificateEntry("ca-" + i, trusted.get(i));
        }
        factory.init(store);
        return factory;
    }
}
