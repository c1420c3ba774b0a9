package io.memorychain.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
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
        List<Path> sourceRoots = sourceRoots(root);
        assertThat(sourceRoots).as("main source roots").contains(root.resolve("memory-api/src/main/java"));
        List<String> tooLong = new ArrayList<>();
        for (Path sources : sourceRoots) {
            try (Stream<Path> files = Files.walk(sources)) {
                files.filter(p -> p.toString().endsWith(".java"))
                        .filter(p -> lines(p) > MAX_LINES)
                        .forEach(p -> tooLong.add(root.relativize(p) + " (" + lines(p) + " lines)"));
            }
        }
        assertThat(tooLong).as("main source files over %d lines", MAX_LINES).isEmpty();
    }

    /**
     * The {@code src/main/java} of every module, one or two levels down (clients/conformance, examples/java-agent):
     * only those are walked, never the build output other modules write meanwhile.
     */
    private static List<Path> sourceRoots(Path root) throws IOException {
        List<Path> modules = new ArrayList<>();
        try (Stream<Path> top = Files.list(root)) {
            for (Path dir : top.filter(Files::isDirectory).toList()) {
                modules.add(dir);
                try (Stream<Path> nested = Files.list(dir)) {
                    nested.filter(Files::isDirectory).forEach(modules::add);
                }
            }
        }
        return modules.stream()
                .map(m -> m.resolve("src/main/java"))
                .filter(Files::isDirectory)
                .sorted()
                .toList();
    }

    private static long lines(Path file) {
        try (Stream<String> lines = Files.lines(file)) {
            return lines.count();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
