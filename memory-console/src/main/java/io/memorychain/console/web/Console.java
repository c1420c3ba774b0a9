package io.memorychain.console.web;

import io.memorychain.api.auth.Role;
import io.memorychain.api.error.ApiException;
import io.memorychain.api.error.ErrorCodes;
import io.memorychain.api.request.Spaces;
import io.memorychain.api.routing.OwnerGuard;
import io.memorychain.api.spaces.KnownSpaces;
import io.memorychain.console.session.ConsoleSession;
import io.memorychain.console.session.SessionFilter;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.HttpStatus;
import io.micronaut.http.MutableHttpResponse;
import jakarta.inject.Singleton;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How every console page and action runs: the session the filter found, the space rules, the application service call
 * the page makes, and the answer: a page, or after a change a redirect with a one-time message (POST-redirect-GET). An
 * {@link ApiException} of a service becomes the error page with its status (403 for another space, a role the operation
 * refuses or a missing grant) or, after a change, a message on the page the form came from.
 */
@Singleton
public class Console {

    private static final Logger log = LoggerFactory.getLogger(Console.class);

    /** What a change did: the message to show and where to go (null: back to the form's page). */
    public record Done(String message, String location, String secret) {
        public static Done message(String message) {
            return new Done(message, null, null);
        }

        public static Done to(String message, String location) {
            return new Done(message, location, null);
        }
    }

    private final Pages pages;
    private final KnownSpaces spaces;
    private final OwnerGuard owners;

    public Console(Pages pages, KnownSpaces spaces, OwnerGuard owners) {
        this.pages = pages;
        this.spaces = spaces;
        this.owners = owners;
    }

    /** A page; {@code space} null for pages outside spaces. */
    public HttpResponse<?> page(HttpRequest<?> request, String space, Function<Visit, HttpResponse<?>> body) {
        ConsoleSession session = session(request);
        Visit visit = new Visit(session, session.principal(), space);
        try {
            requireServedHere(space);
            return body.apply(visit);
        } catch (ApiException e) {
            return error(visit, e.status(), e.code(), e.getMessage());
        } catch (RuntimeException e) {
            log.warn("Console page {} failed", request.getPath(), e);
            return error(
                    visit,
                    HttpStatus.INTERNAL_SERVER_ERROR,
                    ErrorCodes.INTERNAL,
                    "Something went wrong; the " + "service log has the details.");
        }
    }

    /**
     * A change from a form: the CSRF token first, then the change, then a redirect to {@code back} (or where the change
     * says) with its message. Agent, sub-agent and worker keys only read here: they change memory through the API.
     */
    public HttpResponse<?> post(
            HttpRequest<?> request, Map<String, String> form, String space, String back, Function<Visit, Done> change) {
        ConsoleSession session = session(request);
        Visit visit = new Visit(session, session.principal(), space);
        if (!validCsrf(session, form)) {
            return error(
                    visit,
                    HttpStatus.FORBIDDEN,
                    "CSRF_REJECTED",
                    "This form is stale or did not come from this "
                            + "console (its CSRF token is missing or wrong). Reload the page and try again.");
        }
        if (visit.role() != Role.USER && visit.role() != Role.ADMIN) {
            return error(
                    visit,
                    HttpStatus.FORBIDDEN,
                    ErrorCodes.ROLE_NOT_ALLOWED,
                    "The console is read-only for " + visit.role().wireName()
                            + " keys: they change memory through the API.");
        }
        try {
            requireServedHere(space);
            Done done = change.apply(visit);
            session.flash(new ConsoleSession.Flash(done.message(), false, done.secret()));
            return HttpResponse.seeOther(URI.create(done.location() == null ? back : done.location()));
        } catch (ApiException e) {
            if (e.status() == HttpStatus.FORBIDDEN || e.status() == HttpStatus.UNAUTHORIZED) {
                return error(visit, e.status(), e.code(), e.getMessage());
            }
            session.flash(new ConsoleSession.Flash(e.code() + ": " + e.getMessage(), true, null));
            return HttpResponse.seeOther(URI.create(back));
        } catch (RuntimeException e) {
            log.warn("Console action {} failed", request.getPath(), e);
            return error(
                    visit,
                    HttpStatus.INTERNAL_SERVER_ERROR,
                    ErrorCodes.INTERNAL,
                    "Something went wrong; the " + "service log has the details.");
        }
    }

    /**
     * A valid space name this instance serves: the console reads this instance's views, which hold only the spaces it
     * serves, so another instance's space is refused (NOT_OWNER naming that instance, REBALANCING while none can
     * answer) rather than shown empty. Pages outside spaces ({@code null}) pass.
     */
    private void requireServedHere(String space) {
        if (space == null) {
            return;
        }
        Spaces.require(space);
        try {
            owners.requireServedHere(space);
        } catch (ApiException e) {
            if (!ErrorCodes.NOT_OWNER.equals(e.code())) {
                throw e;
            }
            throw new ApiException(
                    e.code(),
                    "The console shows a space on the instance that serves it, and this is "
                            + "not that instance: open the console there. " + e.getMessage());
        }
    }

    /** Whether the form carries the session's CSRF token (compared in constant time). */
    public static boolean validCsrf(ConsoleSession session, Map<String, String> form) {
        String token = form == null ? null : form.get("csrf");
        return token != null
                && MessageDigest.isEqual(
                        token.getBytes(StandardCharsets.UTF_8), session.csrf().getBytes(StandardCharsets.UTF_8));
    }

    /** The session the filter found for this request. */
    public static ConsoleSession session(HttpRequest<?> request) {
        return request.getAttribute(SessionFilter.ATTRIBUTE, ConsoleSession.class)
                .orElseThrow(() -> new IllegalStateException("no console session on " + request.getPath()));
    }

    /** The page's template with the layout's frame and the page's own parameters. */
    public MutableHttpResponse<String> render(
            Visit visit, String nav, String title, String template, Map<String, Object> params) {
        return pages.ok(template, with(frame(visit, nav, title), params));
    }

    /** The error page: status, machine-readable code and message, inside the layout. */
    public MutableHttpResponse<String> error(Visit visit, HttpStatus status, String code, String message) {
        Map<String, Object> params = new HashMap<>();
        params.put("status", status.getCode());
        params.put("code", code);
        params.put("message", message);
        return pages.page(
                status, "error", with(frame(visit, null, status.getCode() + " " + status.getReason()), params));
    }

    public Frame frame(Visit visit, String nav, String title) {
        ConsoleSession.Flash flash = visit.session().takeFlash();
        return new Frame(
                title,
                nav,
                visit.principal().id(),
                visit.role().wireName(),
                spaces.visibleTo(visit.principal()),
                visit.space() != null && visit.principal().mayUse(visit.space()) ? visit.space() : null,
                visit.session().csrf(),
                flash == null ? null : flash.message(),
                flash != null && flash.error(),
                flash == null ? null : flash.secret(),
                visit.role() != Role.USER && visit.role() != Role.ADMIN,
                visit.admin());
    }

    private static Map<String, Object> with(Frame frame, Map<String, Object> params) {
        Map<String, Object> all = new HashMap<>(params);
        all.put("frame", frame);
        return all;
    }
}
