package io.memorychain.embeddings;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.DigestInputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * An ONNX model copied from its classpath resource into a temporary file, for ONNX Runtime to load by path, and deleted
 * when closed (once the session is created). Loading from a Java byte array costs more: the model passes through the
 * heap (34 MB for e5-small, which the heap then keeps committed) and ONNX Runtime's copy of the array left ~15 MiB more
 * native memory behind (docs/benchmarks.md "Memory of the embedded service"). The same bytes either way, so the same
 * session and vectors.
 */
final class ModelFile implements AutoCloseable {

    private final Path path;
    private final String sha256;

    private ModelFile(Path path, String sha256) {
        this.path = path;
        this.sha256 = sha256;
    }

    /**
     * Copies {@code model} (closed here) into a new file under {@code folder}.
     *
     * @param digest also compute the SHA-256 of the bytes ({@link #sha256()}), else that is null
     */
    static ModelFile copy(InputStream model, Path folder, boolean digest) {
        Path file = null;
        try (InputStream in = digest ? new DigestInputStream(model, sha256Digest()) : model) {
            Files.createDirectories(folder);
            file = Files.createTempFile(folder, "memory-chain-model-", ".onnx");
            try (OutputStream out = Files.newOutputStream(file)) {
                in.transferTo(out);
            }
            String hex = digest
                    ? HexFormat.of()
                            .formatHex(
                                    ((DigestInputStream) in).getMessageDigest().digest())
                    : null;
            return new ModelFile(file, hex);
        } catch (IOException e) {
            deleteQuietly(file);
            throw new UncheckedIOException("cannot copy the ONNX model to " + folder, e);
        }
    }

    Path path() {
        return path;
    }

    /** The SHA-256 of the model in hex, if asked for. */
    String sha256() {
        return sha256;
    }

    /** Deletes the file. */
    @Override
    public void close() {
        deleteQuietly(path);
    }

    private static void deleteQuietly(Path file) {
        if (file == null) {
            return;
        }
        try {
            Files.deleteIfExists(file);
        } catch (IOException e) {
            // a temporary file; nothing depends on it once the session exists
        }
    }

    private static MessageDigest sha256Digest() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
