package io.memorychain.schemas;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CompatibilityGateTest {

    private static final Path CURRENT = Path.of("src/main/avro");
    private static final Path PUBLISHED = Path.of("src/main/avro-published");

    @Test
    void currentSchemasReadEveryPublishedVersion() {
        assertThat(CompatibilityGate.check(CURRENT, PUBLISHED)).isEmpty();
    }

    @Test
    void addingAnOptionalFieldWithDefaultIsAccepted(@TempDir Path tmp) throws IOException {
        Path current = copyCurrent(tmp);
        replaceIn(
                current.resolve("MemoryOutcome.avsc"),
                "\"fields\": [",
                "\"fields\": [\n  {\"name\": \"note\", \"type\": [\"null\", \"string\"], \"default\": null, \"doc\": \"x\"},");
        assertThat(CompatibilityGate.check(current, PUBLISHED)).isEmpty();
    }

    private static int publishedVersions() throws IOException {
        try (java.util.stream.Stream<Path> versions = java.nio.file.Files.list(PUBLISHED)) {
            return (int) versions.filter(java.nio.file.Files::isDirectory).count();
        }
    }

    @Test
    void rejectsANewRequiredFieldWithoutDefault(@TempDir Path tmp) throws IOException {
        Path current = copyCurrent(tmp);
        replaceIn(
                current.resolve("MemoryOutcome.avsc"),
                "\"fields\": [",
                "\"fields\": [\n  {\"name\": \"tenant\", \"type\": \"string\", \"doc\": \"x\"},");
        assertThat(CompatibilityGate.check(current, PUBLISHED))
                .as("one problem per published version")
                .hasSize(publishedVersions())
                .allSatisfy(problem -> assertThat(problem)
                        .contains("io.memorychain.avro.MemoryOutcome")
                        .contains("tenant"));
    }

    @Test
    void v3ReadersStillReadV4MemorySnapshots() {
        // the lifecycle fields (decay_status, decay_clock_at, purge_at) are additions with defaults: a v3 reader skips
        // them, so the change is forward compatible for Memory as well as backward compatible
        org.apache.avro.Schema v3 = memory(CompatibilityGate.parseFolder(PUBLISHED.resolve("v3")));
        org.apache.avro.Schema now = memory(CompatibilityGate.parseFolder(CURRENT));
        assertThat(org.apache.avro.SchemaCompatibility.checkReaderWriterCompatibility(v3, now)
                        .getType())
                .isEqualTo(org.apache.avro.SchemaCompatibility.SchemaCompatibilityType.COMPATIBLE);
        assertThat(String.valueOf(now.getField("decay_status").defaultVal())).isEqualTo("ACTIVE");
    }

    @Test
    void rejectsAFieldTypeChange(@TempDir Path tmp) throws IOException {
        Path current = copyCurrent(tmp);
        replaceIn(
                current.resolve("Common.avsc"),
                "{\"name\": \"importance\", \"type\": \"int\", \"default\": 3",
                "{\"name\": \"importance\", \"type\": \"string\", \"default\": \"3\"");
        assertThat(CompatibilityGate.check(current, PUBLISHED))
                .isNotEmpty()
                .allSatisfy(problem -> assertThat(problem).contains("importance"));
    }

    /** Memory is declared in Common.avsc (not a top-level record): take it from MemoryCreated. */
    private static org.apache.avro.Schema memory(java.util.Map<String, org.apache.avro.Schema> records) {
        org.apache.avro.Schema payload = records.get("io.memorychain.avro.MemoryEvent")
                .getField("payload")
                .schema();
        return payload.getTypes().stream()
                .filter(t -> t.getName().equals("MemoryCreated"))
                .findFirst()
                .orElseThrow()
                .getField("memory")
                .schema();
    }

    private static Path copyCurrent(Path tmp) throws IOException {
        Path dir = Files.createDirectories(tmp.resolve("avro"));
        try (var files = Files.list(CURRENT)) {
            for (Path f : files.toList()) {
                Files.copy(f, dir.resolve(f.getFileName()));
            }
        }
        return dir;
    }

    private static void replaceIn(Path file, String target, String replacement) throws IOException {
        String text = Files.readString(file);
        assertThat(text).contains(target);
        Files.writeString(
                file,
                text.replaceFirst(
                        java.util.regex.Pattern.quote(target), java.util.regex.Matcher.quoteReplacement(replacement)));
    }
}
