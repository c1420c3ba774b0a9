package io.memorychain.api.backend;

import jakarta.inject.Singleton;
import java.nio.file.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Loads the chain's signing keys from {@code <data-dir>/keys}, creating the default key at first start. */
@Singleton
class SigningKeysFactory {

    private static final Logger log = LoggerFactory.getLogger(SigningKeysFactory.class);

    SigningKeyFiles load(Path dataDir) {
        Path keys = dataDir.resolve("keys");
        SigningKeyFiles files = SigningKeyFiles.load(keys.resolve("chain-signing.key"));
        log.info(
                "Chain signing key {} ({}, public keys in public-keys.json)",
                files.keys().keyId(),
                keys);
        return files;
    }
}
