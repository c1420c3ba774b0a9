package io.memorychain.events.chain;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The chain signing keys a sequencer holds (docs/architecture.md §4, key rotation): the default key, which signs every
 * space that never rotated, and the keys spaces rotated to. They are kept as the default key is: hex private keys in
 * owner-only files of the key directory ({@code chain-signing.key} for the default, {@code chain-signing-<key id>.key}
 * for the others, each with its {@code .pub}), never on a topic. A key id not held yet is looked up in the directory
 * again, so a key provisioned there (or written by another instance sharing the directory) is found without a restart.
 * Thread-safe.
 */
public final class SigningKeys {

    private static final Logger log = LoggerFactory.getLogger(SigningKeys.class);
    public static final String DEFAULT_FILE = "chain-signing.key";
    private static final String PREFIX = "chain-signing-";
    private static final String SUFFIX = ".key";

    private final ChainKeys defaultKey;
    private final Path directory;
    private final Map<String, ChainKeys> keys = new ConcurrentHashMap<>();

    private SigningKeys(ChainKeys defaultKey, Path directory) {
        this.defaultKey = Objects.requireNonNull(defaultKey, "defaultKey");
        this.directory = directory;
        keys.put(defaultKey.keyId(), defaultKey);
    }

    /** Only these keys, no directory (tests, tools): the first is the default. */
    public static SigningKeys of(ChainKeys defaultKey, ChainKeys... others) {
        SigningKeys out = new SigningKeys(defaultKey, null);
        for (ChainKeys key : others) {
            out.keys.put(key.keyId(), key);
        }
        return out;
    }

    /** The keys of the directory, with {@code defaultKey} (already loaded from its file there) as the default. */
    public static SigningKeys inDirectory(ChainKeys defaultKey, Path directory) {
        SigningKeys out = new SigningKeys(defaultKey, directory);
        out.rescan();
        return out;
    }

    /** The key that signs spaces that never rotated. */
    public ChainKeys defaultKey() {
        return defaultKey;
    }

    /** The private key of {@code keyId}, looking in the key directory again when it is not held yet. */
    public Optional<ChainKeys> find(String keyId) {
        ChainKeys key = keys.get(keyId);
        if (key == null && directory != null && isKeyId(keyId)) {
            Path file = fileOf(keyId);
            if (Files.exists(file)) {
                key = load(file);
                if (key != null && !key.keyId().equals(keyId)) {
                    log.warn("The signing key file {} holds key {}, not {}: ignored", file, key.keyId(), keyId);
                    key = null;
                }
            }
        }
        return Optional.ofNullable(key);
    }

    /**
     * A new key, written to {@code chain-signing-<key id>.key} in the key directory (owner read/write only) and held:
     * what a rotation without a provisioned key uses.
     *
     * @throws IllegalStateException without a key directory
     */
    public ChainKeys create() {
        if (directory == null) {
            ChainKeys key = ChainKeys.generate();
            keys.put(key.keyId(), key);
            return key;
        }
        Path tmp = directory.resolve(PREFIX + "new-" + System.nanoTime() + SUFFIX);
        ChainKeys generated = ChainKeys.loadOrCreate(tmp);
        try {
            Path file = fileOf(generated.keyId());
            Files.move(tmp, file);
            Files.move(
                    tmp.resolveSibling(tmp.getFileName() + ".pub"), file.resolveSibling(file.getFileName() + ".pub"));
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot store the new signing key in " + directory, e);
        }
        keys.put(generated.keyId(), generated);
        log.info("New chain signing key {} in {}", generated.keyId(), directory);
        return generated;
    }

    /**
     * Forgets a key {@link #create() made} for a rotation the sequencer never applied (it refused it, or a retry
     * answered an earlier rotation), and deletes its files, so that no unused key is listed. Never the default key.
     */
    public void discard(String keyId) {
        if (keyId.equals(defaultKey.keyId())) {
            throw new IllegalArgumentException("the default signing key is never discarded");
        }
        keys.remove(keyId);
        if (directory != null) {
            Path file = fileOf(keyId);
            try {
                Files.deleteIfExists(file);
                Files.deleteIfExists(file.resolveSibling(file.getFileName() + ".pub"));
            } catch (IOException e) {
                log.warn("Cannot delete the unused signing key file {}: {}", file, e.toString());
            }
        }
        log.info("Unused chain signing key {} discarded", keyId);
    }

    /** Every key held, the default first, then by key id. */
    public List<ChainKeys> all() {
        rescan();
        List<ChainKeys> out = new ArrayList<>(keys.values());
        out.sort(Comparator.comparing((ChainKeys k) -> k != defaultKey).thenComparing(ChainKeys::keyId));
        return out;
    }

    /** The public halves of every key held. */
    public KeyRing publicRing() {
        return KeyRing.of(all().stream().map(ChainKeys::publicKeyBytes).toArray(byte[][]::new));
    }

    /** The file a key id's private key is kept in. */
    public Path fileOf(String keyId) {
        if (directory == null) {
            throw new IllegalStateException("no key directory");
        }
        return keyId.equals(defaultKey.keyId())
                ? directory.resolve(DEFAULT_FILE)
                : directory.resolve(PREFIX + keyId + SUFFIX);
    }

    private void rescan() {
        if (directory == null || !Files.isDirectory(directory)) {
            return;
        }
        try (DirectoryStream<Path> files = Files.newDirectoryStream(directory, PREFIX + "*" + SUFFIX)) {
            for (Path file : files) {
                String name = file.getFileName().toString();
                String id = name.substring(PREFIX.length(), name.length() - SUFFIX.length());
                if (isKeyId(id) && !keys.containsKey(id)) {
                    ChainKeys key = load(file);
                    if (key != null && key.keyId().equals(id)) {
                        keys.put(id, key);
                    }
                }
            }
        } catch (IOException e) {
            log.warn("Cannot list the signing keys in {}: {}", directory, e.toString());
        }
    }

    private ChainKeys load(Path file) {
        try {
            ChainKeys key = ChainKeys.fromPrivateKey(
                    java.util.HexFormat.of().parseHex(Files.readString(file).trim()));
            keys.putIfAbsent(key.keyId(), key);
            return key;
        } catch (IOException | IllegalArgumentException e) {
            log.warn("Cannot read the signing key file {}: {}", file, e.toString());
            return null;
        }
    }

    /** 16 lower-case hex digits. */
    public static boolean isKeyId(String id) {
        return id != null && id.matches("[0-9a-f]{16}");
    }
}
