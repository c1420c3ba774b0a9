package io.memorychain.console.admin;

import io.memorychain.api.auth.ApiKeys;
import io.memorychain.api.auth.NewKeyBody;
import io.memorychain.api.auth.Operation;
import io.memorychain.api.error.ApiException;
import io.memorychain.api.memories.Memories;
import io.memorychain.api.refinement.RefinementSessions;
import io.memorychain.avro.MemoryFlag;
import io.memorychain.console.web.Console;
import io.memorychain.console.web.Console.Done;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.MediaType;
import io.micronaut.http.annotation.Body;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.PathVariable;
import io.micronaut.http.annotation.Post;
import io.micronaut.scheduling.TaskExecutors;
import io.micronaut.scheduling.annotation.ExecuteOn;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * The admin page's changes, each a form answered with a redirect back to it: the same service calls as {@code POST
 * /v1/keys}, {@code DELETE /v1/keys/{id}}, {@code POST /v1/spaces/{space}/refinements}, {@code POST
 * .../refinements/{session}:complete} and {@code POST .../memories/{id}:protect|:unprotect}.
 */
@Controller("/console/admin")
@ExecuteOn(TaskExecutors.BLOCKING)
public class AdminActions {

    static final String ADMIN = "/console/admin";

    private final Console console;
    private final ApiKeys keys;
    private final RefinementSessions refinements;
    private final Memories memories;

    public AdminActions(Console console, ApiKeys keys, RefinementSessions refinements, Memories memories) {
        this.console = console;
        this.keys = keys;
        this.refinements = refinements;
        this.memories = memories;
    }

    /** Issues a key: its secret goes into the session's one-time message, shown on the next page only. */
    @Post(value = "/keys", consumes = MediaType.APPLICATION_FORM_URLENCODED)
    public HttpResponse<?> issue(HttpRequest<?> request, @Nullable @Body Map<String, String> form) {
        return console.post(request, form, null, ADMIN, visit -> {
            visit.authorize(Operation.ISSUE_KEY);
            List<String> spaces = Arrays.stream(
                            String.valueOf(form.getOrDefault("spaces", "")).split("[,\\s]+"))
                    .map(String::strip)
                    .filter(s -> !s.isEmpty())
                    .toList();
            NewKeyBody body = new NewKeyBody(
                    blankToNull(form.get("id")),
                    blankToNull(form.get("role")),
                    blankToNull(form.get("agent_id")),
                    spaces.isEmpty() ? null : spaces);
            ApiKeys.Issued issued =
                    keys.issue(NewKeyBody.principal(body), visit.principal().id());
            return new Done(
                    "Key " + issued.record().keyId() + " issued for "
                            + issued.record().principal().id()
                            + " (" + issued.record().principal().role().wireName()
                            + "). Copy its secret now: it is shown "
                            + "only once.",
                    null,
                    issued.key().toString());
        });
    }

    @Post(value = "/keys/{keyId}/revoke", consumes = MediaType.APPLICATION_FORM_URLENCODED)
    public HttpResponse<?> revoke(
            HttpRequest<?> request, @PathVariable String keyId, @Nullable @Body Map<String, String> form) {
        return console.post(request, form, null, ADMIN, visit -> {
            visit.authorize(Operation.REVOKE_KEY);
            var record = keys.revoke(keyId);
            return Done.message(
                    "Key " + record.keyId() + " of " + record.principal().id() + " is revoked: its "
                            + "API calls and console sessions end within seconds.");
        });
    }

    @Post(value = "/s/{space}/refinements", consumes = MediaType.APPLICATION_FORM_URLENCODED)
    public HttpResponse<?> startRefinement(
            HttpRequest<?> request, @PathVariable String space, @Nullable @Body Map<String, String> form) {
        return console.post(request, form, space, back(space), visit -> {
            visit.authorize(Operation.START_REFINEMENT);
            String target = blankToNull(form.get("target_tokens"));
            Integer tokens;
            try {
                tokens = target == null ? null : Integer.valueOf(target);
            } catch (NumberFormatException e) {
                throw ApiException.invalid("target tokens must be a whole number, was '" + target + "'");
            }
            var started = refinements.start(visit.write(), tokens, blankToNull(form.get("reason")));
            return Done.message(
                    "Refinement session " + started.session().getSessionId() + " started: " + started.budget() + ".");
        });
    }

    /** Completes (for an admin: abandons) the open session with a summary. */
    @Post(value = "/s/{space}/refinements/{session}/complete", consumes = MediaType.APPLICATION_FORM_URLENCODED)
    public HttpResponse<?> completeRefinement(
            HttpRequest<?> request,
            @PathVariable String space,
            @PathVariable String session,
            @Nullable @Body Map<String, String> form) {
        return console.post(request, form, space, back(space), visit -> {
            visit.authorize(Operation.COMPLETE_REFINEMENT);
            String summary = blankToNull(form.get("summary"));
            var done = refinements.complete(
                    visit.write(), session, summary == null ? "Completed by an admin in the console." : summary);
            return Done.message("Refinement session " + done.session().session().getSessionId() + " completed: "
                    + done.session().session().getSummary());
        });
    }

    /** Sets or clears a memory's constitutional flag ({@code value} true or false). */
    @Post(value = "/s/{space}/constitutional", consumes = MediaType.APPLICATION_FORM_URLENCODED)
    public HttpResponse<?> constitutional(
            HttpRequest<?> request, @PathVariable String space, @Nullable @Body Map<String, String> form) {
        return console.post(request, form, space, back(space), visit -> {
            String id = blankToNull(form.get("memory_id"));
            if (id == null) {
                throw ApiException.invalid("enter a memory id");
            }
            boolean set = switch (String.valueOf(form.get("value"))) {
                case "true" -> true;
                case "false" -> false;
                default -> throw ApiException.invalid("value must be true or false");
            };
            visit.authorize(set ? Operation.PROTECT_MEMORY : Operation.UNPROTECT_MEMORY);
            var result = memories.flag(visit.change(null), id, MemoryFlag.CONSTITUTIONAL, set);
            return Done.message("Memory " + id + (set ? " is constitutional now" : " is no longer constitutional")
                    + " (seq " + result.outcome().getSeq() + ").");
        });
    }

    private static String back(String space) {
        return ADMIN + "?space=" + space;
    }

    private static String blankToNull(String s) {
        return s == null || s.isBlank() ? null : s.strip();
    }
}
