package io.memorychain.api.chain;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.memorychain.events.chain.PublicKeyInfo;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.serde.annotation.Serdeable;
import io.swagger.v3.oas.annotations.media.Schema;
import java.util.List;

/** The chain public keys, as in {@code data/keys/public-keys.json} (docs/chain-format.md §5). */
@Serdeable
@Schema(name = "ChainPublicKeys")
public record PublicKeysJson(List<Key> keys) {

    /**
     * One key: the raw 32-byte Ed25519 public key in hex and base64, its id, when created, whether it signs new events
     * of spaces that never rotated ({@code active}), its status by the chain's key events (docs/architecture.md §4):
     * {@code active} (the default key, or the key a space rotated to), {@code retired} (no space signs with it any
     * more) or {@code compromised}, the spaces that rotated to it, and the compromise marks that name it.
     */
    @Serdeable
    @Schema(name = "ChainPublicKey")
    public record Key(
            @Schema(name = "key_id") @JsonProperty("key_id") String keyId,
            String algorithm,

            @Schema(name = "public_key_hex") @JsonProperty("public_key_hex")
            String publicKeyHex,

            @Schema(name = "public_key_base64") @JsonProperty("public_key_base64")
            String publicKeyBase64,

            @Nullable @Schema(name = "created_at") @JsonProperty("created_at")
            String createdAt,

            boolean active,
            String status,
            List<String> spaces,
            List<Compromise> compromised) {

        static Key of(PublicKeyInfo k) {
            return new Key(
                    k.keyId(),
                    k.algorithm(),
                    k.publicKeyHex(),
                    k.publicKeyBase64(),
                    k.createdAt() == null ? null : k.createdAt().toString(),
                    k.active(),
                    k.active() ? "active" : "retired",
                    List.of(),
                    List.of());
        }

        Key withStatus(String status, List<String> spaces, List<Compromise> compromised) {
            return new Key(
                    keyId, algorithm, publicKeyHex, publicKeyBase64, createdAt, active, status, spaces, compromised);
        }
    }

    /**
     * A compromise mark: on the chain of {@code space}, at {@code marked_at_seq}, the key's events after
     * {@code trusted_up_to} are suspect.
     */
    @Serdeable
    @Schema(name = "ChainKeyCompromise")
    public record Compromise(
            String space,

            @Schema(name = "trusted_up_to") @JsonProperty("trusted_up_to")
            long trustedUpTo,

            @Schema(name = "marked_at_seq") @JsonProperty("marked_at_seq")
            long markedAtSeq) {}
}
