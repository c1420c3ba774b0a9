package io.memorychain.console.web;

import io.memorychain.api.auth.Operation;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.HttpStatus;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Get;
import io.micronaut.http.annotation.PathVariable;
import io.micronaut.scheduling.TaskExecutors;
import io.micronaut.scheduling.annotation.ExecuteOn;

/** A page of a space that does not exist: the console's 404 page (after the same space rules), not a JSON error. */
@Controller("/console")
@ExecuteOn(TaskExecutors.BLOCKING)
public class NoSuchPage {

    private final Console console;

    public NoSuchPage(Console console) {
        this.console = console;
    }

    @Get("/s/{space}/{page}")
    public HttpResponse<?> page(HttpRequest<?> request, @PathVariable String space, @PathVariable String page) {
        return console.page(request, space, visit -> {
            visit.authorize(Operation.LIST_ALERTS);
            return console.error(visit, HttpStatus.NOT_FOUND, "NOT_FOUND", "No such page.");
        });
    }
}
