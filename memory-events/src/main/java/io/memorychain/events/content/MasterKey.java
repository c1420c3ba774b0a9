package io.memorychain.events.content;

import io.memorychain.events.chain.Canonical;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.HexFormat;

/**
 * The master key that wraps every memory's data key (docs/architecture.md §12, erasure): AES-256, kept in a file like
 * the signing key ({@code <data-dir>/keys/content-master.key}, hex, owner read/write only). Its id is the first 16 hex
 * digits of SHA-256 of the key. Destroying a memory's data key needs no change here: the wrapped key is removed from
 * the key topic; the master key alone decrypts nothing on the chain.
 */
public final class MasterKey {

    /** The file name under the keys directory. */
    public static final String FILE_NAME = "content-master.key";

    private final byte[] key;
    private final String id;

    private MasterKey(byte[] key) {
        if (key.length != ContentCipher.KEY_BYTES) {
            throw new IllegalArgumentException("a master key has " + ContentCipher.KEY_BYTES + " bytes");
        }
        this.key = key.clone();
        this.id = HexFormat.of().formatHex(Canonical.sha256(key), 0, 8);
    }

    public static MasterKey generate() {
        return new MasterKey(ContentCipher.newKey());
    }

    public static MasterKey of(byte[] raw32) {
        return new MasterKey(raw32);
    }

    /** Loads the hex key from the file, or generates one and writes it (owner read/write only). */
    public static MasterKey loadOrCreate(Path file) {
        try {
            if (Files.exists(file)) {
                return of(HexFormat.of().parseHex(Files.readString(file).trim()));
            }
            Files.createDirectories(file.toAbsolutePath().getParent());
            MasterKey created = generate();
            Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
            Files.writeString(tmp, HexFormat.of().formatHex(created.key) + "\n");
            try {
                Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString("rw-------"));
            } catch (UnsupportedOperationException ignored) {
                // not a POSIX file system: keep the platform default
            }
            Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE);
            return created;
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot load or create the content master key at " + file, e);
        }
    }

    public String id() {
        return id;
    }

    /** The data key wrapped for one memory (AES-GCM, associated data {@link ContentCipher#keyAad}). */
    public byte[] wrap(String space, String memoryId, byte[] dataKey) {
        return ContentCipher.seal(key, ContentCipher.keyAad(space, memoryId), dataKey);
    }

    /** The data key of one memory. */
    public byte[] unwrap(String space, String memoryId, byte[] wrapped) {
        return ContentCipher.open(key, ContentCipher.keyAad(space, memoryId), wrapped);
    }
}
