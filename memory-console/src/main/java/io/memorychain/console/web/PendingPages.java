package io.memorychain.console.web;

import io.memorychain.api.auth.Operation;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Get;
import io.micronaut.http.annotation.PathVariable;
import io.micronaut.scheduling.TaskExecutors;
import io.micronaut.scheduling.annotation.ExecuteOn;
import java.util.Map;

/** The navigation's pages that are not built yet: a page that says so (after the same space rules), not a 404. */
@Controller("/console")
@ExecuteOn(TaskExecutors.BLOCKING)
public class PendingPages {

    private static final Map<String, String> TITLES = Map.of("time", "Time machine", "audit", "Audit",
            "health", "Health");

    private final Console console;

    public PendingPages(Console console) {
        this.console = console;
    }

    @Get("/s/{space}/{page}")
    public HttpResponse<?> page(HttpRequest<?> request, @PathVariable String space, @PathVariable String page) {
        return console.page(request, space, visit -> {
            visit.authorize(Operation.LIST_ALERTS);
            String title = TITLES.get(page);
            if (title == null) {
                return console.error(visit, io.micronaut.http.HttpStatus.NOT_FOUND, "NOT_FOUND", "No such page.");
            }
            return console.render(visit, page, title, "pending", Map.of());
        });
    }

    @Get("/admin")
    public HttpResponse<?> admin(HttpRequest<?> request) {
        return console.page(request, null, visit -> {
            visit.authorize(Operation.LIST_KEYS);
            return console.render(visit, "admin", "Admin", "pending", Map.of());
        });
    }
}
