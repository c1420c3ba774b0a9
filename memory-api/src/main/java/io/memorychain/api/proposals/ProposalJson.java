package io.memorychain.api.proposals;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.memorychain.api.memories.ActorJson;
import io.memorychain.api.request.Enums;
import io.memorychain.avro.ProposedMemory;
import io.memorychain.avro.ReviewMode;
import io.memorychain.avro.view.Proposal;
import io.memorychain.projector.proposal.ProposalFlag;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.serde.annotation.Serdeable;
import io.swagger.v3.oas.annotations.media.Schema;
import java.time.Instant;
import java.util.List;

/**
 * A proposal as the REST API shows it (the fields of docs/architecture.md §10, snake_case), with its conflict flags.
 */
@Serdeable
@Schema(name = "Proposal")
public record ProposalJson(
        String id,
        String space,

        @Schema(description = "pending, deferred (both open), committed or rejected")
        String status,

        @Schema(description = "1 when proposed, + 1 per resolution; ETag and If-Match of the review actions")
        int version,
        /* who proposed it, e.g. subagent researcher */ ActorJson proposer,
        String content,

        @Schema(description = "Suggested store: semantic, episodic, procedural, ...")
        String kind,

        @Nullable String category,
        @Nullable String summary,
        List<String> tags,
        List<String> entities,
        int importance,
        String confidence,

        @Schema(name = "core_worthy") @JsonProperty("core_worthy")
        boolean coreWorthy,

        @Schema(description = "Suggested store vault") boolean pinned,
        @Nullable String trigger,

        @Schema(name = "submitted_seq") @JsonProperty("submitted_seq")
        long submittedSeq,

        @Schema(name = "submitted_at") @JsonProperty("submitted_at")
        String submittedAt,

        @Schema(name = "updated_seq") @JsonProperty("updated_seq")
        long updatedSeq,

        @Nullable
        @JsonProperty("resolved_by")
        @Schema(description = "Reviewer of the latest resolution (a deferral included)")
        ActorJson resolvedBy,

        @Nullable @Schema(name = "resolved_at") @JsonProperty("resolved_at")
        String resolvedAt,

        @Nullable String reason,

        @Nullable
        @JsonProperty("memory_id")
        @Schema(name = "memory_id", description = "committed: the memory it became")
        String memoryId,

        @JsonProperty("conflicts_with")
        @Schema(name = "conflicts_with", description = "Ids recorded as conflicting at the latest resolution")
        List<String> conflictsWith,

        @Schema(description = "true when a flag is a conflict (the seed's CONFLICT status)")
        boolean conflict,

        @JsonProperty("review_mode")
        @Schema(
                name = "review_mode",
                description =
                        "batch (the main agent reviews), manual (only a user decides) or auto_commit (committed at once: trusted proposer, confidence at the threshold)")
        String reviewMode,

        @Schema(
                description =
                        "Open proposals only: other open proposals and active memories it may contradict or repeat, most similar first")
        List<Flag> flags) {
    /** Declared, so that it carries no {@code @JsonProperty} of its own (SpecContractTest: spurious properties). */
    @Override
    public ActorJson resolvedBy() {
        return resolvedBy;
    }

    /** One conflict or duplicate flag. */
    @Serdeable
    @Schema(name = "ProposalFlag")
    public record Flag(
            String id,
            @Schema(description = "proposal or memory") String target,

            @Schema(description = "conflict (same subject, different content) or duplicate (same content)")
            String kind,

            @Schema(description = "cosine similarity of the two texts' embeddings")
            double similarity) {

        static Flag of(ProposalFlag f) {
            return new Flag(
                    f.id(), Enums.json(f.target()), Enums.json(f.kind()), Math.round(f.similarity() * 1000) / 1000.0);
        }
    }

    public static ProposalJson of(FlaggedProposal flagged) {
        Proposal p = flagged.proposal();
        ProposedMemory m = p.getProposal();
        return new ProposalJson(
                p.getId(),
                p.getSpace(),
                Enums.json(p.getStatus()),
                p.getVersion(),
                ActorJson.of(p.getProposer()),
                m.getContent(),
                Enums.json(m.getKind()),
                m.getCategory(),
                m.getSummary(),
                List.copyOf(m.getTags()),
                List.copyOf(m.getEntities()),
                m.getImportance(),
                Enums.json(m.getConfidence()),
                m.getCoreWorthy(),
                m.getPinned(),
                m.getTrigger(),
                p.getSubmittedSeq(),
                iso(p.getSubmittedAt()),
                p.getUpdatedSeq(),
                ActorJson.of(p.getResolvedBy()),
                iso(p.getResolvedAt()),
                p.getReason(),
                p.getMemoryId(),
                List.copyOf(p.getConflictsWith()),
                flagged.conflicted(),
                Enums.json(p.getReviewMode() == null ? ReviewMode.BATCH : p.getReviewMode()),
                flagged.flags().stream().map(Flag::of).toList());
    }

    private static String iso(Instant instant) {
        return instant == null ? null : instant.toString();
    }
}
