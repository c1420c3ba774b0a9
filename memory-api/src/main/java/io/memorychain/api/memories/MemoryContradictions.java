package io.memorychain.api.memories;

import io.micronaut.serde.annotation.Serdeable;
import io.swagger.v3.oas.annotations.media.Schema;
import java.util.List;

/** The open contradictions a memory is a side of, by id (those of GET /contradictions; docs/architecture.md §10). */
@Serdeable
@Schema(name = "MemoryContradictions")
public record MemoryContradictions(
        @Schema(description = "Ids of the open contradictions, oldest first")
        List<String> open) {}
