package io.memorychain.console.admin;

import io.memorychain.api.auth.ApiKeys;
import io.memorychain.api.auth.KeyJson;
import io.memorychain.api.auth.Operation;
import io.memorychain.api.auth.Role;
import io.memorychain.api.refinement.RefinementSessionJson;
import io.memorychain.api.refinement.RefinementSessions;
import io.memorychain.api.request.Spaces;
import io.memorychain.api.spaces.KnownSpaces;
import io.memorychain.console.web.Console;
import io.memorychain.console.web.Visit;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Get;
import io.micronaut.http.annotation.QueryValue;
import io.micronaut.scheduling.TaskExecutors;
import io.micronaut.scheduling.annotation.ExecuteOn;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The admin page (admin keys only, {@link Operation#LIST_KEYS}): API keys (issue, list, revoke), the spaces with their
 * figures, and for one chosen space its refinement sessions (start, complete) and constitutional flags (set, clear).
 * The same services as {@code /v1/keys} and {@code /v1/spaces/{space}/refinements}; the changes are
 * {@link AdminActions}.
 */
@Controller("/console/admin")
@ExecuteOn(TaskExecutors.BLOCKING)
public class AdminController {

    /** Spaces listed at most. */
    static final int MAX_SPACES = 200;
    /** Keys listed at most (newest first). */
    static final int MAX_KEYS = 500;

    /** What the page shows; {@code space} and {@code sessions} null until a space is chosen. */
    public record AdminPage(
            List<KeyJson> keys,
            int keysTotal,
            List<KnownSpaces.Summary> spaces,
            String space,
            List<RefinementSessionJson> sessions,
            List<String> roles) {

        public boolean sessionOpen() {
            return sessions != null && sessions.stream().anyMatch(s -> "open".equals(s.state()));
        }
    }

    private final Console console;
    private final ApiKeys keys;
    private final KnownSpaces spaces;
    private final RefinementSessions refinements;

    public AdminController(Console console, ApiKeys keys, KnownSpaces spaces, RefinementSessions refinements) {
        this.console = console;
        this.keys = keys;
        this.spaces = spaces;
        this.refinements = refinements;
    }

    @Get
    public HttpResponse<?> admin(HttpRequest<?> request, @Nullable @QueryValue String space) {
        return console.page(request, null, visit -> {
            visit.authorize(Operation.LIST_KEYS);
            String chosen = space == null || space.isBlank() ? null : Spaces.require(space.strip());
            Map<String, Object> params = new HashMap<>();
            params.put("page", page(visit, chosen));
            return console.render(visit, "admin", "Admin", "admin", params);
        });
    }

    private AdminPage page(Visit visit, String chosen) {
        List<KeyJson> all = keys.list().stream()
                .map(r -> KeyJson.of(r, null))
                .sorted(Comparator.comparing(KeyJson::createdAt).reversed())
                .toList();
        List<RefinementSessionJson> sessions = null;
        if (chosen != null) {
            new Visit(visit.session(), visit.principal(), chosen).authorize(Operation.LIST_REFINEMENTS);
            sessions = new ArrayList<>(refinements.sessions(chosen).stream()
                    .map(RefinementSessionJson::of)
                    .toList());
            Collections.reverse(sessions); // newest first
        }
        return new AdminPage(
                all.stream().limit(MAX_KEYS).toList(),
                all.size(),
                spaces.summaries(visit.principal(), MAX_SPACES),
                chosen,
                sessions,
                Arrays.stream(Role.values()).map(Role::wireName).toList());
    }
}
