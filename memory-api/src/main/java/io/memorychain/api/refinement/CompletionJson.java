package io.memorychain.api.refinement;

import io.memorychain.api.memories.MemoryJson;
import io.micronaut.serde.annotation.Serdeable;
import io.swagger.v3.oas.annotations.media.Schema;

/** The answer of complete_refinement: the completed session, its journal memory and the chain position. */
@Serdeable
@Schema(name = "RefinementCompletion")
public record CompletionJson(
        RefinementSessionJson session,
        MemoryJson journal,

        @Schema(description = "Chain position of RefinementCompleted")
        long seq) {

    public static CompletionJson of(Completion c) {
        return new CompletionJson(RefinementSessionJson.of(c.session()), MemoryJson.of(c.journal()), c.seq());
    }
}
