package io.memorychain.api.config;

import io.memorychain.jobs.refine.RefineSettings;
import io.micronaut.context.annotation.ConfigurationProperties;
import jakarta.validation.constraints.NotNull;
import java.time.Duration;

/**
 * {@code memory.refinement.agent.*}: the refinement agent job (docs/architecture.md §9, "Run by the system") in this
 * process. Every {@code check-interval} it looks at the open session of each space this instance holds: a session open
 * longer than {@code session-timeout} (wall clock against the session's {@code started_at}) is closed with a reason;
 * otherwise, when the space has a model ({@code memory.llm.*}, per space {@code memory.llm.agents.<space>.*}), the
 * model runs it as an agent. Without a model the job runs no session and {@code /health} shows
 * {@code workers.refinement_agent: skipped: no model}.
 */
@ConfigurationProperties("memory.refinement.agent")
public class RefinementAgentConfig {

    /** Run the job (timeout closes and agent runs) in this process. */
    private boolean enabled = true;

    @NotNull
    private Duration checkInterval = Duration.ofSeconds(30);
    /** After a run that left a session open (model failure, bound reached), wait this long before running it again. */
    @NotNull
    private Duration retryInterval = Duration.ofMinutes(15);

    @NotNull
    private Duration sessionTimeout = RefineSettings.DEFAULT_TIMEOUT;

    private int maxSteps = RefineSettings.DEFAULT_MAX_STEPS;
    private int maxTokens = RefineSettings.DEFAULT_MAX_TOKENS;
    private int stepMaxTokens = RefineSettings.DEFAULT_STEP_MAX_TOKENS;
    private boolean allowProtect = true;

    /** The agent's settings; IllegalArgumentException naming the property when invalid. */
    public RefineSettings settings() {
        try {
            return new RefineSettings(maxSteps, maxTokens, stepMaxTokens, sessionTimeout, allowProtect);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("memory.refinement.agent." + e.getMessage(), e);
        }
    }

    public boolean isEnabled() {
        return enabled;
    }

    public void setEnabled(boolean enabled) {
        this.enabled = enabled;
    }

    public Duration getCheckInterval() {
        return checkInterval;
    }

    public void setCheckInterval(Duration checkInterval) {
        this.checkInterval = checkInterval;
    }

    public Duration getRetryInterval() {
        return retryInterval;
    }

    public void setRetryInterval(Duration retryInterval) {
        this.retryInterval = retryInterval;
    }

    public Duration getSessionTimeout() {
        return sessionTimeout;
    }

    public void setSessionTimeout(Duration sessionTimeout) {
        this.sessionTimeout = sessionTimeout;
    }

    public int getMaxSteps() {
        return maxSteps;
    }

    public void setMaxSteps(int maxSteps) {
        this.maxSteps = maxSteps;
    }

    public int getMaxTokens() {
        return maxTokens;
    }

    public void setMaxTokens(int maxTokens) {
        this.maxTokens = maxTokens;
    }

    public int getStepMaxTokens() {
        return stepMaxTokens;
    }

    public void setStepMaxTokens(int stepMaxTokens) {
        this.stepMaxTokens = stepMaxTokens;
    }

    public boolean isAllowProtect() {
        return allowProtect;
    }

    public void setAllowProtect(boolean allowProtect) {
        this.allowProtect = allowProtect;
    }
}
