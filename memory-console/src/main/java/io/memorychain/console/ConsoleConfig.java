package io.memorychain.console;

import io.micronaut.context.annotation.ConfigurationProperties;
import java.time.Duration;

/** {@code memory.console.*}: the web console's sessions. */
@ConfigurationProperties("memory.console")
public class ConsoleConfig {

    /** A session unused this long ends; the next request signs in again. */
    private Duration idleTimeout = Duration.ofMinutes(15);
    /** Open sessions kept at most; past it the least recently used one ends. */
    private int maxSessions = 1_000;

    public Duration getIdleTimeout() {
        return idleTimeout;
    }

    public void setIdleTimeout(Duration idleTimeout) {
        if (idleTimeout == null || idleTimeout.isNegative() || idleTimeout.isZero()) {
            throw new IllegalArgumentException("memory.console.idle-timeout must be positive");
        }
        this.idleTimeout = idleTimeout;
    }

    public int getMaxSessions() {
        return maxSessions;
    }

    public void setMaxSessions(int maxSessions) {
        if (maxSessions < 1) {
            throw new IllegalArgumentException("memory.console.max-sessions must be at least 1");
        }
        this.maxSessions = maxSessions;
    }
}
