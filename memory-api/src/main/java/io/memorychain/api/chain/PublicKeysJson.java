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

    /** One key: the raw 32-byte Ed25519 public key in hex and base64, its id, when created, whether it signs now. */
    @Serdeable
    @Schema(name = "ChainPublicKey")
    public record Key(@Schema(name = "key_id") @JsonProperty("key_id") String keyId, String algorithm,
                      @Schema(name = "public_key_hex") @JsonProperty("public_key_hex") String publicKeyHex,
                      @Schema(name = "public_key_base64") @JsonProperty("public_key_base64") String publicKeyBase64,
                      @Nullable @Schema(name = "created_at") @JsonProperty("created_at") String createdAt, boolean active) {

        static Key of(PublicKeyInfo k) {
            return new Key(k.keyId(), k.algorithm(), k.publicKeyHex(), k.publicKeyBase64(), k.createdAt() == null ? null : k.createdAt().toString(),
                    k.active());
        }
    }
}
