package io.memorychain.api.auth;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.HexFormat;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * An API key as callers send it: {@code mc_<key id>_<secret>}. The key id (12 hex characters) finds the key's record;
 * only the SHA-256 of the secret (32 random bytes, base64url) is ever stored, so a leaked key store leaks no key.
 */
public record ApiKey(String keyId, String secret) {

    private static final Pattern FORMAT = Pattern.compile("mc_([0-9a-f]{12})_([A-Za-z0-9_-]{43})");
    private static final SecureRandom RANDOM = new SecureRandom();

    public static ApiKey generate() {
        byte[] id = new byte[6];
        byte[] secret = new byte[32];
        RANDOM.nextBytes(id);
        RANDOM.nextBytes(secret);
        return new ApiKey(
                HexFormat.of().formatHex(id),
                Base64.getUrlEncoder().withoutPadding().encodeToString(secret));
    }

    /** The key in a bearer token, or empty when it is not shaped like one. */
    public static Optional<ApiKey> parse(String token) {
        Matcher m = FORMAT.matcher(token == null ? "" : token.trim());
        return m.matches() ? Optional.of(new ApiKey(m.group(1), m.group(2))) : Optional.empty();
    }

    public String secretHash() {
        return sha256(secret);
    }

    /** True when this key's secret has the stored hash (compared in constant time). */
    public boolean matches(String storedHash) {
        return MessageDigest.isEqual(
                secretHash().getBytes(StandardCharsets.US_ASCII), storedHash.getBytes(StandardCharsets.US_ASCII));
    }

    @Override
    public String toString() {
        return "mc_" + keyId + "_" + secret;
    }

    private static String sha256(String text) {
        try {
            return HexFormat.of()
                    .formatHex(MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JVM", e);
        }
    }
}
