package io.memorychain.api.backend;

import io.memorychain.events.chain.ChainKeys;
import io.memorychain.events.chain.Checkpoint;
import io.memorychain.events.chain.KeyRing;
import io.memorychain.events.chain.PublicKeyInfo;
import io.memorychain.events.chain.SigningKeys;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The chain's signing keys as files under {@code <data-dir>/keys}: the default key ({@code chain-signing.key}, created
 * at first start) and the keys spaces rotated to, with the public keys published beside them in
 * {@code public-keys.json}. Made by {@link SigningKeysFactory}.
 */
final class SigningKeyFiles implements ChainSigning {

    private final ChainKeys keys;
    private final SigningKeys signingKeys;
    private final List<PublicKeyInfo> defaultKey;

    private SigningKeyFiles(ChainKeys keys, SigningKeys signingKeys, List<PublicKeyInfo> defaultKey) {
        this.keys = keys;
        this.signingKeys = signingKeys;
        this.defaultKey = defaultKey;
    }

    /** Loads (or at first start creates) the keys of {@code keyFile}'s directory and writes public-keys.json. */
    static SigningKeyFiles load(Path keyFile) {
        ChainKeys keys = ChainKeys.loadOrCreate(keyFile);
        SigningKeys signingKeys = SigningKeys.inDirectory(keys, keyFile.getParent());
        List<PublicKeyInfo> published = List.of(PublicKeyInfo.of(keys, createdAt(keyFile), true));
        PublicKeyInfo.write(keyFile.resolveSibling("public-keys.json"), published);
        return new SigningKeyFiles(keys, signingKeys, published);
    }

    /** The default key: it signs every space that never rotated, and the checkpoints. */
    ChainKeys keys() {
        return keys;
    }

    @Override
    public KeyRing publicKeys() {
        return signingKeys.publicRing();
    }

    @Override
    public Optional<SigningKeys> signingKeys() {
        return Optional.of(signingKeys);
    }

    /** The default key (active: it signs every space that never rotated), then the keys spaces rotated to. */
    @Override
    public List<PublicKeyInfo> publishedKeys() {
        List<PublicKeyInfo> all = new ArrayList<>(defaultKey);
        for (ChainKeys key : signingKeys.all()) {
            if (!key.keyId().equals(keys.keyId())) {
                all.add(PublicKeyInfo.of(key, createdAt(signingKeys.fileOf(key.keyId())), false));
            }
        }
        return all;
    }

    @Override
    public Checkpoint signCheckpoint(String space, long seq, byte[] hash) {
        return Checkpoint.sign(keys, space, seq, hash, Instant.now());
    }

    /** When a signing key was created: its file is written once and never rewritten (docs/chain-format.md §5). */
    private static Instant createdAt(Path keyFile) {
        try {
            return Files.getLastModifiedTime(keyFile).toInstant().truncatedTo(ChronoUnit.SECONDS);
        } catch (IOException e) {
            return null;
        }
    }
}
