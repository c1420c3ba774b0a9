package io.memorychain.api.config;

import io.memorychain.avro.Confidence;
import io.memorychain.avro.ReviewMode;
import io.memorychain.domain.review.ReviewPolicy;
import io.memorychain.projector.proposal.ConflictBand;
import io.micronaut.context.annotation.ConfigurationProperties;
import io.micronaut.core.annotation.Nullable;
import jakarta.validation.constraints.DecimalMax;
import jakarta.validation.constraints.DecimalMin;
import jakarta.validation.constraints.NotNull;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * {@code memory.proposals.*}: the conflict band of sub-agent proposals and their review modes per space and per
 * proposer key (docs/architecture.md §10, seed 001 §13.4), which the sequencer applies when a proposal is submitted.
 */
@ConfigurationProperties("memory.proposals")
public class ProposalConfig {

    /**
     * Lowest cosine similarity at which two texts with different content are flagged as a conflict (same subject);
     * unset: the value calibrated for the embedding model (0.86 for e5-small, 0.83 for bge-small, 0.7 for minilm; see
     * {@link ConflictBand} and memory-api/README.md for the measurements).
     */
    @Nullable
    @DecimalMin("0.01")
    @DecimalMax("1")
    private Double conflictMin;

    /** Above this similarity two texts count as duplicates, not conflicts (default 1: only equal normalized texts). */
    @DecimalMin("0.01")
    @DecimalMax("1")
    private double conflictMax = ConflictBand.DEFAULT_MAX;

    /**
     * batch (default: the main agent reviews), manual (a user decides) or auto_commit, for spaces without an override.
     */
    @NotNull
    private String reviewMode = "batch";

    /** Per-space review modes, each {@code space=batch|manual|auto_commit}. */
    @NotNull
    private List<String> spaceReviewModes = List.of();

    /**
     * Per-proposer review modes, each {@code agent-id=batch|manual|auto_commit}: the id a sub-agent key speaks as (its
     * actor id); it wins over the space's mode.
     */
    @NotNull
    private List<String> proposerReviewModes = List.of();

    /** Proposer ids (sub-agent keys' actor ids) whose proposals may be auto-committed; nobody by default. */
    @NotNull
    private List<String> trustedProposers = List.of();

    /** The lowest confidence (high, medium, low) an auto-committed proposal may have; default high. */
    @NotNull
    private String autoCommitMinConfidence = "high";

    /** The review policy; IllegalArgumentException naming the property when a value is invalid (startup fails). */
    public ReviewPolicy reviewPolicy() {
        ReviewMode mode;
        try {
            mode = ReviewPolicy.parseMode(reviewMode);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("memory.proposals.review-mode: " + e.getMessage());
        }
        Confidence min;
        try {
            min = Confidence.valueOf(autoCommitMinConfidence.strip().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("memory.proposals.auto-commit-min-confidence: high, medium or low, not '"
                    + autoCommitMinConfidence + "'");
        }
        return new ReviewPolicy(
                mode,
                overrides("space-review-modes", spaceReviewModes),
                overrides("proposer-review-modes", proposerReviewModes),
                Set.copyOf(trustedProposers.stream().map(String::strip).toList()),
                min);
    }

    private static Map<String, ReviewMode> overrides(String property, List<String> entries) {
        Map<String, ReviewMode> modes = new LinkedHashMap<>();
        for (String entry : entries) {
            try {
                Map.Entry<String, ReviewMode> e = ReviewPolicy.parseOverride(entry);
                modes.put(e.getKey(), e.getValue());
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("memory.proposals." + property + ": " + e.getMessage());
            }
        }
        return modes;
    }

    public String getReviewMode() {
        return reviewMode;
    }

    public void setReviewMode(String reviewMode) {
        this.reviewMode = reviewMode;
    }

    public List<String> getSpaceReviewModes() {
        return spaceReviewModes;
    }

    public void setSpaceReviewModes(List<String> spaceReviewModes) {
        this.spaceReviewModes = spaceReviewModes;
    }

    public List<String> getProposerReviewModes() {
        return proposerReviewModes;
    }

    public void setProposerReviewModes(List<String> proposerReviewModes) {
        this.proposerReviewModes = proposerReviewModes;
    }

    public List<String> getTrustedProposers() {
        return trustedProposers;
    }

    public void setTrustedProposers(List<String> trustedProposers) {
        this.trustedProposers = trustedProposers;
    }

    public String getAutoCommitMinConfidence() {
        return autoCommitMinConfidence;
    }

    public void setAutoCommitMinConfidence(String autoCommitMinConfidence) {
        this.autoCommitMinConfidence = autoCommitMinConfidence;
    }

    public Double getConflictMin() {
        return conflictMin;
    }

    public void setConflictMin(@Nullable Double conflictMin) {
        this.conflictMin = conflictMin;
    }

    public double getConflictMax() {
        return conflictMax;
    }

    public void setConflictMax(double conflictMax) {
        this.conflictMax = conflictMax;
    }

    /** The band for the embedder's model; min above max fails at startup with the band's message. */
    public ConflictBand band(String modelId) {
        return new ConflictBand(
                conflictMin != null
                        ? conflictMin
                        : ConflictBand.forModel(modelId).min(),
                conflictMax);
    }
}
