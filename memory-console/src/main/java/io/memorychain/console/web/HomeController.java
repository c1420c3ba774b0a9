package io.memorychain.console.web;

import io.memorychain.api.request.Spaces;
import io.memorychain.api.spaces.KnownSpaces;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Get;
import io.micronaut.http.annotation.QueryValue;
import io.micronaut.scheduling.TaskExecutors;
import io.micronaut.scheduling.annotation.ExecuteOn;
import java.net.URI;
import java.util.List;
import java.util.Map;

/** The console's start: the inbox of the key's first space, or the space picker when it has none yet. */
@Controller("/console")
@ExecuteOn(TaskExecutors.BLOCKING)
public class HomeController {

    private final Console console;
    private final KnownSpaces spaces;

    public HomeController(Console console, KnownSpaces spaces) {
        this.console = console;
        this.spaces = spaces;
    }

    @Get
    public HttpResponse<?> home(HttpRequest<?> request) {
        return console.page(request, null, visit -> {
            List<String> names = spaces.visibleTo(visit.principal());
            if (names.size() == 1) {
                return HttpResponse.seeOther(URI.create("/console/s/" + names.get(0) + "/inbox"));
            }
            return console.render(visit, null, "Spaces", "home", Map.of("names", names));
        });
    }

    /** The space picker's target (a GET form): the same page of the chosen space. */
    @Get("/space")
    public HttpResponse<?> pick(
            HttpRequest<?> request, @Nullable @QueryValue String name, @Nullable @QueryValue String page) {
        return console.page(request, null, visit -> {
            String target = Spaces.require(name == null ? "" : name.strip());
            String where = page != null
                            && List.of("inbox", "memories", "time", "audit", "health")
                                    .contains(page)
                    ? page
                    : "inbox";
            return HttpResponse.seeOther(URI.create("/console/s/" + target + "/" + where));
        });
    }
}
