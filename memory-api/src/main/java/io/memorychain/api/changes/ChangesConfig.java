package io.memorychain.api.changes;

import io.micronaut.context.annotation.ConfigurationProperties;
import java.time.Duration;

/** {@code memory.changes.*}: the server-sent events stream of a space's changes ({@link ChangeEventsController}). */
@ConfigurationProperties("memory.changes")
class ChangesConfig {

    /**
     * How long a stream may stay silent before it sends a {@code : keep-alive} comment, so that proxies and load
     * balancers that close idle connections keep it open (default 15 s; most close after 30 to 60 s).
     */
    private Duration heartbeat = Duration.ofSeconds(15);

    /** The reconnection delay the stream announces to clients ({@code retry:}), default 2 s. */
    private Duration retry = Duration.ofSeconds(2);

    public Duration getHeartbeat() {
        return heartbeat;
    }

    public void setHeartbeat(Duration heartbeat) {
        if (heartbeat == null || heartbeat.isNegative() || heartbeat.isZero()) {
            throw new IllegalArgumentException("memory.changes.heartbeat must be positive, was " + heartbeat);
        }
        this.heartbeat = heartbeat;
    }

    public Duration getRetry() {
        return retry;
    }

    public void setRetry(Duration retry) {
        if (retry == null || retry.isNegative()) {
            throw new IllegalArgumentException("memory.changes.retry must be 0 or more, was " + retry);
        }
        this.retry = retry;
    }
}
