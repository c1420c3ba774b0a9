package io.memorychain.api.quota;

import io.micronaut.context.annotation.ConfigurationProperties;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.Positive;

/**
 * {@code memory.quotas.*}: what one API key may ask of this instance. Requests of every transport (REST, gRPC, MCP)
 * draw from a token bucket per key ({@code requests-per-second}, refilled continuously, holding at most {@code burst});
 * writes (the operations that publish a request to the chain) also count against a budget per key and UTC day
 * ({@code writes-per-day}, 0 for none). Past either, the call is refused with 429 {@code RATE_LIMITED} and
 * {@code Retry-After}. Keys named under {@code memory.quotas.keys.<key name>} get their own figures ({@link KeyQuota}).
 * Counts are kept per instance, in memory: a restart starts them again.
 */
@ConfigurationProperties("memory.quotas")
class QuotaConfig {

    private boolean enabled = true;

    @Positive
    private double requestsPerSecond = 100;

    @Min(1)
    private int burst = 1_000;

    @Min(0)
    private long writesPerDay;

    public boolean isEnabled() {
        return enabled;
    }

    public void setEnabled(boolean enabled) {
        this.enabled = enabled;
    }

    public double getRequestsPerSecond() {
        return requestsPerSecond;
    }

    public void setRequestsPerSecond(double requestsPerSecond) {
        this.requestsPerSecond = requestsPerSecond;
    }

    public int getBurst() {
        return burst;
    }

    public void setBurst(int burst) {
        this.burst = burst;
    }

    public long getWritesPerDay() {
        return writesPerDay;
    }

    public void setWritesPerDay(long writesPerDay) {
        this.writesPerDay = writesPerDay;
    }

    Limits limits() {
        return new Limits(requestsPerSecond, burst, writesPerDay);
    }
}
