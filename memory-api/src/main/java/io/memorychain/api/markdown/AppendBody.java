package io.memorychain.api.markdown;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.serde.annotation.Serdeable;
import io.swagger.v3.oas.annotations.media.Schema;

/** POST /files/{path}:append (docs/architecture.md §11 memory_append). */
@Serdeable
@JsonIgnoreProperties(ignoreUnknown = false)
@Schema(name = "MarkdownAppend")
public record AppendBody(
        @Nullable
        @Schema(
                description = "New entries: '- ' bullets, or plain text for one entry "
                        + "('## label' sections in MEMORY.md); no id markers")
        String text) {}
