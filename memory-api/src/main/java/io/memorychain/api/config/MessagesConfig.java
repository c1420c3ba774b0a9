package io.memorychain.api.config;

import io.micronaut.context.annotation.ConfigurationProperties;
import io.micronaut.core.annotation.Nullable;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import java.time.Duration;

/**
 * {@code memory.messages.*}: the message endpoint (docs/architecture.md §20): triggers, routing, forget confirmations
 * and multi-fact extraction. The model is {@code memory.llm.*} ({@link LlmModelConfig}); without one a remember stores
 * the user's words and multi-fact extraction is skipped.
 */
@ConfigurationProperties("memory.messages")
public class MessagesConfig {

    /** Messages longer than this (characters) get the multi-fact extraction pass (seed 004 §13). */
    @Min(1)
    private int multiFactMinChars = 280;

    /** Extracted facts written per message, at most. */
    @Min(0)
    @Max(5)
    private int maxFactWrites = 3;

    /** Extracted facts written per user (user_id, else the caller) per UTC day; counted in this process. */
    @Min(0)
    private int dailyFactCap = 50;

    /** Matches a forget lists (and its confirmation covers) at most. */
    @Min(1)
    @Max(50)
    private int forgetMatches = 5;

    /** How long a forget confirmation token is valid. */
    @NotNull
    private Duration confirmationTtl = Duration.ofMinutes(10);

    /**
     * The HMAC secret of forget confirmation tokens (at least 32 characters). Unset: a random secret per process, so a
     * token is confirmed only by the instance that issued it and not after a restart.
     */
    @Nullable
    private String confirmationSecret;

    public int getMultiFactMinChars() {
        return multiFactMinChars;
    }

    public void setMultiFactMinChars(int multiFactMinChars) {
        this.multiFactMinChars = multiFactMinChars;
    }

    public int getMaxFactWrites() {
        return maxFactWrites;
    }

    public void setMaxFactWrites(int maxFactWrites) {
        this.maxFactWrites = maxFactWrites;
    }

    public int getDailyFactCap() {
        return dailyFactCap;
    }

    public void setDailyFactCap(int dailyFactCap) {
        this.dailyFactCap = dailyFactCap;
    }

    public int getForgetMatches() {
        return forgetMatches;
    }

    public void setForgetMatches(int forgetMatches) {
        this.forgetMatches = forgetMatches;
    }

    public Duration getConfirmationTtl() {
        return confirmationTtl;
    }

    public void setConfirmationTtl(Duration confirmationTtl) {
        this.confirmationTtl = confirmationTtl;
    }

    public String getConfirmationSecret() {
        return confirmationSecret;
    }

    public void setConfirmationSecret(String confirmationSecret) {
        this.confirmationSecret = confirmationSecret;
    }
}
