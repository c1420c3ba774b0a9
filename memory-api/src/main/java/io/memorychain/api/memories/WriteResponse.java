package io.memorychain.api.memories;

import io.memorychain.api.write.WriteResult;
import io.micronaut.serde.annotation.Serdeable;
import io.swagger.v3.oas.annotations.media.Schema;

/** The answer of every accepted write: the memory as it is after the change, and the chain position of the event. */
@Serdeable
@Schema(name = "WriteResult")
public record WriteResponse(
        MemoryJson memory,
        @Schema(description = "Chain position of the event") long seq) {

    public static WriteResponse of(WriteResult result) {
        return new WriteResponse(MemoryJson.of(result.memory()), result.seq());
    }
}
