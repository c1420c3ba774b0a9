package io.memorychain.events.chain;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.Map;
import java.util.Optional;
import org.bouncycastle.crypto.params.Ed25519PublicKeyParameters;
import org.bouncycastle.crypto.signers.Ed25519Signer;

/** Public keys by key id: all a verifier needs to check signatures. Immutable and thread-safe. */
public final class KeyRing {

    private final Map<String, Ed25519PublicKeyParameters> keys;

    private KeyRing(Map<String, Ed25519PublicKeyParameters> keys) {
        this.keys = Map.copyOf(keys);
    }

    public static KeyRing of(byte[]... rawPublicKeys) {
        Map<String, Ed25519PublicKeyParameters> keys = new HashMap<>();
        for (byte[] raw : rawPublicKeys) {
            keys.put(ChainKeys.keyIdOf(raw), new Ed25519PublicKeyParameters(raw, 0));
        }
        return new KeyRing(keys);
    }

    /** Reads lines of {@code <key id> <hex public key>} (the format of the {@code .pub} file next to a signing key). */
    public static KeyRing read(Path file) {
        try {
            return of(Files.readAllLines(file).stream()
                    .map(String::trim)
                    .filter(l -> !l.isEmpty() && !l.startsWith("#"))
                    .map(l -> HexFormat.of().parseHex(l.substring(l.lastIndexOf(' ') + 1)))
                    .toArray(byte[][]::new));
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read public keys from " + file, e);
        }
    }

    public boolean contains(String keyId) {
        return keys.containsKey(keyId);
    }

    public Optional<byte[]> publicKey(String keyId) {
        return Optional.ofNullable(keys.get(keyId)).map(Ed25519PublicKeyParameters::getEncoded);
    }

    /** true when the key is known and the signature over the message is valid. */
    public boolean verify(String keyId, byte[] message, byte[] signature) {
        Ed25519PublicKeyParameters key = keys.get(keyId);
        if (key == null || signature.length != Ed25519PublicKeyParameters.KEY_SIZE * 2) {
            return false;
        }
        Ed25519Signer verifier = new Ed25519Signer();
        verifier.init(false, key);
        verifier.update(message, 0, message.length);
        return verifier.verifySignature(signature);
    }

    public Map<String, String> asHex() {
        Map<String, String> out = new HashMap<>();
        keys.forEach((id, key) -> out.put(id, HexFormat.of().formatHex(key.getEncoded())));
        return out;
    }
}
