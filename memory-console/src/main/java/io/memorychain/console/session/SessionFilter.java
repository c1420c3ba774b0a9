package io.memorychain.console.session;

import io.memorychain.api.auth.ApiKeys;
import io.memorychain.api.auth.KeyStoreUnavailableException;
import io.memorychain.api.auth.Principal;
import io.memorychain.api.error.ApiException;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.HttpStatus;
import io.micronaut.http.MediaType;
import io.micronaut.http.MutableHttpResponse;
import io.micronaut.http.annotation.RequestFilter;
import io.micronaut.http.annotation.ServerFilter;
import io.micronaut.http.cookie.Cookie;
import io.micronaut.http.cookie.SameSite;
import io.micronaut.scheduling.TaskExecutors;
import io.micronaut.scheduling.annotation.ExecuteOn;
import java.net.URI;
import java.util.Optional;

/**
 * Every console page but the sign-in page and the static assets needs a live session. Its API key is checked again on
 * every request, through the same {@link ApiKeys#authenticate} as the REST filter, so a revoked key ends its session at
 * the next request (the key store sees a revocation within 2 s). A page of a space another instance serves goes there
 * ({@link ConsoleRouting}); a request forwarded here by another instance carries its key instead of a cookie.
 */
@ServerFilter({"/console", "/console/**"})
public class SessionFilter {

    /** The request attribute holding the {@link ConsoleSession}. */
    public static final String ATTRIBUTE = "memorychain.console.session";

    public static final String COOKIE = "mc_console";
    public static final String LOGIN = "/console/login";

    private final ConsoleSessions sessions;
    private final ApiKeys keys;
    private final ConsoleRouting routing;

    public SessionFilter(ConsoleSessions sessions, ApiKeys keys, ConsoleRouting routing) {
        this.sessions = sessions;
        this.keys = keys;
        this.routing = routing;
    }

    @RequestFilter
    @ExecuteOn(TaskExecutors.BLOCKING)
    @Nullable
    public HttpResponse<?> check(HttpRequest<?> request) throws InterruptedException {
        String path = request.getPath();
        if (path.equals(LOGIN) || path.startsWith("/console/assets/")) {
            return null;
        }
        Optional<ConsoleSession> forwarded = routing.forwardedSession(request);
        if (forwarded.isPresent()) {
            request.setAttribute(ATTRIBUTE, forwarded.get());
            return null;
        }
        String id =
                request.getCookies().findCookie(COOKIE).map(Cookie::getValue).orElse(null);
        ConsoleSession session = sessions.find(id).orElse(null);
        if (session == null) {
            return toLogin(request, id == null ? null : "expired");
        }
        Principal current;
        try {
            current = keys.authenticate("Bearer " + session.apiKey());
        } catch (ApiException e) {
            sessions.end(session.id());
            return toLogin(request, "revoked");
        } catch (KeyStoreUnavailableException e) {
            return SecurityHeaders.apply(HttpResponse.status(HttpStatus.SERVICE_UNAVAILABLE)
                    .contentType(MediaType.TEXT_PLAIN_TYPE)
                    .body("The key store cannot be read now; try again shortly."));
        }
        sessions.touch(session, current);
        request.setAttribute(ATTRIBUTE, session);
        return routing.route(request, session);
    }

    private static MutableHttpResponse<?> toLogin(HttpRequest<?> request, String ended) {
        MutableHttpResponse<?> response =
                HttpResponse.seeOther(URI.create(ended == null ? LOGIN : LOGIN + "?ended=" + ended));
        if (ended != null) {
            response.cookie(clear(request));
        }
        return SecurityHeaders.apply(response);
    }

    /** The session cookie: HttpOnly, SameSite=Strict, Path=/console, Secure over HTTPS. */
    public static Cookie cookie(HttpRequest<?> request, String value) {
        return Cookie.of(COOKIE, value)
                .httpOnly(true)
                .sameSite(SameSite.Strict)
                .path("/console")
                .secure(request.isSecure());
    }

    /** The session cookie removed. */
    public static Cookie clear(HttpRequest<?> request) {
        return cookie(request, "").maxAge(0);
    }
}
