package io.memorychain.embeddings;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ModelFileTest {

    @TempDir
    Path folder;

    private static byte[] bytes(int n) {
        byte[] b = new byte[n];
        new Random(7).nextBytes(b);
        return b;
    }

    @Test
    void holdsTheSameBytesWithTheirDigestAndIsDeletedOnClose() throws Exception {
        byte[] model = bytes(300_000);
        Path path;
        try (ModelFile file = ModelFile.copy(new ByteArrayInputStream(model), folder.resolve("models"), true)) {
            path = file.path();
            assertThat(path.getParent()).isEqualTo(folder.resolve("models"));
            assertThat(Files.readAllBytes(path)).isEqualTo(model);
            assertThat(file.sha256())
                    .isEqualTo(HexFormat.of()
                            .formatHex(MessageDigest.getInstance("SHA-256").digest(model)));
        }
        assertThat(path).doesNotExist();
    }

    @Test
    void noDigestUnlessAsked() {
        try (ModelFile file = ModelFile.copy(new ByteArrayInputStream(bytes(10)), folder, false)) {
            assertThat(file.sha256()).isNull();
        }
    }

    @Test
    void aFailedCopyLeavesNoFileAndClosesTheResource() {
        boolean[] closed = {false};
        InputStream failing = new InputStream() {
            private int left = 100_000;

            @Override
            public int read() throws IOException {
                byte[] one = new byte[1];
                return read(one, 0, 1) < 0 ? -1 : one[0];
            }

            @Override
            public int read(byte[] b, int off, int len) throws IOException {
                if (left <= 0) {
                    throw new IOException("truncated jar entry");
                }
                int n = Math.min(len, left);
                left -= n;
                return n;
            }

            @Override
            public void close() {
                closed[0] = true;
            }
        };
        assertThatThrownBy(() -> ModelFile.copy(failing, folder, true))
                .isInstanceOf(UncheckedIOException.class)
                .hasMessageContaining(folder.toString())
                .hasRootCauseMessage("truncated jar entry");
        assertThat(folder.toFile().list()).isEmpty();
        assertThat(closed[0]).isTrue();
    }
}
