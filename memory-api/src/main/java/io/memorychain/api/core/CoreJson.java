package io.memorychain.api.core;

import io.memorychain.api.memories.MemoryJson;
import io.memorychain.domain.core.CoreView;
import io.micronaut.serde.annotation.Serdeable;
import io.swagger.v3.oas.annotations.media.Schema;
import java.util.List;

/** What an agent runtime injects as core memory. */
@Serdeable
@Schema(name = "Core")
public record CoreJson(
        @Schema(description = "Sections ready for a system prompt")
        String text,

        @Schema(description = "Token count of text (cl100k_base)")
        int tokens,

        @Schema(description = "The active blocks and core-tier memories it was built from")
        List<MemoryJson> memories) {

    public static CoreJson of(CoreView core) {
        return new CoreJson(
                core.text(),
                core.tokens(),
                core.memories().stream().map(MemoryJson::of).toList());
    }
}
