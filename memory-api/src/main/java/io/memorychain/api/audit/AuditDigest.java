package io.memorychain.api.audit;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.micronaut.serde.annotation.Serdeable;
import io.swagger.v3.oas.annotations.media.Schema;
import java.util.List;
import java.util.Map;

/**
 * A month of a space's audit log summarised (docs/architecture.md §13): counts by event type and by actor, the block
 * changes, the notable events, and the same as Markdown.
 *
 * @param events chain events that occurred in the month
 * @param byType events by type, most frequent first
 * @param byActor events by actor ({@code type:id}), most frequent first
 * @param blockChanges every BlockUpdated of the month (core-memory changes deserve a look)
 * @param notable the month's consolidations, refinement sessions, proposal resolutions, protections, duplicate cleanups
 *     and expiries, oldest first, at most {@value AuditDigests#MAX_NOTABLE}
 */
@Serdeable
@Schema(name = "AuditDigest")
public record AuditDigest(
        String space,
        String month,
        long events,
        @Schema(name = "by_type") @JsonProperty("by_type") Map<String, Long> byType,
        @Schema(name = "by_actor") @JsonProperty("by_actor") Map<String, Long> byActor,

        @Schema(name = "block_changes") @JsonProperty("block_changes")
        List<AuditEntryJson> blockChanges,

        List<AuditEntryJson> notable,
        String markdown) {}
