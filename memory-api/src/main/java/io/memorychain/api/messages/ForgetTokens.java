package io.memorychain.api.messages;

import io.memorychain.api.error.ApiException;
import io.memorychain.api.error.ErrorCodes;
import io.memorychain.avro.Actor;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Forget confirmation tokens (docs/architecture.md §20): {@code base64url(payload).base64url(HMAC-SHA256(secret,
 * payload))}, the payload binding the space, the caller (actor type and id), the expiry and the exact memory ids, so a
 * token cannot be forged, widened to other memories, or used by another caller or in another space.
 */
final class ForgetTokens {

    private static final String VERSION = "mc-forget-1";
    private static final Base64.Encoder B64 = Base64.getUrlEncoder().withoutPadding();
    private static final Base64.Decoder B64D = Base64.getUrlDecoder();
    private static final int MIN_SECRET = 32;

    /** What a valid token confirms. */
    public record Confirmed(String space, String actor, Instant expiresAt, List<String> memoryIds) {}

    private final byte[] secret;
    private final Duration ttl;

    /** @param secret the HMAC secret (null: 32 random bytes, valid in this process only) */
    public ForgetTokens(String secret, Duration ttl) {
        if (secret != null && secret.length() < MIN_SECRET) {
            throw new IllegalArgumentException(
                    "memory.messages.confirmation-secret must be at least " + MIN_SECRET + " characters");
        }
        if (secret == null) {
            this.secret = new byte[32];
            new SecureRandom().nextBytes(this.secret);
        } else {
            this.secret = secret.getBytes(StandardCharsets.UTF_8);
        }
        this.ttl = ttl;
    }

    public Duration ttl() {
        return ttl;
    }

    public String issue(String space, Actor caller, List<String> memoryIds, Instant now) {
        String payload = String.join(
                "\n",
                VERSION,
                space,
                actor(caller),
                Long.toString(now.plus(ttl).getEpochSecond()),
                String.join(",", memoryIds));
        byte[] bytes = payload.getBytes(StandardCharsets.UTF_8);
        return B64.encodeToString(bytes) + "." + B64.encodeToString(mac(bytes));
    }

    /**
     * The ids a token confirms for this caller in this space.
     *
     * @throws ApiException 400 INVALID_CONFIRMATION (malformed, not signed by this service, expired), 403
     *     CONFIRMATION_NOT_YOURS (issued to another caller or for another space)
     */
    public Confirmed verify(String token, String space, Actor caller, Instant now) {
        if (token == null || token.isBlank()) {
            throw new ApiException(
                    ErrorCodes.INVALID_CONFIRMATION,
                    "token is required: the confirmation.token of the " + "forget answer");
        }
        int dot = token.indexOf('.');
        byte[] payload;
        byte[] signature;
        try {
            payload = B64D.decode(token.substring(0, Math.max(dot, 0)));
            signature = B64D.decode(token.substring(dot + 1));
        } catch (IllegalArgumentException e) {
            throw invalid("malformed");
        }
        if (dot <= 0 || !MessageDigest.isEqual(mac(payload), signature)) {
            throw invalid("not issued by this service (or issued before a restart without "
                    + "memory.messages.confirmation-secret)");
        }
        String[] parts = new String(payload, StandardCharsets.UTF_8).split("\n", -1);
        if (parts.length != 5 || !parts[0].equals(VERSION)) {
            throw invalid("unknown token version");
        }
        if (!parts[1].equals(space) || !parts[2].equals(actor(caller))) {
            throw new ApiException(
                    ErrorCodes.CONFIRMATION_NOT_YOURS,
                    "this confirmation was issued to another caller " + "or for another space");
        }
        Instant expires = Instant.ofEpochSecond(Long.parseLong(parts[3]));
        if (!now.isBefore(expires)) {
            throw invalid("expired at " + expires + ": send the forget message again");
        }
        List<String> ids = parts[4].isEmpty() ? List.of() : Arrays.asList(parts[4].split(","));
        return new Confirmed(parts[1], parts[2], expires, List.copyOf(ids));
    }

    private static ApiException invalid(String why) {
        return new ApiException(ErrorCodes.INVALID_CONFIRMATION, "invalid forget confirmation token: " + why);
    }

    private static String actor(Actor a) {
        return a.getType().name().toLowerCase(java.util.Locale.ROOT) + ":" + a.getId();
    }

    private byte[] mac(byte[] payload) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(secret, "HmacSHA256"));
            return mac.doFinal(payload);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is not available", e);
        }
    }
}
