package io.memorychain.api.chain;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.memorychain.events.chain.Checkpoint;
import io.micronaut.serde.annotation.Serdeable;
import io.swagger.v3.oas.annotations.media.Schema;

/**
 * A signed checkpoint (docs/chain-format.md §8): Ed25519 by {@code key_id} over the UTF-8 bytes of
 * {@code "memorychain-checkpoint-v1\n" + space + "\n" + seq + "\n" + hash}; {@code signed_at} is not signed.
 */
@Serdeable
@Schema(name = "ChainCheckpoint")
public record CheckpointJson(
        String space,
        long seq,
        String hash,
        @Schema(name = "key_id") @JsonProperty("key_id") String keyId,
        String signature,

        @Schema(name = "signed_at") @JsonProperty("signed_at")
        String signedAt) {

    static CheckpointJson of(Checkpoint c) {
        return new CheckpointJson(
                c.space(),
                c.seq(),
                c.hash(),
                c.keyId(),
                c.signature(),
                c.signedAt().toString());
    }
}
