package io.memorychain.console.inbox;

import io.memorychain.api.alerts.AlertJson;
import io.memorychain.api.alerts.AlertService;
import io.memorychain.api.auth.Operation;
import io.memorychain.api.grants.GrantJson;
import io.memorychain.api.grants.GrantService;
import io.memorychain.api.memories.Memories;
import io.memorychain.api.profile.ConsentJson;
import io.memorychain.api.profile.ProfileService;
import io.memorychain.api.proposals.ProposalJson;
import io.memorychain.api.proposals.ProposalService;
import io.memorychain.api.reflections.ReflectionJson;
import io.memorychain.api.reflections.ReflectionService;
import io.memorychain.console.web.Console;
import io.memorychain.console.web.Visit;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Get;
import io.micronaut.http.annotation.PathVariable;
import io.micronaut.scheduling.TaskExecutors;
import io.micronaut.scheduling.annotation.ExecuteOn;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What waits for a person in one space: pending reflections, sub-agent proposals with their conflict flags, consent
 * requests, unacknowledged critical alerts and grant requests awaiting consent. Each part is there when the key's role
 * may run its operation; the decisions are {@link InboxActions}.
 */
@Controller("/console/s/{space}")
@ExecuteOn(TaskExecutors.BLOCKING)
public class InboxController {

    /**
     * A reflection's change with the memory it updates or archives as it reads now (null for new memories, procedures
     * and blocks).
     */
    public record ChangeRow(io.memorychain.api.reflections.ReflectionChangeJson change, String current) {}

    /** A pending reflection and its changes. */
    public record ReflectionRow(ReflectionJson reflection, List<ChangeRow> changes) {}

    /** A proposal's flag with the text of the memory it conflicts with, when the reader may read it. */
    public record FlagRow(ProposalJson.Flag flag, String text) {}

    /** An open proposal and its flags. */
    public record ProposalRow(ProposalJson proposal, List<FlagRow> flags) {}

    /** A consent request and the time left to grant it. */
    public record ConsentRow(ConsentJson consent, String timeLeft) {}

    /** The inbox: each list null when the role may not see it. */
    public record Inbox(
            List<ReflectionRow> reflections,
            List<ProposalRow> proposals,
            List<ConsentRow> consents,
            List<AlertJson> alerts,
            List<GrantJson> grants) {

        public int count(List<?> items) {
            return items == null ? 0 : items.size();
        }
    }

    private final Console console;
    private final ReflectionService reflections;
    private final ProposalService proposals;
    private final ProfileService profiles;
    private final AlertService alerts;
    private final GrantService grants;
    private final Memories memories;

    public InboxController(
            Console console,
            ReflectionService reflections,
            ProposalService proposals,
            ProfileService profiles,
            AlertService alerts,
            GrantService grants,
            Memories memories) {
        this.console = console;
        this.reflections = reflections;
        this.proposals = proposals;
        this.profiles = profiles;
        this.alerts = alerts;
        this.grants = grants;
        this.memories = memories;
    }

    @Get("/inbox")
    public HttpResponse<?> inbox(HttpRequest<?> request, @PathVariable String space) {
        return console.page(request, space, visit -> {
            visit.authorize(Operation.LIST_ALERTS);
            Map<String, Object> params = new HashMap<>();
            params.put("inbox", inbox(visit));
            return console.render(visit, "inbox", "Inbox", "inbox", params);
        });
    }

    private Inbox inbox(Visit visit) {
        String space = visit.space();
        boolean content = visit.may(Operation.GET_MEMORY) && !visit.admin();
        List<ReflectionRow> pending = null;
        if (visit.may(Operation.LIST_REFLECTIONS)) {
            pending = reflections.log(space, visit.actor(), "pending").items().stream()
                    .map(r -> new ReflectionRow(
                            r,
                            r.changes().stream()
                                    .map(c -> new ChangeRow(
                                            c,
                                            ("update_memory".equals(c.type()) || "archive_memory".equals(c.type()))
                                                            && c.memoryId() != null
                                                    ? text(visit, c.memoryId())
                                                    : null))
                                    .toList()))
                    .toList();
        }
        List<ProposalRow> open = null;
        if (visit.may(Operation.LIST_PROPOSALS)) {
            open = proposals.open(space, visit.actor()).stream()
                    .map(ProposalJson::of)
                    .map(p -> new ProposalRow(
                            p,
                            p.flags().stream()
                                    .map(f -> new FlagRow(
                                            f, content && "memory".equals(f.target()) ? text(visit, f.id()) : null))
                                    .toList()))
                    .toList();
        }
        List<ConsentRow> consents = null;
        if (visit.may(Operation.LIST_CONSENTS)) {
            Instant now = Instant.now();
            consents = profiles.consents(space, "pending").stream()
                    .map(c -> new ConsentRow(c, left(now, Instant.parse(c.expiresAt()))))
                    .toList();
        }
        List<AlertJson> critical = alerts.alerts(space, true);
        List<GrantJson> waiting = null;
        if (visit.may(Operation.LIST_GRANTS)) {
            waiting = new ArrayList<>(grants.list(space).stream()
                    .filter(g -> "pending".equals(g.status()))
                    .toList());
        }
        return new Inbox(pending, open, consents, critical, waiting);
    }

    /** The memory's current content as this reader may read it, or null. */
    private String text(Visit visit, String memoryId) {
        try {
            return memories.get(visit.space(), memoryId, visit.actor()).getContent();
        } catch (io.memorychain.api.error.ApiException e) {
            return null;
        }
    }

    static String left(Instant now, Instant until) {
        Duration d = Duration.between(now, until);
        if (d.isNegative() || d.isZero()) {
            return "expired";
        }
        long days = d.toDays();
        long hours = d.toHoursPart();
        long minutes = d.toMinutesPart();
        return days > 0
                ? days + " d " + hours + " h left"
                : hours > 0 ? hours + " h " + minutes + " min left" : Math.max(1, minutes) + " min left";
    }
}
