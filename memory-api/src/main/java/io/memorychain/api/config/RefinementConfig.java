package io.memorychain.api.config;

import io.micronaut.context.annotation.ConfigurationProperties;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;

/** {@code memory.refinement.*}: refinement sessions started over the API (seed 003). */
@ConfigurationProperties("memory.refinement")
public class RefinementConfig {

    /** Core-memory token budget a session asks the agent to reach when the start request names none. */
    @Min(1)
    @Max(1_000_000)
    private int targetTokens = 5_000;

    public int getTargetTokens() {
        return targetTokens;
    }

    public void setTargetTokens(int targetTokens) {
        this.targetTokens = targetTokens;
    }
}
