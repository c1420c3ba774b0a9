package io.memorychain.api.auth;

import java.time.Instant;
import java.util.Objects;

/**
 * A stored key: the hash of its secret and the principal it authenticates.
 *
 * @param keyId the public part of the key
 * @param secretHash SHA-256 of the secret, hex
 * @param principal who the key authenticates
 * @param createdAt when it was issued
 * @param createdBy the principal id that issued it ({@code bootstrap} for the first keys)
 * @param revoked true once revoked: the key no longer authenticates
 */
public record ApiKeyRecord(
        String keyId, String secretHash, Principal principal, Instant createdAt, String createdBy, boolean revoked) {

    public ApiKeyRecord {
        Objects.requireNonNull(keyId, "keyId");
        Objects.requireNonNull(secretHash, "secretHash");
        Objects.requireNonNull(principal, "principal");
        Objects.requireNonNull(createdAt, "createdAt");
        Objects.requireNonNull(createdBy, "createdBy");
    }

    public ApiKeyRecord revoke() {
        return new ApiKeyRecord(keyId, secretHash, principal, createdAt, createdBy, true);
    }
}
