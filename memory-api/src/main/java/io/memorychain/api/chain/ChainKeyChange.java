package io.memorychain.api.chain;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.serde.annotation.Serdeable;
import io.swagger.v3.oas.annotations.media.Schema;

/**
 * The answer of a key rotation or a compromise mark (docs/architecture.md §4): the event the sequencer appended to the
 * space's chain, at which seq, and the key it names (the new signing key, or the key marked compromised).
 */
@Serdeable
@Schema(name = "ChainKeyChange")
public record ChainKeyChange(
        @Schema(description = "The space whose chain changed")
        String space,

        @Schema(description = "Chain position of the key event")
        long seq,

        @Schema(description = "SigningKeyRotated or SigningKeyCompromised")
        String event,

        @Schema(
                name = "key_id",
                description = "The key the space signs with from the next event on (rotation), "
                        + "or the key marked compromised")
        @JsonProperty("key_id")
        String keyId,

        @Nullable
        @Schema(
                name = "trusted_up_to",
                description = "Compromise mark: the key's events on this chain " + "after this seq are suspect")
        @JsonProperty("trusted_up_to")
        Long trustedUpTo) {

    public static final String ROTATED = "SigningKeyRotated";
    public static final String COMPROMISED = "SigningKeyCompromised";
}
