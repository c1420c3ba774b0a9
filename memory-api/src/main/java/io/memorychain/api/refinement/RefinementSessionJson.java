package io.memorychain.api.refinement;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.memorychain.api.memories.ActorJson;
import io.memorychain.api.request.Enums;
import io.memorychain.avro.RefinementCounts;
import io.memorychain.avro.view.RefinementSession;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.serde.annotation.Serdeable;
import io.swagger.v3.oas.annotations.media.Schema;
import java.time.Instant;
import java.util.List;

/**
 * A refinement session (docs/architecture.md §9): what the agent is given while it is open, and its outcome once
 * completed.
 */
@Serdeable
@Schema(name = "RefinementSession")
public record RefinementSessionJson(
        @Schema(name = "session_id") @JsonProperty("session_id")
        String sessionId,

        String space,
        @Schema(description = "open or completed") String state,

        @Schema(description = "admin, token_budget or schedule")
        String trigger,

        @Nullable String reason,

        @Schema(name = "started_seq") @JsonProperty("started_seq")
        long startedSeq,

        @Schema(name = "started_at") @JsonProperty("started_at")
        String startedAt,

        @JsonProperty("started_by") ActorJson startedBy,

        @JsonProperty("core_tokens_at_start")
        @Schema(name = "core_tokens_at_start", description = "After the duplicate cleanup")
        int coreTokensAtStart,

        @Schema(name = "target_tokens") @JsonProperty("target_tokens")
        int targetTokens,

        @JsonProperty("core_tokens")
        @Schema(name = "core_tokens", description = "Core tokens now (cl100k_base, as GET /core)")
        int coreTokens,

        @Schema(description = "e.g. Current core: 7,983 tokens; target: 5,000")
        String budget,

        @Schema(name = "ledger_size_at_start") @JsonProperty("ledger_size_at_start")
        int ledgerSizeAtStart,

        Counts counts,

        @Schema(name = "protected_ids") @JsonProperty("protected_ids")
        List<String> protectedIds,

        @Nullable @Schema(name = "completed_seq") @JsonProperty("completed_seq")
        Long completedSeq,

        @Nullable @Schema(name = "completed_at") @JsonProperty("completed_at")
        String completedAt,

        @Nullable @JsonProperty("completed_by") ActorJson completedBy,

        @Nullable
        @Schema(description = "e.g. Compressed 20 -> 3; saved ~800 tokens; protected 2 constitutional memories")
        String summary,

        @Nullable @Schema(name = "agent_summary") @JsonProperty("agent_summary")
        String agentSummary,

        @Nullable @Schema(name = "journal_id") @JsonProperty("journal_id")
        String journalId,

        @Nullable @Schema(name = "tokens_after") @JsonProperty("tokens_after")
        Integer tokensAfter,

        @Schema(
                description =
                        "While open: the active core-tier memories (blocks excluded); empty once completed and in listings")
        List<LedgerEntryJson> ledger,

        @Schema(description = "The session's edits with before/after; empty in listings")
        List<RefinementEditJson> edits) {
    /** Declared, so that it carries no {@code @JsonProperty} of its own (SpecContractTest: spurious properties). */
    @Override
    public ActorJson startedBy() {
        return startedBy;
    }

    /** Declared, so that it carries no {@code @JsonProperty} of its own (SpecContractTest: spurious properties). */
    @Override
    public ActorJson completedBy() {
        return completedBy;
    }

    /** What the session did so far. */
    @Serdeable
    @Schema(name = "RefinementCounts")
    public record Counts(
            int consolidations,

            @Schema(name = "consolidated_inputs") @JsonProperty("consolidated_inputs")
            int consolidatedInputs,

            int updates,
            int deletions,
            int protections,

            @Schema(name = "duplicates_removed") @JsonProperty("duplicates_removed")
            int duplicatesRemoved) {

        static Counts of(RefinementCounts c) {
            return new Counts(
                    c.getConsolidations(),
                    c.getConsolidatedInputs(),
                    c.getUpdates(),
                    c.getDeletions(),
                    c.getProtections(),
                    c.getDuplicatesRemoved());
        }
    }

    public static RefinementSessionJson of(SessionView view) {
        return of(
                view.session(),
                view.coreTokens(),
                view.budget(),
                view.ledger().stream().map(LedgerEntryJson::of).toList(),
                view.edits().stream().map(RefinementEditJson::of).toList());
    }

    private static RefinementSessionJson of(
            RefinementSession s,
            int coreTokens,
            String budget,
            List<LedgerEntryJson> ledger,
            List<RefinementEditJson> edits) {
        return new RefinementSessionJson(
                s.getSessionId(),
                s.getSpace(),
                s.getCompletedSeq() == null ? "open" : "completed",
                Enums.json(s.getTrigger()),
                s.getReason(),
                s.getStartedSeq(),
                iso(s.getStartedAt()),
                ActorJson.of(s.getStartedBy()),
                s.getCoreTokens(),
                s.getTargetTokens(),
                coreTokens,
                budget,
                s.getLedgerSize(),
                Counts.of(s.getCounts()),
                List.copyOf(s.getProtectedIds()),
                s.getCompletedSeq(),
                iso(s.getCompletedAt()),
                ActorJson.of(s.getCompletedBy()),
                s.getSummary(),
                s.getAgentSummary(),
                s.getJournalId(),
                s.getTokensAfter(),
                ledger,
                edits);
    }

    private static String iso(Instant instant) {
        return instant == null ? null : instant.toString();
    }
}
