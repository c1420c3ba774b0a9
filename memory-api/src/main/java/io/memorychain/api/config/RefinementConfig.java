package io.memorychain.api.config;

import io.memorychain.domain.Rules;
import io.memorychain.projector.refinement.RefinementTriggerSettings;
import io.micronaut.context.annotation.ConfigurationProperties;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Optional;

/**
 * {@code memory.refinement.*}: refinement sessions (docs/architecture.md §9), started over the API or by the refinement
 * trigger that runs in this process (token budget and schedule; off when a {@code memory-worker refine} runs it
 * instead).
 */
@ConfigurationProperties("memory.refinement")
public class RefinementConfig {

    /** Core-memory token budget a session asks the agent to reach when the start request names none. */
    @Min(1)
    @Max(1_000_000)
    private int targetTokens = Rules.DEFAULT_TARGET_TOKENS;

    /** Run the refinement trigger in this process. */
    private boolean triggerEnabled = true;

    /** Core tokens over which the trigger starts a session (trigger token_budget). */
    @Min(1)
    private int triggerThresholdTokens = RefinementTriggerSettings.DEFAULT_THRESHOLD_TOKENS;

    /** ISO-8601 period after which a space with core memories and no session gets one (trigger schedule), or off. */
    @NotBlank
    private String triggerSchedule = RefinementTriggerSettings.DEFAULT_SCHEDULE.toString();

    /** How often the schedule is checked. */
    @NotNull
    private Duration triggerCheckInterval = RefinementTriggerSettings.DEFAULT_CHECK_INTERVAL;

    /** The trigger's settings, or empty when it is off; IllegalArgumentException naming the property when invalid. */
    public Optional<RefinementTriggerSettings> trigger() {
        if (!triggerEnabled) {
            return Optional.empty();
        }
        Duration schedule;
        try {
            schedule = "off".equalsIgnoreCase(triggerSchedule) ? null : Duration.parse(triggerSchedule);
        } catch (DateTimeParseException e) {
            throw new IllegalArgumentException(
                    "memory.refinement.trigger-schedule must be an ISO-8601 period such as P7D, " + "or off, not '"
                            + triggerSchedule + "'");
        }
        return Optional.of(new RefinementTriggerSettings(
                triggerThresholdTokens,
                targetTokens,
                schedule,
                triggerCheckInterval,
                RefinementTriggerSettings.DEFAULT_PENDING_TIMEOUT));
    }

    public int getTargetTokens() {
        return targetTokens;
    }

    public void setTargetTokens(int targetTokens) {
        this.targetTokens = targetTokens;
    }

    public boolean isTriggerEnabled() {
        return triggerEnabled;
    }

    public void setTriggerEnabled(boolean triggerEnabled) {
        this.triggerEnabled = triggerEnabled;
    }

    public int getTriggerThresholdTokens() {
        return triggerThresholdTokens;
    }

    public void setTriggerThresholdTokens(int triggerThresholdTokens) {
        this.triggerThresholdTokens = triggerThresholdTokens;
    }

    public String getTriggerSchedule() {
        return triggerSchedule;
    }

    public void setTriggerSchedule(String triggerSchedule) {
        this.triggerSchedule = triggerSchedule;
    }

    public Duration getTriggerCheckInterval() {
        return triggerCheckInterval;
    }

    public void setTriggerCheckInterval(Duration triggerCheckInterval) {
        this.triggerCheckInterval = triggerCheckInterval;
    }
}
