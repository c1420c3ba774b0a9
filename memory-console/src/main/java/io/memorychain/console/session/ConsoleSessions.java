package io.memorychain.console.session;

import io.memorychain.api.auth.Principal;
import io.memorychain.console.ConsoleConfig;
import jakarta.inject.Singleton;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Comparator;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The console's server-side sessions: in memory (a restart signs everyone out), bounded by
 * {@code memory.console.max-sessions}, each ending after {@code memory.console.idle-timeout} unused.
 */
@Singleton
public class ConsoleSessions {

    private static final Base64.Encoder TOKEN = Base64.getUrlEncoder().withoutPadding();

    private final Map<String, ConsoleSession> byId = new ConcurrentHashMap<>();
    private final SecureRandom random = new SecureRandom();
    private final Duration idle;
    private final int max;
    private final Clock clock;

    public ConsoleSessions(ConsoleConfig config) {
        this(config, Clock.systemUTC());
    }

    ConsoleSessions(ConsoleConfig config, Clock clock) {
        this.idle = config.getIdleTimeout();
        this.max = config.getMaxSessions();
        this.clock = clock;
    }

    /** A new session for a key that just authenticated as {@code principal}. */
    public ConsoleSession open(String apiKey, Principal principal) {
        Instant now = clock.instant();
        byId.values().removeIf(s -> expired(s, now));
        while (byId.size() >= max) {
            byId.values().stream()
                    .min(Comparator.comparing(ConsoleSession::lastSeen))
                    .ifPresent(oldest -> byId.remove(oldest.id()));
        }
        ConsoleSession session = new ConsoleSession(token(), token(), apiKey, principal, now, false);
        byId.put(session.id(), session);
        return session;
    }

    /**
     * A session for one request another instance forwarded on behalf of its own session (same key, same CSRF token, so
     * the forms this instance renders post back through that instance); never stored.
     */
    ConsoleSession forwarded(String apiKey, String csrf, Principal principal) {
        return new ConsoleSession(token(), csrf, apiKey, principal, clock.instant(), true);
    }

    /** The live session of a cookie value; an idle one ends here. */
    public Optional<ConsoleSession> find(String id) {
        if (id == null) {
            return Optional.empty();
        }
        ConsoleSession s = byId.get(id);
        if (s != null && expired(s, clock.instant())) {
            byId.remove(id);
            return Optional.empty();
        }
        return Optional.ofNullable(s);
    }

    /** Marks the session used now by the principal its key resolves to now. */
    public void touch(ConsoleSession session, Principal current) {
        session.seen(current, clock.instant());
    }

    public void end(String id) {
        if (id != null) {
            byId.remove(id);
        }
    }

    public int size() {
        return byId.size();
    }

    private boolean expired(ConsoleSession s, Instant now) {
        return s.lastSeen().plus(idle).isBefore(now);
    }

    /** 256 random bits, URL-safe. */
    private String token() {
        byte[] bytes = new byte[32];
        random.nextBytes(bytes);
        return TOKEN.encodeToString(bytes);
    }
}
