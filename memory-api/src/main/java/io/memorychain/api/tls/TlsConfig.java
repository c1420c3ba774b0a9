package io.memorychain.api.tls;

import io.micronaut.context.annotation.ConfigurationProperties;
import io.micronaut.core.annotation.Nullable;
import java.nio.file.Path;
import java.util.Optional;

/**
 * {@code memory.tls.*}: TLS on the HTTP and gRPC listeners and on forwarding between instances (docs/architecture.md
 * §19). The identity is PEM ({@code cert} + {@code key}) or PKCS#12 ({@code keystore} + {@code keystore-password});
 * {@code trust} (a PEM CA bundle, or a PKCS#12 trust store ending in {@code .p12}/{@code .pfx} with
 * {@code trust-password}) verifies the other instances when forwarding and the client certificates of
 * {@code client-auth} {@code want}/{@code need}. Env {@code MEMORY_TLS_ENABLED}, {@code MEMORY_TLS_CERT}, ...
 */
@ConfigurationProperties("memory.tls")
class TlsConfig {

    /** Whether client certificates are asked for on both listeners (mutual TLS between instances). */
    public enum ClientAuth {
        /** Not asked for. */
        NONE,
        /** Asked for and verified when sent; a client without one is served. */
        WANT,
        /** Required: a client without a certificate signed by {@code trust} fails the handshake. */
        NEED
    }

    private boolean enabled;

    @Nullable
    private Path cert;

    @Nullable
    private Path key;

    @Nullable
    private Path keystore;

    @Nullable
    private String keystorePassword;

    @Nullable
    private Path trust;

    @Nullable
    private String trustPassword;

    private ClientAuth clientAuth = ClientAuth.NONE;

    public boolean isEnabled() {
        return enabled;
    }

    public void setEnabled(boolean enabled) {
        this.enabled = enabled;
    }

    public Optional<Path> getCert() {
        return Optional.ofNullable(cert);
    }

    public void setCert(@Nullable Path cert) {
        this.cert = cert;
    }

    public Optional<Path> getKey() {
        return Optional.ofNullable(key);
    }

    public void setKey(@Nullable Path key) {
        this.key = key;
    }

    public Optional<Path> getKeystore() {
        return Optional.ofNullable(keystore);
    }

    public void setKeystore(@Nullable Path keystore) {
        this.keystore = keystore;
    }

    public Optional<String> getKeystorePassword() {
        return Optional.ofNullable(keystorePassword);
    }

    public void setKeystorePassword(@Nullable String keystorePassword) {
        this.keystorePassword = keystorePassword;
    }

    public Optional<Path> getTrust() {
        return Optional.ofNullable(trust);
    }

    public void setTrust(@Nullable Path trust) {
        this.trust = trust;
    }

    public Optional<String> getTrustPassword() {
        return Optional.ofNullable(trustPassword);
    }

    public void setTrustPassword(@Nullable String trustPassword) {
        this.trustPassword = trustPassword;
    }

    public ClientAuth getClientAuth() {
        return clientAuth;
    }

    public void setClientAuth(ClientAuth clientAuth) {
        this.clientAuth = clientAuth == null ? ClientAuth.NONE : clientAuth;
    }
}
