package io.memorychain.events.chain;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.HexFormat;
import org.bouncycastle.crypto.params.Ed25519PrivateKeyParameters;
import org.bouncycastle.crypto.params.Ed25519PublicKeyParameters;
import org.bouncycastle.crypto.signers.Ed25519Signer;

/**
 * The sequencer's Ed25519 signing key (BouncyCastle lightweight API: ~15x faster than the JDK's here). The key id is
 * the first 16 hex digits of SHA-256 of the raw public key. Not thread-safe for signing from several threads at once:
 * each stream thread owns one signer via {@link #sign(byte[])} which creates a signer per call.
 */
public final class ChainKeys {

    private final Ed25519PrivateKeyParameters privateKey;
    private final Ed25519PublicKeyParameters publicKey;
    private final String keyId;

    private ChainKeys(Ed25519PrivateKeyParameters privateKey) {
        this.privateKey = privateKey;
        this.publicKey = privateKey.generatePublicKey();
        this.keyId = keyIdOf(publicKey.getEncoded());
    }

    public static ChainKeys generate() {
        return new ChainKeys(new Ed25519PrivateKeyParameters(new SecureRandom()));
    }

    public static ChainKeys fromPrivateKey(byte[] raw32) {
        return new ChainKeys(new Ed25519PrivateKeyParameters(raw32, 0));
    }

    /**
     * Loads the hex-encoded private key from the file, or generates one and writes it (owner read/write only) together
     * with {@code <file>.pub} holding the public key, so verifiers need no secret.
     */
    public static ChainKeys loadOrCreate(Path file) {
        try {
            if (Files.exists(file)) {
                return fromPrivateKey(
                        HexFormat.of().parseHex(Files.readString(file).trim()));
            }
            Files.createDirectories(file.toAbsolutePath().getParent());
            ChainKeys keys = generate();
            Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
            Files.writeString(tmp, HexFormat.of().formatHex(keys.privateKey.getEncoded()));
            try {
                Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString("rw-------"));
            } catch (UnsupportedOperationException ignored) {
                // not a POSIX file system: keep the platform default
            }
            Files.move(tmp, file, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
            Files.writeString(
                    file.resolveSibling(file.getFileName() + ".pub"),
                    keys.keyId + " " + HexFormat.of().formatHex(keys.publicKeyBytes()) + "\n");
            return keys;
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot load or create the chain signing key at " + file, e);
        }
    }

    public static String keyIdOf(byte[] rawPublicKey) {
        return HexFormat.of().formatHex(Canonical.sha256(rawPublicKey), 0, 8);
    }

    public String keyId() {
        return keyId;
    }

    public byte[] publicKeyBytes() {
        return publicKey.getEncoded();
    }

    public byte[] sign(byte[] message) {
        Ed25519Signer signer = new Ed25519Signer();
        signer.init(true, privateKey);
        signer.update(message, 0, message.length);
        return signer.generateSignature();
    }

    /** A key ring holding only this key's public half. */
    public KeyRing publicRing() {
        return KeyRing.of(publicKeyBytes());
    }
}
