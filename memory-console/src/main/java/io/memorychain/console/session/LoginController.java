package io.memorychain.console.session;

import io.memorychain.api.auth.ApiKeys;
import io.memorychain.api.auth.KeyStoreUnavailableException;
import io.memorychain.api.auth.Principal;
import io.memorychain.api.error.ApiException;
import io.memorychain.console.web.Console;
import io.memorychain.console.web.Pages;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.HttpStatus;
import io.micronaut.http.MediaType;
import io.micronaut.http.annotation.Body;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Get;
import io.micronaut.http.annotation.Post;
import io.micronaut.http.annotation.QueryValue;
import io.micronaut.scheduling.TaskExecutors;
import io.micronaut.scheduling.annotation.ExecuteOn;
import java.net.URI;
import java.util.HashMap;
import java.util.Map;

/**
 * Sign-in with an API key (checked by {@link ApiKeys#authenticate}, as every API call is), exchanged for a server-side
 * session in the {@code mc_console} cookie; sign-out ends it.
 */
@Controller("/console")
@ExecuteOn(TaskExecutors.BLOCKING)
public class LoginController {

    private final ApiKeys keys;
    private final ConsoleSessions sessions;
    private final Pages pages;
    private final Console console;

    public LoginController(ApiKeys keys, ConsoleSessions sessions, Pages pages, Console console) {
        this.keys = keys;
        this.sessions = sessions;
        this.pages = pages;
        this.console = console;
    }

    @Get("/login")
    public HttpResponse<?> form(@Nullable @QueryValue String ended) {
        String notice = ended == null
                ? null
                : switch (ended) {
                    case "revoked" -> "Your session ended: its API key was revoked or is no longer valid.";
                    case "expired" -> "Your session ended after a while unused. Sign in again.";
                    case "out" -> "You are signed out.";
                    default -> null;
                };
        return login(HttpStatus.OK, notice, null);
    }

    @Post(value = "/login", consumes = MediaType.APPLICATION_FORM_URLENCODED)
    public HttpResponse<?> signIn(HttpRequest<?> request, @Nullable @Body Map<String, String> form) {
        String key = form == null ? null : form.get("key");
        if (key == null || key.isBlank()) {
            return login(HttpStatus.BAD_REQUEST, null, "Enter an API key.");
        }
        Principal principal;
        try {
            principal = keys.authenticate("Bearer " + key.strip());
        } catch (ApiException e) {
            return login(HttpStatus.UNAUTHORIZED, null, "That key was not accepted: " + e.getMessage());
        } catch (KeyStoreUnavailableException e) {
            return login(HttpStatus.SERVICE_UNAVAILABLE, null, "The key store cannot be read now; try again shortly.");
        }
        request.getCookies().findCookie(SessionFilter.COOKIE).ifPresent(old -> sessions.end(old.getValue()));
        ConsoleSession session = sessions.open(key.strip(), principal);
        return HttpResponse.seeOther(URI.create("/console")).cookie(SessionFilter.cookie(request, session.id()));
    }

    @Post(value = "/logout", consumes = MediaType.APPLICATION_FORM_URLENCODED)
    public HttpResponse<?> signOut(HttpRequest<?> request, @Nullable @Body Map<String, String> form) {
        ConsoleSession session = Console.session(request);
        if (!Console.validCsrf(session, form)) {
            return console.page(
                    request,
                    null,
                    visit -> console.error(
                            visit,
                            HttpStatus.FORBIDDEN,
                            "CSRF_REJECTED",
                            "This form is stale or did not come from this console. Reload the page and try again."));
        }
        sessions.end(session.id());
        return HttpResponse.seeOther(URI.create("/console/login?ended=out")).cookie(SessionFilter.clear(request));
    }

    private HttpResponse<?> login(HttpStatus status, String notice, String problem) {
        Map<String, Object> params = new HashMap<>();
        params.put("notice", notice);
        params.put("problem", problem);
        return pages.page(status, "login", params);
    }
}
