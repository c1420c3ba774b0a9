package io.memorychain.embeddings;

import static org.assertj.core.api.Assertions.assertThat;

import io.memorychain.embeddings.DjlSetup.CacheDir;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DjlSetupTest {

    @TempDir
    Path dir;

    @Test
    void theEnvironmentVariableWinsBecauseDjlReadsItFirst() {
        CacheDir decided = DjlSetup.resolveCacheDir(dir.resolve("configured"), "/env/djl", "/prop/djl", dir, dir);

        assertThat(decided.dir()).isEqualTo(Path.of("/env/djl"));
        assertThat(decided.setProperty()).isFalse();
    }

    @Test
    void aConfiguredFolderWinsOverThePropertyAndTheHomeDirectory() {
        Path configured = dir.resolve("configured");

        CacheDir decided = DjlSetup.resolveCacheDir(configured, null, "/prop/djl", dir, dir);

        assertThat(decided.dir()).isEqualTo(configured);
        assertThat(decided.setProperty()).isTrue();
    }

    @Test
    void anExistingSystemPropertyIsKeptWhenNothingIsConfigured() {
        CacheDir decided = DjlSetup.resolveCacheDir(null, " ", "/prop/djl", dir, dir);

        assertThat(decided.dir()).isEqualTo(Path.of("/prop/djl"));
        assertThat(decided.setProperty()).isFalse();
    }

    @Test
    void aWritableHomeDirectoryGetsDjlsUsualFolder() throws IOException {
        Path home = Files.createDirectory(dir.resolve("home"));

        CacheDir decided = DjlSetup.resolveCacheDir(null, null, null, home, dir.resolve("tmp"));

        assertThat(decided.dir()).isEqualTo(home.resolve(".djl.ai"));
    }

    @Test
    void aMissingHomeDirectoryFallsBackToTheTemporaryFolder() {
        Path tmp = dir.resolve("tmp");

        CacheDir decided = DjlSetup.resolveCacheDir(null, null, null, dir.resolve("no/such/home"), tmp);

        assertThat(decided.dir()).isEqualTo(tmp.resolve("memory-chain-djl"));
        assertThat(decided.setProperty()).isTrue();
    }

    @Test
    void aHomeThatIsAFileFallsBackToTheTemporaryFolder() throws IOException {
        Path home = Files.createFile(dir.resolve("home"));

        CacheDir decided = DjlSetup.resolveCacheDir(null, null, null, home, dir);

        assertThat(decided.dir()).isEqualTo(dir.resolve("memory-chain-djl"));
    }

    @Test
    void noHomeDirectoryFallsBackToTheTemporaryFolder() {
        assertThat(DjlSetup.resolveCacheDir(null, null, null, null, dir).dir())
                .isEqualTo(dir.resolve("memory-chain-djl"));
    }
}
