package io.memorychain.api.markdown;

import io.micronaut.serde.annotation.Serdeable;
import java.util.List;

/** GET /files. */
@Serdeable
public record FileListJson(List<FileJson> files) {

    public static FileListJson of(List<MarkdownFile> files) {
        return new FileListJson(files.stream().map(FileJson::of).toList());
    }
}
