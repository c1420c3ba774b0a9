package io.memorychain.events.chain;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SigningKeysTest {

    @TempDir
    Path directory;

    @Test
    void aCreatedKeyIsFoundAgainByAnotherHolderOfTheDirectoryUntilItIsDiscarded() throws IOException {
        ChainKeys defaultKey = ChainKeys.loadOrCreate(directory.resolve(SigningKeys.DEFAULT_FILE));
        SigningKeys keys = SigningKeys.inDirectory(defaultKey, directory);

        ChainKeys made = keys.create();

        assertThat(Files.exists(keys.fileOf(made.keyId()))).isTrue();
        assertThat(SigningKeys.inDirectory(defaultKey, directory).find(made.keyId()))
                .isPresent();

        keys.discard(made.keyId());

        assertThat(keys.all()).extracting(ChainKeys::keyId).containsExactly(defaultKey.keyId());
        assertThat(SigningKeys.inDirectory(defaultKey, directory).find(made.keyId()))
                .isEmpty();
        try (Stream<Path> files = Files.list(directory)) {
            assertThat(files.map(f -> f.getFileName().toString()))
                    .containsExactlyInAnyOrder(SigningKeys.DEFAULT_FILE, SigningKeys.DEFAULT_FILE + ".pub");
        }
    }

    @Test
    void theDefaultKeyIsNeverDiscarded() {
        ChainKeys defaultKey = ChainKeys.generate();
        SigningKeys keys = SigningKeys.of(defaultKey);

        assertThatThrownBy(() -> keys.discard(defaultKey.keyId())).isInstanceOf(IllegalArgumentException.class);
        assertThat(keys.find(defaultKey.keyId())).isPresent();
    }
}
