package io.memorychain.api.auth;

import io.memorychain.api.backend.ChainReads;
import io.memorychain.api.error.ApiException;
import io.memorychain.api.error.ErrorCodes;
import jakarta.inject.Singleton;
import java.util.List;
import java.util.regex.Pattern;

/** Issues, revokes and checks API keys. */
@Singleton
public class ApiKeys {

    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9._@-]{1,128}");
    private static final Pattern SPACE = Pattern.compile("\\*|[A-Za-z0-9._-]{1,128}\\*?");
    private static final String BEARER = "Bearer ";

    /** A key as issued: the only time its secret is visible. */
    public record Issued(ApiKey key, ApiKeyRecord record) {}

    private final ChainReads backend;
    private final ApiKeyStore store;

    public ApiKeys(ChainReads backend, ApiKeyStore store) {
        this.backend = backend;
        this.store = store;
    }

    /**
     * The caller of an {@code Authorization} header value.
     *
     * @throws ApiException UNAUTHENTICATED when the header is absent, not a bearer key, unknown, wrong or revoked
     */
    public Principal authenticate(String authorization) {
        if (authorization == null || authorization.isBlank()) {
            throw unauthenticated("this endpoint needs an API key: send Authorization: Bearer <key>");
        }
        if (!authorization.regionMatches(true, 0, BEARER, 0, BEARER.length())) {
            throw unauthenticated("Authorization must be 'Bearer <key>'");
        }
        ApiKey key = ApiKey.parse(authorization.substring(BEARER.length()))
                .orElseThrow(
                        () -> unauthenticated("malformed API key: expected mc_<12 hex>_<43 base64url characters>"));
        ApiKeyRecord record = store.find(key.keyId()).orElse(null);
        if (record == null || !key.matches(record.secretHash())) {
            throw unauthenticated("unknown API key " + key.keyId());
        }
        if (record.revoked()) {
            throw unauthenticated("API key " + key.keyId() + " was revoked");
        }
        return record.principal();
    }

    /** Issues a new key for a principal. */
    public Issued issue(Principal principal, String issuedBy) {
        validate(principal);
        ApiKey key = ApiKey.generate();
        ApiKeyRecord record = new ApiKeyRecord(
                key.keyId(), key.secretHash(), principal, backend.clock().instant(), issuedBy, false);
        store.save(record);
        return new Issued(key, record);
    }

    /** Revokes a key; revoking it again changes nothing. */
    public ApiKeyRecord revoke(String keyId) {
        ApiKeyRecord record = store.find(keyId).orElseThrow(() -> ApiException.notFound("no API key " + keyId));
        if (!record.revoked()) {
            record = record.revoke();
            store.save(record);
        }
        return record;
    }

    public List<ApiKeyRecord> list() {
        return store.all();
    }

    public boolean none() {
        return store.all().isEmpty();
    }

    private static void validate(Principal p) {
        if (!NAME.matcher(p.id()).matches() || !NAME.matcher(p.agentId()).matches()) {
            throw ApiException.invalid("id and agent_id must be 1 to 128 characters from A-Z a-z 0-9 . _ @ -");
        }
        if (p.spaces().isEmpty()
                || !p.spaces().stream().allMatch(s -> SPACE.matcher(s).matches())) {
            throw ApiException.invalid("spaces must list at least one space name, 'prefix*' or '*'");
        }
    }

    private static ApiException unauthenticated(String message) {
        return new ApiException(ErrorCodes.UNAUTHENTICATED, message);
    }
}
