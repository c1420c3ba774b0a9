package io.memorychain.projector.search;

import static io.memorychain.projector.search.TestMemories.memory;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * After an erasure the deleted memory's text must leave the index files (docs/architecture.md §12), not wait for a
 * merge.
 */
class ExpungeDeletesTest {

    @Test
    void expungingDeletesRemovesADeletedMemorysTextFromTheIndexFiles(@TempDir Path dir) throws Exception {
        String marker = "quokkaharbour7731";
        try (MemoryIndex index = MemoryIndex.onDisk(dir, IndexSettings.DEFAULTS)) {
            index.upsert(memory("s", "gone", "the code is " + marker).build(), null);
            index.upsert(memory("s", "kept", "the office is in Lyon").build(), null);
            assertThat(index.search(SearchRequest.builder("s")
                            .text(marker)
                            .mode(SearchMode.BM25)
                            .topK(5)
                            .build()))
                    .extracting(Hit::id)
                    .containsExactly("gone");
            assertThat(filesWith(dir, marker)).as("on disk after the reopen").isNotEmpty();

            index.delete("s", "gone");
            index.expungeDeletes();

            assertThat(filesWith(dir, marker)).isEmpty();
            assertThat(index.search(SearchRequest.builder("s")
                            .text("Lyon")
                            .mode(SearchMode.BM25)
                            .topK(5)
                            .build()))
                    .extracting(Hit::id)
                    .containsExactly("kept");
        }
    }

    static List<Path> filesWith(Path dir, String text) throws Exception {
        try (Stream<Path> files = Files.walk(dir)) {
            return files.filter(Files::isRegularFile)
                    .filter(f -> {
                        try {
                            return new String(Files.readAllBytes(f), StandardCharsets.ISO_8859_1).contains(text);
                        } catch (java.io.IOException e) {
                            return false;
                        }
                    })
                    .toList();
        }
    }
}
