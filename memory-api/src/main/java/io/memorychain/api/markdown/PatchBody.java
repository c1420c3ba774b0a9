package io.memorychain.api.markdown;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.serde.annotation.Serdeable;
import io.swagger.v3.oas.annotations.media.Schema;
import java.util.List;

/** POST /files/{path}:patch (docs/architecture.md §11 memory_patch). */
@Serdeable
@JsonIgnoreProperties(ignoreUnknown = false)
@Schema(name = "MarkdownPatch")
public record PatchBody(
        @Nullable @Schema(description = "Applied in order; each old_text must occur exactly once")
        List<Edit> edits) {

    @Serdeable
    @JsonIgnoreProperties(ignoreUnknown = false)
    @Schema(name = "MarkdownEdit")
    public record Edit(
            @Nullable @Schema(name = "old_text") @JsonProperty("old_text")
            String oldText,

            @Nullable @Schema(name = "new_text") @JsonProperty("new_text")
            String newText) {}

    public List<TextEdit> textEdits() {
        return edits == null
                ? null
                : edits.stream()
                        .map(e -> e == null ? null : new TextEdit(e.oldText(), e.newText()))
                        .toList();
    }
}
