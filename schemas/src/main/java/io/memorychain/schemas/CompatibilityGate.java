package io.memorychain.schemas;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.avro.Schema;
import org.apache.avro.SchemaCompatibility;
import org.apache.avro.SchemaCompatibility.SchemaCompatibilityType;

/**
 * Build-time gate: every record schema in a published version folder must still be readable by the current schema of
 * the same name (backward compatibility: new readers read old data). Run by the schemas module at process-classes.
 */
public final class CompatibilityGate {

    private CompatibilityGate() {}

    public static void main(String[] args) {
        Path current = Path.of(args[0]);
        Path published = Path.of(args[1]);
        List<String> problems = check(current, published);
        if (!problems.isEmpty()) {
            throw new IllegalStateException("Incompatible schema change:\n  " + String.join("\n  ", problems));
        }
        System.out.println("[schemas] compatible with every published version under " + published);
    }

    /** Returns one line per incompatibility; empty when the current schemas can read every published version. */
    public static List<String> check(Path currentDir, Path publishedRoot) {
        Map<String, Schema> current = parseFolder(currentDir);
        List<String> problems = new ArrayList<>();
        for (Path versionDir : listSorted(publishedRoot, Files::isDirectory)) {
            for (Map.Entry<String, Schema> old : parseFolder(versionDir).entrySet()) {
                Schema now = current.get(old.getKey());
                if (now == null) {
                    problems.add(
                            versionDir.getFileName() + ": " + old.getKey() + " was published but no longer exists");
                    continue;
                }
                SchemaCompatibility.SchemaPairCompatibility result =
                        SchemaCompatibility.checkReaderWriterCompatibility(now, old.getValue());
                if (result.getType() != SchemaCompatibilityType.COMPATIBLE) {
                    problems.add(versionDir.getFileName() + ": " + old.getKey() + " -> "
                            + result.getResult().getIncompatibilities());
                }
            }
        }
        return problems;
    }

    /** Parses every .avsc in a folder with one parser (Common.avsc first, as it holds the shared types). */
    static Map<String, Schema> parseFolder(Path dir) {
        Schema.Parser parser = new Schema.Parser();
        Map<String, Schema> records = new LinkedHashMap<>();
        List<Path> files = listSorted(dir, p -> p.toString().endsWith(".avsc"));
        files.sort(Comparator.comparing((Path p) -> !p.getFileName().toString().equals("Common.avsc")));
        for (Path file : files) {
            try {
                Schema schema = parser.parse(file.toFile());
                if (schema.getType() == Schema.Type.RECORD) {
                    records.put(schema.getFullName(), schema);
                }
            } catch (IOException e) {
                throw new UncheckedIOException("Cannot read " + file, e);
            }
        }
        return records;
    }

    private static List<Path> listSorted(Path dir, java.util.function.Predicate<Path> filter) {
        try (Stream<Path> paths = Files.list(dir)) {
            return new ArrayList<>(paths.filter(filter).sorted().toList());
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot list " + dir, e);
        }
    }
}
