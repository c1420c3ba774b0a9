package io.memorychain.api.config;

import io.memorychain.projector.proposal.ConflictBand;
import io.micronaut.context.annotation.ConfigurationProperties;
import jakarta.validation.constraints.DecimalMax;
import jakarta.validation.constraints.DecimalMin;

/** {@code memory.proposals.*}: the conflict band of sub-agent proposals (docs/architecture.md §10). */
@ConfigurationProperties("memory.proposals")
public class ProposalConfig {

    /**
     * Lowest cosine similarity at which two texts with different content are flagged as a conflict (same subject);
     * see {@link ConflictBand} for the measurements behind the default.
     */
    @DecimalMin("0.01")
    @DecimalMax("1")
    private double conflictMin = ConflictBand.DEFAULT_MIN;

    /** Above this similarity two texts count as duplicates, not conflicts (default 1: only equal normalized texts). */
    @DecimalMin("0.01")
    @DecimalMax("1")
    private double conflictMax = ConflictBand.DEFAULT_MAX;

    public double getConflictMin() {
        return conflictMin;
    }

    public void setConflictMin(double conflictMin) {
        this.conflictMin = conflictMin;
    }

    public double getConflictMax() {
        return conflictMax;
    }

    public void setConflictMax(double conflictMax) {
        this.conflictMax = conflictMax;
    }

    /** The band; min above max fails at startup with the band's message. */
    public ConflictBand band() {
        return new ConflictBand(conflictMin, conflictMax);
    }
}
