package io.memorychain.api.backend;

import io.memorychain.events.chain.Checkpoint;
import io.memorychain.events.chain.KeyRing;
import io.memorychain.events.chain.PublicKeyInfo;
import java.util.List;

/**
 * The chain's keys as a feature needs them: the public keys that verify it, the signing keys this service holds, and
 * the signing of checkpoints. A port of the running chain ({@link MemoryBackend}); a feature asks for the narrowest it
 * needs.
 */
public interface ChainSigning {

    /** Public keys that verify the chain's signatures. */
    KeyRing publicKeys();

    /**
     * The chain signing keys this service holds (docs/architecture.md §4, key rotation): the default key and the keys
     * spaces rotated to; empty when the service signs nothing itself.
     */
    default java.util.Optional<io.memorychain.events.chain.SigningKeys> signingKeys() {
        return java.util.Optional.empty();
    }

    /** The chain public keys as published ({@code GET /v1/chain/keys}, {@code data/keys/public-keys.json}). */
    List<PublicKeyInfo> publishedKeys();

    /** Signs a checkpoint of a verified head with this service's chain key (docs/chain-format.md §8). */
    Checkpoint signCheckpoint(String space, long seq, byte[] hash);
}
