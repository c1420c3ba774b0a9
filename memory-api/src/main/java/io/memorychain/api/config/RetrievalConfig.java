package io.memorychain.api.config;

import io.memorychain.projector.linker.LinkerSettings;
import io.memorychain.projector.retrieval.DecayModel;
import io.micronaut.context.annotation.ConfigurationProperties;
import jakarta.validation.constraints.DecimalMax;
import jakarta.validation.constraints.DecimalMin;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;

/** {@code memory.retrieval.*}: decay and the in-process linker. */
@ConfigurationProperties("memory.retrieval")
public class RetrievalConfig {

    /**
     * Decay rate of docs/architecture.md §7 (per day since the last access): 0.03 is a half-life of about 23 days; an
     * unread memory then turns dormant after about two months and archived (hidden from search) after about three.
     * 0 disables decay.
     */
    @DecimalMin("0")
    @DecimalMax("1")
    private double decayLambda = DecayModel.DEFAULT_LAMBDA;

    /** Run the linker (docs/architecture.md §6) in this process; off when a memory-worker runs it. */
    private boolean linkerEnabled = true;

    /** Neighbours the linker links each new semantic memory to. */
    @Min(1)
    @Max(100)
    private int linkTopK = LinkerSettings.DEFAULT_TOP_K;

    /** Lowest cosine similarity that makes a linker edge (see memory-worker/README.md for the measurements). */
    @DecimalMin("0.01")
    @DecimalMax("1")
    private double linkMin = LinkerSettings.DEFAULT_LINK_MIN;

    public double getDecayLambda() {
        return decayLambda;
    }

    public void setDecayLambda(double decayLambda) {
        this.decayLambda = decayLambda;
    }

    public boolean isLinkerEnabled() {
        return linkerEnabled;
    }

    public void setLinkerEnabled(boolean linkerEnabled) {
        this.linkerEnabled = linkerEnabled;
    }

    public int getLinkTopK() {
        return linkTopK;
    }

    public void setLinkTopK(int linkTopK) {
        this.linkTopK = linkTopK;
    }

    public double getLinkMin() {
        return linkMin;
    }

    public void setLinkMin(double linkMin) {
        this.linkMin = linkMin;
    }

    /** The linker's settings for the embedder's model, or null when the linker is off. */
    public LinkerSettings linker(String modelId) {
        return linkerEnabled ? new LinkerSettings(linkTopK, linkMin, modelId) : null;
    }
}
