package io.memorychain.api.markdown;

import io.micronaut.serde.annotation.Serdeable;
import io.swagger.v3.oas.annotations.media.Schema;

/** A file of the Markdown view in listings (docs/architecture.md §11 memory_list). */
@Serdeable
@Schema(name = "MarkdownFileInfo")
record FileJson(
        @Schema(description = "MEMORY.md, facts/<category>.md, episodes/YYYY-MM.md or procedures/<name>.md")
        String path,

        @Schema(description = "The file's > Summary: line (its first entries' labels, at most ten words)")
        String summary,

        @Schema(description = "Size in UTF-8 bytes") int size,

        @Schema(description = "Number of entries (bullets, or block sections in MEMORY.md)")
        int entries) {

    public static FileJson of(MarkdownFile file) {
        return new FileJson(
                file.path().toString(),
                file.summary(),
                file.size(),
                file.entries().size());
    }
}
