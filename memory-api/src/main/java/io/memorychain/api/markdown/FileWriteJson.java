package io.memorychain.api.markdown;

import io.micronaut.core.annotation.Nullable;
import io.micronaut.serde.annotation.Serdeable;
import io.swagger.v3.oas.annotations.media.Schema;
import java.util.List;
import java.util.Locale;

/** The answer of PUT, :patch and :append on a file. */
@Serdeable
@Schema(name = "MarkdownFileWrite")
public record FileWriteJson(
        String path,

        @Schema(description = ":patch: the number of text edits applied; PUT and :append: the number of changes")
        int applied,

        @Schema(description = "The chain events made, in order")
        List<ChangeJson> changes,
        /* the file afterwards; null when it has no entries left */ @Nullable
        FileJson file) {

    /** One change: the line it came from, created/updated/deleted/block_updated, the memory id or block label, seq. */
    @Serdeable
    @Schema(name = "MarkdownFileChange")
    public record ChangeJson(int line, String action, String target, long seq) {}

    public static FileWriteJson of(FileWrite write) {
        return new FileWriteJson(
                write.path().toString(),
                write.applied(),
                write.changes().stream()
                        .map(c -> new ChangeJson(
                                c.line(), c.action().name().toLowerCase(Locale.ROOT), c.target(), c.seq()))
                        .toList(),
                write.file() == null ? null : FileJson.of(write.file()));
    }
}
