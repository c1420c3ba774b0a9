package io.memorychain.console.health;

import io.memorychain.api.auth.Operation;
import io.memorychain.api.chain.CheckpointJson;
import io.memorychain.api.health.HealthReport;
import io.memorychain.api.health.SpaceHealth;
import io.memorychain.console.web.Console;
import io.memorychain.console.web.Console.Done;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.MediaType;
import io.micronaut.http.annotation.Body;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Get;
import io.micronaut.http.annotation.PathVariable;
import io.micronaut.http.annotation.Post;
import io.micronaut.scheduling.TaskExecutors;
import io.micronaut.scheduling.annotation.ExecuteOn;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A space's health ({@link SpaceHealth}): counts by tier, state, decay status and category, growth per day,
 * consolidations, refinements and reflections over time, pending items, the chain's status, the workers and the lag.
 * Metadata only, so every role sees it ({@link Operation#LIST_OPS}); users and admins can verify the chain and sign a
 * checkpoint ({@link Operation#CHAIN_CHECKPOINT}), which the page otherwise only reports.
 */
@Controller("/console/s/{space}/health")
@ExecuteOn(TaskExecutors.BLOCKING)
public class HealthController {

    /** What the template shows: the report and its charts. */
    public record HealthPage(HealthReport report, List<Charts.Chart> facets, List<Charts.Chart> days) {}

    private final Console console;
    private final SpaceHealth health;

    public HealthController(Console console, SpaceHealth health) {
        this.console = console;
        this.health = health;
    }

    @Get
    public HttpResponse<?> health(HttpRequest<?> request, @PathVariable String space) {
        return console.page(request, space, visit -> {
            visit.authorize(Operation.LIST_OPS);
            HealthReport report = health.report(visit.space());
            Map<String, Object> params = new HashMap<>();
            params.put("page", page(report));
            return console.render(visit, "health", "Health", "health", params);
        });
    }

    @Post(value = "/verify", consumes = MediaType.APPLICATION_FORM_URLENCODED)
    public HttpResponse<?> verify(
            HttpRequest<?> request, @PathVariable String space, @Nullable @Body Map<String, String> form) {
        return console.post(request, form, space, "/console/s/" + space + "/health", visit -> {
            visit.authorize(Operation.CHAIN_CHECKPOINT);
            CheckpointJson c = health.verify(visit.space());
            return Done.message("Chain verified to seq " + c.seq() + "; checkpoint signed with key " + c.keyId() + ".");
        });
    }

    static HealthPage page(HealthReport r) {
        List<Charts.Chart> facets = List.of(
                Charts.rows("chart-tier", "Memories by tier", r.of("tier")),
                Charts.rows("chart-state", "Memories by state", r.of("state")),
                Charts.rows("chart-decay", "Memories by decay status", r.of("decay")),
                Charts.rows("chart-category", "Memories by category", r.of("category")));
        List<String> dates = r.days().stream().map(d -> d.date().substring(5)).toList();
        List<Charts.Chart> days = List.of(
                Charts.columns(
                        "chart-created",
                        "Memories created per day",
                        dates,
                        r.days().stream().map(HealthReport.Day::created).toList(),
                        7),
                Charts.columns(
                        "chart-consolidations",
                        "Consolidations per day",
                        dates,
                        r.days().stream().map(HealthReport.Day::consolidations).toList(),
                        7),
                Charts.columns(
                        "chart-refinements",
                        "Refinement sessions started per day",
                        dates,
                        r.days().stream().map(HealthReport.Day::refinements).toList(),
                        7),
                Charts.columns(
                        "chart-reflections",
                        "Reflections proposed per day",
                        dates,
                        r.days().stream().map(HealthReport.Day::reflections).toList(),
                        7));
        return new HealthPage(r, facets, days);
    }
}
