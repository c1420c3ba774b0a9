package io.memorychain.api.config;

import io.memorychain.projector.proposal.ConflictBand;
import io.micronaut.context.annotation.ConfigurationProperties;
import io.micronaut.core.annotation.Nullable;
import jakarta.validation.constraints.DecimalMax;
import jakarta.validation.constraints.DecimalMin;

/** {@code memory.proposals.*}: the conflict band of sub-agent proposals (docs/architecture.md §10). */
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
        return new ConflictBand(conflictMin != null ? conflictMin : ConflictBand.forModel(modelId).min(), conflictMax);
    }
}
