package io.memorychain.api.export;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.memorychain.api.memories.MemoryJson;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.serde.annotation.Serdeable;
import io.swagger.v3.oas.annotations.media.Schema;
import java.util.List;

/**
 * A space's memories as a portable document (docs/architecture.md §13): what {@code GET /export} answers and
 * {@code POST /import} takes. Memories keep their original ids and timestamps as data; an import creates new memories
 * (new ids, new chain positions) whose {@code created_at} is the exported one.
 *
 * @param format {@value #FORMAT}
 * @param space the exported space
 * @param headSeq the space's applied seq when exported (the export is the state at that point of the chain)
 * @param userId the user whose memories were exported, or null for the whole space
 * @param memories active memories (blocks excluded), in creation order
 * @param blocks the active core blocks (none when exporting one user's memories)
 * @param relations the edges between exported memories
 */
@Serdeable
@Schema(name = "SpaceExport")
public record SpaceExport(
        String format,
        String space,

        @Schema(name = "exported_at") @JsonProperty("exported_at")
        String exportedAt,

        @Schema(name = "head_seq") @JsonProperty("head_seq") long headSeq,

        @Nullable @Schema(name = "user_id") @JsonProperty("user_id")
        String userId,

        List<MemoryJson> memories,
        List<MemoryJson> blocks,
        List<Edge> relations) {

    public static final String FORMAT = "memory-chain-export/1";

    /** One relation edge between two exported memories (by their exported ids). */
    @Serdeable
    @Schema(name = "ExportedRelation")
    public record Edge(String from, String to, String type, double strength) {}
}
