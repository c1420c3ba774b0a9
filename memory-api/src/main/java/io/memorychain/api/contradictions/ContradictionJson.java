package io.memorychain.api.contradictions;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.memorychain.api.memories.ActorJson;
import io.memorychain.api.request.Enums;
import io.memorychain.avro.view.Contradiction;
import io.memorychain.domain.contradiction.Contradictions;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.serde.annotation.Serdeable;
import io.swagger.v3.oas.annotations.media.Schema;

/**
 * A flagged contradiction between two memories or proposals (docs/architecture.md §10, seed 001 §13.6). Names the two
 * sides, never their content.
 */
@Serdeable
@Schema(name = "Contradiction")
public record ContradictionJson(
        String id,

        @Schema(name = "first_id", description = "One side: a memory id or a proposal id (p...)")
        @JsonProperty("first_id")
        String firstId,

        @Schema(name = "second_id", description = "The other side") @JsonProperty("second_id")
        String secondId,

        @Nullable
        @Schema(description = "Cosine similarity of the two texts when detected by embeddings; null when reported")
        Double similarity,

        @Schema(name = "flagged_seq") @JsonProperty("flagged_seq")
        long flaggedSeq,

        @Schema(name = "flagged_at") @JsonProperty("flagged_at")
        String flaggedAt,

        @JsonProperty("flagged_by") ActorJson flaggedBy,

        @Schema(
                description =
                        "Not resolved, or asked of the user (ask_user) and not answered yet: both sides stay flagged")
        boolean open,

        @Nullable @Schema(description = "The latest resolution: one_wins, keep_both or ask_user; null: never resolved")
        String resolution,

        @Nullable @Schema(name = "winner_id", description = "one_wins: the side that stayed") @JsonProperty("winner_id")
        String winnerId,

        @Nullable @Schema(name = "resolved_seq") @JsonProperty("resolved_seq")
        Long resolvedSeq,

        @Nullable @JsonProperty("resolved_by") ActorJson resolvedBy) {

    /** Declared, so that it carries no {@code @JsonProperty} of its own (SpecContractTest: spurious properties). */
    @Override
    public ActorJson flaggedBy() {
        return flaggedBy;
    }

    /** Declared, so that it carries no {@code @JsonProperty} of its own (SpecContractTest: spurious properties). */
    @Override
    public ActorJson resolvedBy() {
        return resolvedBy;
    }

    public static ContradictionJson of(Contradiction c) {
        return new ContradictionJson(
                c.getId(),
                c.getFirstId(),
                c.getSecondId(),
                c.getSimilarity(),
                c.getFlaggedSeq(),
                c.getFlaggedAt().toString(),
                ActorJson.of(c.getFlaggedBy()),
                Contradictions.isOpen(c),
                c.getResolution() == null ? null : Enums.json(c.getResolution()),
                c.getWinnerId(),
                c.getResolvedSeq(),
                c.getResolvedBy() == null ? null : ActorJson.of(c.getResolvedBy()));
    }
}
