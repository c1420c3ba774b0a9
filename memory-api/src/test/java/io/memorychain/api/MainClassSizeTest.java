package io.memorychain.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * No main source file of the project is over 500 lines (docs/architecture.md §22): a class that grows past it is split
 * by what it does. Runs from memory-api, which sits beside every other module.
 */
class MainClassSizeTest {

    static final int MAX_LINES = 500;

    @Test
    void noMainSourceFileIsOver500Lines() throws IOException {
        Path root = Path.of("..").toAbsolutePath().normalize();
        assertThat(root.resolve("pom.xml"))
                .as("the project root beside memory-api")
                .exists();
        List<String> tooLong;
        try (Stream<Path> files = Files.walk(root)) {
            tooLong = files.filter(p -> p.toString().endsWith(".java"))
                    .filter(p -> p.toString().contains("/src/main/java/"))
                    .filter(p -> !p.toString().contains("/target/"))
                    .filter(p -> lines(p) > MAX_LINES)
                    .map(p -> root.relativize(p) + " (" + lines(p) + " lines)")
                    .toList();
        }
        assertThat(tooLong).as("main source files over %d lines", MAX_LINES).isEmpty();
    }

    private static long lines(Path file) {
        try (Stream<String> lines = Files.lines(file)) {
            return lines.count();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
