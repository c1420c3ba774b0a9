package io.memorychain.console.history;

import io.memorychain.api.auth.Operation;
import io.memorychain.api.core.CoreJson;
import io.memorychain.api.error.ApiException;
import io.memorychain.api.error.ErrorCodes;
import io.memorychain.api.history.AsOf;
import io.memorychain.api.history.AsOfReads;
import io.memorychain.api.memories.MemoryPage;
import io.memorychain.api.rollback.RollbackBody;
import io.memorychain.api.rollback.RollbackPlanJson;
import io.memorychain.api.rollback.Rollbacks;
import io.memorychain.console.web.Console;
import io.memorychain.console.web.Console.Done;
import io.memorychain.console.web.Visit;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.MediaType;
import io.micronaut.http.annotation.Body;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Get;
import io.micronaut.http.annotation.PathVariable;
import io.micronaut.http.annotation.Post;
import io.micronaut.http.annotation.QueryValue;
import io.micronaut.scheduling.TaskExecutors;
import io.micronaut.scheduling.annotation.ExecuteOn;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;

/**
 * The time machine of a space: pick a point (a seq or a UTC time) and browse the core and the memories as they were
 * then ({@link AsOfReads}, the reads behind REST's {@code as_of_seq} / {@code as_of}); an admin's dry run of rolling
 * the space back to it ({@link Rollbacks#planFor}, {@code POST /rollback/plan}) and, after a confirmation, the rollback
 * itself ({@link Rollbacks#applyFor}, {@code POST /rollback}). Who sees what is the operations' rule: the core is
 * content (not for admins), the memories an admin's only under a grant, the rollback an admin's alone.
 */
@Controller("/console/s/{space}/time")
@ExecuteOn(TaskExecutors.BLOCKING)
public class TimeMachinePages {

    /** Memories listed per page as they were. */
    static final int PAGE = 25;

    /**
     * What the page shows at a point: each part null when the role may not see it, with the reason instead.
     *
     * @param time when the point was (null before one is picked, or when the log no longer holds it)
     */
    public record Browse(
            TimePoint point,
            long head,
            Instant time,
            CoreJson core,
            String coreWithheld,
            MemoryPage memories,
            String memoriesWithheld,
            String nextHref,
            boolean mayPlan) {}

    private final Console console;
    private final AsOfReads reads;
    private final Rollbacks rollbacks;

    public TimeMachinePages(Console console, AsOfReads reads, Rollbacks rollbacks) {
        this.console = console;
        this.reads = reads;
        this.rollbacks = rollbacks;
    }

    @Get
    public HttpResponse<?> browse(
            HttpRequest<?> request,
            @PathVariable String space,
            @Nullable @QueryValue String seq,
            @Nullable @QueryValue String at,
            @Nullable @QueryValue String after) {
        return console.page(request, space, visit -> {
            visit.authorize(Operation.LIST_MEMORIES);
            TimePoint point = TimePoint.of(seq, at);
            long head = reads.head(visit.space());
            Map<String, Object> params = new HashMap<>();
            params.put(
                    "browse",
                    point.chosen()
                            ? browse(visit, point, head, after)
                            : new Browse(point, head, null, null, null, null, null, null, false));
            return console.render(visit, "time", "Time machine", "time", params);
        });
    }

    private Browse browse(Visit visit, TimePoint point, long head, String after) {
        AsOf at = reads.point(visit.space(), point.seq(), point.isoTime());
        CoreJson core = null;
        String coreWithheld = null;
        if (visit.may(Operation.GET_CORE)) {
            core = reads.core(visit.space(), visit.actor(), at);
        } else {
            coreWithheld = "The core is memory content: admin keys read none (as over REST).";
        }
        MemoryPage memories = null;
        String memoriesWithheld = null;
        try {
            memories = reads.list(visit.space(), visit.actor(), null, null, null, after, PAGE, at);
        } catch (ApiException e) {
            if (!ErrorCodes.GRANT_REQUIRED.equals(e.code())) {
                throw e;
            }
            memoriesWithheld = e.getMessage();
        }
        String next = memories == null || memories.next() == null
                ? null
                : "/console/s/" + visit.space() + "/time?" + point.query() + "&after=" + memories.next();
        boolean mayPlan = visit.may(Operation.PLAN_ROLLBACK) && !readOnly(visit);
        return new Browse(
                point,
                head,
                reads.time(visit.space(), at),
                core,
                coreWithheld,
                memories,
                memoriesWithheld,
                next,
                mayPlan);
    }

    /** The dry run: what rolling the whole space back to the point would change; publishes nothing. */
    @Get("/plan")
    public HttpResponse<?> plan(
            HttpRequest<?> request,
            @PathVariable String space,
            @Nullable @QueryValue String seq,
            @Nullable @QueryValue String at) {
        return console.page(request, space, visit -> {
            visit.authorize(Operation.PLAN_ROLLBACK);
            TimePoint point = TimePoint.of(seq, at);
            RollbackPlanJson plan = rollbacks.planFor(visit.space(), visit.actor(), body(point, null, null));
            Map<String, Object> params = new HashMap<>();
            params.put("plan", plan);
            params.put("point", point);
            params.put("mayApply", visit.may(Operation.APPLY_ROLLBACK) && !readOnly(visit));
            return console.render(visit, "time", "Rollback dry run", "plan", params);
        });
    }

    /**
     * Applies the rollback after the dry run's confirmation (its {@code plan_digest}, a reason, the ticked box): the
     * chain gets {@code RollbackApplied} and the restoring events; back to the point's page, which now reads as the
     * space does.
     */
    @Post(value = "/rollback", consumes = MediaType.APPLICATION_FORM_URLENCODED)
    public HttpResponse<?> apply(
            HttpRequest<?> request, @PathVariable String space, @Nullable @Body Map<String, String> form) {
        Map<String, String> f = form == null ? Map.of() : form;
        TimePoint point = TimePoint.of(f.get("seq"), f.get("at"));
        String back = "/console/s/" + space + "/time/plan?" + point.query();
        return console.post(request, form, space, back, visit -> {
            visit.authorize(Operation.APPLY_ROLLBACK);
            if (!"yes".equals(f.get("confirm"))) {
                throw ApiException.invalid("tick the box to confirm the rollback");
            }
            RollbackPlanJson applied =
                    rollbacks.applyFor(visit.write(), body(point, f.get("reason"), f.get("plan_digest")));
            int n = applied.memories().size();
            return Done.to(
                    "Rollback applied: " + n + " memor" + (n == 1 ? "y" : "ies") + " and "
                            + applied.edges().size() + " relation(s) back to their state of seq " + applied.targetSeq()
                            + "; the chain records it as RollbackApplied (request " + applied.requestId()
                            + ", last seq "
                            + applied.seq() + ").",
                    "/console/s/" + visit.space() + "/time?seq=" + applied.seq());
        });
    }

    private static RollbackBody body(TimePoint point, String reason, String digest) {
        if (point.seq() != null && point.seqNumber() == null) {
            throw ApiException.invalid("seq must be a whole number, was '" + point.seq() + "'");
        }
        if (!point.chosen()) {
            throw ApiException.invalid("pick a seq or a time to roll back to");
        }
        return new RollbackBody(null, null, null, null, point.seqNumber(), point.isoTime(), reason, digest, null);
    }

    private static boolean readOnly(Visit visit) {
        return visit.role() != io.memorychain.api.auth.Role.USER && !visit.admin();
    }
}
