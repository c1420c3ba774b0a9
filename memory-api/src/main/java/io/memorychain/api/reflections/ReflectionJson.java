package io.memorychain.api.reflections;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.memorychain.api.memories.ActorJson;
import io.memorychain.api.request.Enums;
import io.memorychain.avro.ReflectionDocument;
import io.memorychain.avro.view.Reflection;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.serde.annotation.Serdeable;
import io.swagger.v3.oas.annotations.media.Schema;
import java.time.Instant;
import java.util.List;

/**
 * A reflection as the API shows it (docs/architecture.md §18): the pending document and, once decided, the decision.
 */
@Serdeable
@Schema(name = "Reflection")
public record ReflectionJson(
        String id,
        String space,

        @Schema(description = "pending, approved, partially_approved or rejected")
        String status,

        int number,

        @Nullable
        @Schema(
                description =
                        "The evolution milestone this reflection is: summary (the 10th), consolidation (the 25th), synthesis (the 50th) or retrospective (the 100th); null for an ordinary one")
        String milestone,

        @Schema(description = "schedule, session_end, manual or threshold")
        String trigger,

        @Nullable @Schema(name = "trigger_detail") @JsonProperty("trigger_detail")
        String triggerDetail,

        @Schema(name = "from_seq") @JsonProperty("from_seq") long fromSeq,
        @Schema(name = "to_seq") @JsonProperty("to_seq") long toSeq,

        @Schema(name = "episode_ids") @JsonProperty("episode_ids")
        List<String> episodeIds,

        List<String> priorities,
        @Nullable String guidance,

        @Schema(name = "evolution_insights") @JsonProperty("evolution_insights")
        List<String> evolutionInsights,

        List<String> contradictions,
        List<String> questions,

        @Schema(description = "The human-readable summary (Markdown)")
        String summary,

        List<ReflectionChangeJson> changes,

        @Schema(name = "output_tokens") @JsonProperty("output_tokens")
        int outputTokens,

        @Schema(name = "output_token_cap") @JsonProperty("output_token_cap")
        int outputTokenCap,

        @Nullable String model,

        @Schema(name = "proposed_seq") @JsonProperty("proposed_seq")
        long proposedSeq,

        @Schema(name = "proposed_at") @JsonProperty("proposed_at")
        String proposedAt,

        @JsonProperty("proposed_by") ActorJson proposedBy,

        @Nullable @Schema(name = "decided_seq") @JsonProperty("decided_seq")
        Long decidedSeq,

        @Nullable @Schema(name = "decided_at") @JsonProperty("decided_at")
        String decidedAt,

        @Nullable @JsonProperty("decided_by") ActorJson decidedBy,

        @Nullable @Schema(description = "approve, approve_with_changes, partial or reject")
        String decision,

        @Nullable String reason,

        @Schema(name = "applied_change_ids") @JsonProperty("applied_change_ids")
        List<String> appliedChangeIds,

        @JsonProperty("memory_ids")
        @Schema(name = "memory_ids", description = "The memory each applied change created or changed")
        List<String> memoryIds,

        @Schema(name = "edited_changes") @JsonProperty("edited_changes")
        List<ReflectionChangeJson> editedChanges) {
    /** Declared, so that it carries no {@code @JsonProperty} of its own (SpecContractTest: spurious properties). */
    @Override
    public ActorJson proposedBy() {
        return proposedBy;
    }

    /** Declared, so that it carries no {@code @JsonProperty} of its own (SpecContractTest: spurious properties). */
    @Override
    public ActorJson decidedBy() {
        return decidedBy;
    }

    public static ReflectionJson of(Reflection r) {
        ReflectionDocument d = r.getDocument();
        return new ReflectionJson(
                r.getId(),
                r.getSpace(),
                Enums.json(r.getStatus()),
                d.getNumber(),
                d.getMilestone() == null ? null : Enums.json(d.getMilestone()),
                Enums.json(d.getTrigger()),
                d.getTriggerDetail(),
                d.getFromSeq(),
                d.getToSeq(),
                List.copyOf(d.getEpisodeIds()),
                List.copyOf(d.getPriorities()),
                d.getGuidance(),
                List.copyOf(d.getEvolutionInsights()),
                List.copyOf(d.getContradictions()),
                List.copyOf(d.getQuestions()),
                d.getSummary(),
                d.getChanges().stream().map(ReflectionChangeJson::of).toList(),
                d.getOutputTokens(),
                d.getOutputTokenCap(),
                d.getModel(),
                r.getProposedSeq(),
                iso(r.getProposedAt()),
                ActorJson.of(r.getProposedBy()),
                r.getDecidedSeq(),
                iso(r.getDecidedAt()),
                ActorJson.of(r.getDecidedBy()),
                r.getDecision() == null ? null : Enums.json(r.getDecision()),
                r.getReason(),
                List.copyOf(r.getAppliedChangeIds()),
                List.copyOf(r.getMemoryIds()),
                r.getEditedChanges().stream().map(ReflectionChangeJson::of).toList());
    }

    private static String iso(Instant instant) {
        return instant == null ? null : instant.toString();
    }
}
