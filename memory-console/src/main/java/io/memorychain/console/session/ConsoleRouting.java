package io.memorychain.console.session;

import io.memorychain.api.auth.ApiKeys;
import io.memorychain.api.auth.Principal;
import io.memorychain.api.config.MemoryConfig;
import io.memorychain.api.error.ApiException;
import io.memorychain.api.request.Spaces;
import io.memorychain.api.routing.OwnerForwarder;
import io.memorychain.api.routing.OwnerGuard;
import io.memorychain.api.routing.RoutingHeaders;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.http.HttpHeaders;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.MutableHttpResponse;
import io.micronaut.http.annotation.ResponseFilter;
import io.micronaut.http.annotation.ServerFilter;
import java.io.IOException;
import java.net.URI;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The console's pages of a space are answered by the instance that serves the space, as REST calls are (docs/console.md
 * "Several instances"): the instance the browser reached keeps the session and forwards a page or form of a space
 * another instance serves there once, with the session's API key as {@code Authorization: Bearer} and its CSRF token in
 * {@link #CSRF}, never the cookie. The owner answers it as a {@linkplain ConsoleSession#forwarded() one-request
 * session}: it authenticates the key itself and checks a form's token against the forwarded one. The one-time message a
 * change leaves travels in {@link #FLASH}: back into the browser's session with the change's redirect, and to the owner
 * again with the page that shows it. When the owner cannot be reached, the page says which instance serves the space
 * (421 NOT_OWNER) as before.
 */
@ServerFilter({"/console", "/console/**"})
public class ConsoleRouting {

    /** On a forwarded console request: the CSRF token of the browser's session on the forwarding instance. */
    public static final String CSRF = "X-Memory-Console-Csrf";
    /**
     * The session's one-time message, {@code ok|} or {@code error|} and the URL-encoded text: on a forwarded request
     * while it waits to be shown, and on the owner's answer while it still does.
     */
    public static final String FLASH = "X-Memory-Console-Flash";

    private static final Logger log = LoggerFactory.getLogger(ConsoleRouting.class);
    private static final Pattern SPACE_PAGE = Pattern.compile("^/console(?:/admin)?/s/([^/]+)(?:/.*)?$");
    /**
     * Never sent to the owner: the session cookie stays here; the browser's origin is this instance's, not the owner's.
     */
    private static final Set<String> NOT_FORWARDED = Set.of("cookie", "origin", "referer", "set-cookie");

    private final OwnerGuard owners;
    private final OwnerForwarder forwarder;
    private final ApiKeys keys;
    private final ConsoleSessions sessions;
    private final Duration bodyLimit;

    public ConsoleRouting(
            OwnerGuard owners, OwnerForwarder forwarder, ApiKeys keys, ConsoleSessions sessions, MemoryConfig config) {
        this.owners = owners;
        this.forwarder = forwarder;
        this.keys = keys;
        this.sessions = sessions;
        this.bodyLimit = config.getWriteTimeout();
    }

    /**
     * The owner's answer to a page or form of a space another instance serves, or null when this instance answers (it
     * serves the space, none can now, the request was already forwarded, or the owner did not answer).
     */
    @Nullable
    MutableHttpResponse<byte[]> route(HttpRequest<?> request, ConsoleSession session) throws InterruptedException {
        String space = spaceOf(request);
        if (space == null || request.getHeaders().contains(RoutingHeaders.FORWARDED_BY)) {
            return null;
        }
        Optional<URI> owner = owners.ownerUrl(space);
        if (owner.isEmpty()) {
            return null;
        }
        Map<String, String> headers =
                new HashMap<>(Map.of(HttpHeaders.AUTHORIZATION, "Bearer " + session.apiKey(), CSRF, session.csrf()));
        ConsoleSession.Flash pending = session.takeFlash();
        // always set: a browser's own header of that name must not reach the owner as this session's message
        headers.put(FLASH, pending != null && pending.message() != null ? encode(pending) : "");
        MutableHttpResponse<byte[]> answer;
        try {
            answer = forwarder.forward(
                    request, OwnerForwarder.body(request, bodyLimit), owner.get(), headers, NOT_FORWARDED);
        } catch (IOException e) {
            log.info(
                    "The console could not forward {} to {}, the instance serving space {}: {}",
                    request.getPath(),
                    owner.get(),
                    space,
                    e.toString());
            session.flash(pending);
            return null;
        }
        String flash = answer.getHeaders().get(FLASH);
        if (flash != null) {
            session.flash(decode(flash));
            answer.getHeaders().remove(FLASH);
        }
        return answer;
    }

    /**
     * The one-request session of a console request another instance forwarded (its key and CSRF token in the headers),
     * or empty when the request carries none or its key is no longer accepted.
     */
    Optional<ConsoleSession> forwardedSession(HttpRequest<?> request) {
        String csrf = request.getHeaders().get(CSRF);
        String authorization = request.getHeaders().get(HttpHeaders.AUTHORIZATION);
        if (csrf == null
                || authorization == null
                || !request.getHeaders().contains(RoutingHeaders.FORWARDED_BY)
                || !authorization.startsWith("Bearer ")) {
            return Optional.empty();
        }
        try {
            Principal principal = keys.authenticate(authorization);
            ConsoleSession session = sessions.forwarded(authorization.substring("Bearer ".length()), csrf, principal);
            String flash = request.getHeaders().get(FLASH);
            if (flash != null && !flash.isEmpty()) {
                session.flash(decode(flash));
            }
            return Optional.of(session);
        } catch (ApiException e) {
            return Optional.empty();
        }
    }

    /** The one-time message a forwarded change left, back to the instance that holds the browser's session. */
    @ResponseFilter
    public void returnFlash(HttpRequest<?> request, MutableHttpResponse<?> response) {
        request.getAttribute(SessionFilter.ATTRIBUTE, ConsoleSession.class)
                .filter(ConsoleSession::forwarded)
                .map(ConsoleSession::takeFlash)
                .filter(flash -> flash.message() != null)
                .ifPresent(flash -> response.header(FLASH, encode(flash)));
    }

    @Nullable
    private static String spaceOf(HttpRequest<?> request) {
        Matcher path = SPACE_PAGE.matcher(request.getPath());
        if (!path.matches()) {
            return null;
        }
        try {
            return Spaces.require(path.group(1));
        } catch (ApiException e) {
            return null; // the page answers its own 400
        }
    }

    static String encode(ConsoleSession.Flash flash) {
        return (flash.error() ? "error|" : "ok|") + URLEncoder.encode(flash.message(), StandardCharsets.UTF_8);
    }

    static ConsoleSession.Flash decode(String header) {
        int bar = header.indexOf('|');
        String message = URLDecoder.decode(header.substring(bar + 1), StandardCharsets.UTF_8);
        return new ConsoleSession.Flash(message, header.startsWith("error|"), null);
    }
}
