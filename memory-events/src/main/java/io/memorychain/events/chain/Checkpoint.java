package io.memorychain.events.chain;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.HexFormat;
import java.util.Objects;

/**
 * A signed checkpoint: "the chain of {@code space} at {@code seq} has the head hash {@code hash}", signed with a chain
 * key, so two readers can fetch and compare them and anyone can check one against an export (docs/chain-format.md,
 * docs/architecture.md §4). The signature is Ed25519 over {@link #message}: the UTF-8 bytes of
 * {@code "memorychain-checkpoint-v1\n" + space + "\n" + seq + "\n" + hex(hash)} (seq in decimal, hash in lower-case
 * hex). {@code signedAt} is not signed: two checkpoints of the same head are byte-for-byte equal but for it.
 *
 * @param hash the event hash at {@code seq}, lower-case hex
 * @param signature the Ed25519 signature of {@link #message}, lower-case hex
 */
public record Checkpoint(String space, long seq, String hash, String keyId, String signature, Instant signedAt) {

    public static final String PREFIX = "memorychain-checkpoint-v1";

    public Checkpoint {
        Objects.requireNonNull(space, "space");
        Objects.requireNonNull(hash, "hash");
        Objects.requireNonNull(keyId, "keyId");
        Objects.requireNonNull(signature, "signature");
    }

    /** The bytes a checkpoint signature covers. */
    public static byte[] message(String space, long seq, String hashHex) {
        return (PREFIX + "\n" + space + "\n" + seq + "\n" + hashHex.toLowerCase(java.util.Locale.ROOT))
                .getBytes(StandardCharsets.UTF_8);
    }

    /** Signs the head {@code (seq, hash)} of {@code space}'s chain. */
    public static Checkpoint sign(ChainKeys keys, String space, long seq, byte[] hash, Instant signedAt) {
        String hex = HexFormat.of().formatHex(hash);
        return new Checkpoint(
                space, seq, hex, keys.keyId(), HexFormat.of().formatHex(keys.sign(message(space, seq, hex))), signedAt);
    }

    /** Whether the signature is valid under the key named by {@code keyId} in {@code keys}. */
    public boolean verifies(KeyRing keys) {
        byte[] sig;
        try {
            sig = HexFormat.of().parseHex(signature);
        } catch (IllegalArgumentException e) {
            return false;
        }
        return keys.verify(keyId, message(space, seq, hash), sig);
    }
}
