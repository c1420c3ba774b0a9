package io.memorychain.api.markdown;

import io.micronaut.serde.annotation.Serdeable;
import java.util.List;

/** GET /files. */
@Serdeable
public record FileListJson(List<FileJson> files) {
}
