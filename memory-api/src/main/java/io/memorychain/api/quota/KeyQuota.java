package io.memorychain.api.quota;

import io.micronaut.context.annotation.EachProperty;
import io.micronaut.context.annotation.Parameter;

/**
 * {@code memory.quotas.keys.<key name>.*}: one key's own figures; what is not set is the default of
 * {@link QuotaConfig}. The name is the key's owner as issued ({@code GET /v1/keys} lists them).
 */
@EachProperty("memory.quotas.keys")
class KeyQuota {

    private final String name;
    private Double requestsPerSecond;
    private Integer burst;
    private Long writesPerDay;

    public KeyQuota(@Parameter String name) {
        this.name = name;
    }

    public String getName() {
        return name;
    }

    public Double getRequestsPerSecond() {
        return requestsPerSecond;
    }

    public void setRequestsPerSecond(Double requestsPerSecond) {
        this.requestsPerSecond = requestsPerSecond;
    }

    public Integer getBurst() {
        return burst;
    }

    public void setBurst(Integer burst) {
        this.burst = burst;
    }

    public Long getWritesPerDay() {
        return writesPerDay;
    }

    public void setWritesPerDay(Long writesPerDay) {
        this.writesPerDay = writesPerDay;
    }

    Limits over(Limits defaults) {
        return new Limits(
                requestsPerSecond == null ? defaults.requestsPerSecond() : requestsPerSecond,
                burst == null ? defaults.burst() : burst,
                writesPerDay == null ? defaults.writesPerDay() : writesPerDay);
    }
}
