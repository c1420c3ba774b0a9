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

/** A refinement session (docs/architecture.md §9): what the agent is given while it is open, and its outcome once completed. */
@Serdeable
@Schema(name = "RefinementSession")
public record RefinementSessionJson(
        @JsonProperty("session_id") String sessionId,
        String space,
        @Schema(description = "open or completed") String state,
        @Schema(description = "admin, token_budget or schedule") String trigger,
        @Nullable String reason,
        @JsonProperty("started_seq") long startedSeq,
        @JsonProperty("started_at") String startedAt,
        @JsonProperty("started_by") ActorJson startedBy,
        @JsonProperty("core_tokens_at_start") @Schema(description = "After the duplicate cleanup") int coreTokensAtStart,
        @JsonProperty("target_tokens") int targetTokens,
        @JsonProperty("core_tokens") @Schema(description = "Core tokens now (cl100k_base, as GET /core)") int coreTokens,
        @Schema(description = "e.g. Current core: 7,983 tokens; target: 5,000") String budget,
        @JsonProperty("ledger_size_at_start") int ledgerSizeAtStart,
        Counts counts,
        @JsonProperty("protected_ids") List<String> protectedIds,
        @Nullable @JsonProperty("completed_seq") Long completedSeq,
        @Nullable @JsonProperty("completed_at") String completedAt,
        @Nullable @JsonProperty("completed_by") ActorJson completedBy,
        @Nullable @Schema(description = "e.g. Compressed 20 -> 3; saved ~800 tokens; protected 2 constitutional memories")
        String summary,
        @Nullable @JsonProperty("agent_summary") String agentSummary,
        @Nullable @JsonProperty("journal_id") String journalId,
        @Nullable @JsonProperty("tokens_after") Integer tokensAfter,
        @Schema(description = "While open: the active core-tier memories (blocks excluded); empty once completed and in listings")
        List<LedgerEntryJson> ledger,
        @Schema(description = "The session's edits with before/after; empty in listings") List<RefinementEditJson> edits) {

    /** What the session did so far. */
    @Serdeable
    @Schema(name = "RefinementCounts")
    public record Counts(int consolidations, @JsonProperty("consolidated_inputs") int consolidatedInputs, int updates,
                         int deletions, int protections, @JsonProperty("duplicates_removed") int duplicatesRemoved) {

        static Counts of(RefinementCounts c) {
            return new Counts(c.getConsolidations(), c.getConsolidatedInputs(), c.getUpdates(), c.getDeletions(),
                    c.getProtections(), c.getDuplicatesRemoved());
        }
    }

    public static RefinementSessionJson of(SessionView view) {
        return of(view.session(), view.coreTokens(), view.budget(),
                view.ledger().stream().map(LedgerEntryJson::of).toList(),
                view.edits().stream().map(RefinementEditJson::of).toList());
    }

    private static RefinementSessionJson of(RefinementSession s, int coreTokens, String budget,
                                            List<LedgerEntryJson> ledger, List<RefinementEditJson> edits) {
        return new RefinementSessionJson(s.getSessionId(), s.getSpace(), s.getCompletedSeq() == null ? "open" : "completed",
                Enums.json(s.getTrigger()), s.getReason(), s.getStartedSeq(), iso(s.getStartedAt()),
                ActorJson.of(s.getStartedBy()), s.getCoreTokens(), s.getTargetTokens(), coreTokens, budget,
                s.getLedgerSize(), Counts.of(s.getCounts()), List.copyOf(s.getProtectedIds()), s.getCompletedSeq(),
                iso(s.getCompletedAt()), ActorJson.of(s.getCompletedBy()), s.getSummary(), s.getAgentSummary(),
                s.getJournalId(), s.getTokensAfter(), ledger, edits);
    }

    private static String iso(Instant instant) {
        return instant == null ? null : instant.toString();
    }
}
