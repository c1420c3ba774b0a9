package io.memorychain.console.session;

import io.memorychain.api.auth.Principal;
import java.time.Instant;

/**
 * One signed-in browser: a random id (the cookie), the API key it signed in with (kept in memory only, to check it
 * again on every request as the REST filter does), the principal it resolved to, a CSRF token, and a one-time message.
 * A session {@link #forwarded() forwarded} from another instance lives for one request: the instance the browser
 * reached keeps the real one.
 */
public final class ConsoleSession {

    /** A message shown once on the next page (PRG), and a secret shown once (an issued key). */
    public record Flash(String message, boolean error, String secret) {}

    private final String id;
    private final String csrf;
    private final String apiKey;
    private final boolean forwarded;
    private volatile Principal principal;
    private volatile Instant lastSeen;
    private volatile Flash flash;

    ConsoleSession(String id, String csrf, String apiKey, Principal principal, Instant now, boolean forwarded) {
        this.id = id;
        this.csrf = csrf;
        this.apiKey = apiKey;
        this.forwarded = forwarded;
        this.principal = principal;
        this.lastSeen = now;
    }

    public String id() {
        return id;
    }

    public String csrf() {
        return csrf;
    }

    String apiKey() {
        return apiKey;
    }

    /** Whether this session stands for one request forwarded by the instance that holds the browser's session. */
    boolean forwarded() {
        return forwarded;
    }

    public Principal principal() {
        return principal;
    }

    Instant lastSeen() {
        return lastSeen;
    }

    void seen(Principal current, Instant now) {
        this.principal = current;
        this.lastSeen = now;
    }

    public void flash(Flash next) {
        this.flash = next;
    }

    /** The pending message, once. */
    public Flash takeFlash() {
        Flash f = flash;
        flash = null;
        return f;
    }
}
