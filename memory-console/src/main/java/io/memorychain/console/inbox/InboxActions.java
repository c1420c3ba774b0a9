package io.memorychain.console.inbox;

import io.memorychain.api.alerts.AlertService;
import io.memorychain.api.auth.Operation;
import io.memorychain.api.error.ApiException;
import io.memorychain.api.grants.GrantService;
import io.memorychain.api.profile.ProfileService;
import io.memorychain.api.proposals.ProposalReview;
import io.memorychain.api.proposals.ProposalService;
import io.memorychain.api.reflections.ReflectionChangeJson;
import io.memorychain.api.reflections.ReflectionDecisionBody;
import io.memorychain.api.reflections.ReflectionJson;
import io.memorychain.api.reflections.ReflectionService;
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
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The inbox's decisions, each a form posted here and answered with a redirect back to the inbox: the same service calls
 * as {@code POST /reflections/{id}:decide}, {@code /consents/{id}:decide}, {@code /alerts/{id}:acknowledge},
 * {@code /proposals/{id}:commit|reject|defer} and {@code /grants/{id}:consent}.
 */
@Controller("/console/s/{space}")
@ExecuteOn(TaskExecutors.BLOCKING)
public class InboxActions {

    private final Console console;
    private final ReflectionService reflections;
    private final ProposalService proposals;
    private final ProfileService profiles;
    private final AlertService alerts;
    private final GrantService grants;

    public InboxActions(
            Console console,
            ReflectionService reflections,
            ProposalService proposals,
            ProfileService profiles,
            AlertService alerts,
            GrantService grants) {
        this.console = console;
        this.reflections = reflections;
        this.proposals = proposals;
        this.profiles = profiles;
        this.alerts = alerts;
        this.grants = grants;
    }

    /**
     * One form per reflection: a checkbox ({@code apply_<change>}) and, for changes with a text, an editable text
     * ({@code content_<change>}) per change, a reason, and the button pressed ({@code decision}: approve or reject).
     * Approve with every change checked and no text edited is {@code approve}; with edited texts
     * {@code approve_with_changes} (the checked changes); with some unchecked {@code partial}.
     */
    @Post(value = "/reflections/{id}/decide", consumes = MediaType.APPLICATION_FORM_URLENCODED)
    public HttpResponse<?> decideReflection(
            HttpRequest<?> request,
            @PathVariable String space,
            @PathVariable String id,
            @Nullable @Body Map<String, String> form) {
        return console.post(request, form, space, inbox(space), visit -> {
            visit.authorize(Operation.DECIDE_REFLECTION);
            String reason = blankToNull(form.get("reason"));
            if ("reject".equals(form.get("decision"))) {
                reflections.decide(visit.write(), id, new ReflectionDecisionBody("reject", reason, null, null));
                return Done.message("Reflection rejected.");
            }
            if (!"approve".equals(form.get("decision"))) {
                throw ApiException.invalid("decision must be approve or reject");
            }
            ReflectionJson shown = ReflectionJson.of(reflections.get(visit.space(), id, visit.actor()));
            List<String> checked = new ArrayList<>();
            List<ReflectionChangeJson> edited = new ArrayList<>();
            for (ReflectionChangeJson c : shown.changes()) {
                if (form.containsKey("apply_" + c.changeId())) {
                    checked.add(c.changeId());
                    String text = form.get("content_" + c.changeId());
                    if (text != null && c.content() != null && !normalize(text).equals(normalize(c.content()))) {
                        edited.add(withContent(c, normalize(text)));
                    }
                }
            }
            if (checked.isEmpty()) {
                throw ApiException.invalid("check at least one change to approve, or reject the reflection");
            }
            ReflectionDecisionBody body;
            if (!edited.isEmpty()) {
                body = new ReflectionDecisionBody("approve_with_changes", reason, checked, edited);
            } else if (checked.size() < shown.changes().size()) {
                body = new ReflectionDecisionBody("partial", reason, checked, null);
            } else {
                body = new ReflectionDecisionBody("approve", reason, null, null);
            }
            reflections.decide(visit.write(), id, body);
            return Done.message(
                    switch (body.decision()) {
                        case "approve_with_changes" ->
                            "Reflection approved with your edits (" + checked.size() + " change"
                                    + (checked.size() == 1 ? "" : "s") + ").";
                        case "partial" -> "Reflection partly approved: " + String.join(", ", checked) + ".";
                        default -> "Reflection approved.";
                    });
        });
    }

    @Post(value = "/consents/{id}/decide", consumes = MediaType.APPLICATION_FORM_URLENCODED)
    public HttpResponse<?> decideConsent(
            HttpRequest<?> request,
            @PathVariable String space,
            @PathVariable String id,
            @Nullable @Body Map<String, String> form) {
        return console.post(request, form, space, inbox(space), visit -> {
            visit.authorize(Operation.DECIDE_CONSENT);
            String grant = form.get("grant");
            if (!"true".equals(grant) && !"false".equals(grant)) {
                throw ApiException.invalid("grant must be true or false");
            }
            var decided = profiles.decide(visit.write(), id, Boolean.valueOf(grant), blankToNull(form.get("reason")));
            return Done.message("Consent " + decided.status() + ": " + decided.field() + ".");
        });
    }

    @Post(value = "/alerts/{id}/acknowledge", consumes = MediaType.APPLICATION_FORM_URLENCODED)
    public HttpResponse<?> acknowledge(
            HttpRequest<?> request,
            @PathVariable String space,
            @PathVariable String id,
            @Nullable @Body Map<String, String> form) {
        return console.post(request, form, space, inbox(space), visit -> {
            visit.authorize(Operation.ACKNOWLEDGE_ALERT);
            alerts.acknowledge(visit.write(), id, blankToNull(form.get("reason")));
            return Done.message("Alert acknowledged.");
        });
    }

    @Post(value = "/proposals/{id}/review", consumes = MediaType.APPLICATION_FORM_URLENCODED)
    public HttpResponse<?> review(
            HttpRequest<?> request,
            @PathVariable String space,
            @PathVariable String id,
            @Nullable @Body Map<String, String> form) {
        return console.post(request, form, space, inbox(space), visit -> {
            String reason = blankToNull(form.get("reason"));
            return switch (String.valueOf(form.get("action"))) {
                case "commit" -> {
                    visit.authorize(Operation.COMMIT_PROPOSAL);
                    proposals.commit(visit.write(), id, ProposalReview.because(reason));
                    yield Done.message("Proposal committed to memory.");
                }
                case "reject" -> {
                    visit.authorize(Operation.REJECT_PROPOSAL);
                    proposals.reject(visit.write(), id, reason);
                    yield Done.message("Proposal rejected.");
                }
                case "defer" -> {
                    visit.authorize(Operation.DEFER_PROPOSAL);
                    proposals.defer(visit.write(), id, reason);
                    yield Done.message("Proposal deferred.");
                }
                default -> throw ApiException.invalid("action must be commit, reject or defer");
            };
        });
    }

    @Post(value = "/grants/{id}/consent", consumes = MediaType.APPLICATION_FORM_URLENCODED)
    public HttpResponse<?> consentGrant(
            HttpRequest<?> request,
            @PathVariable String space,
            @PathVariable String id,
            @Nullable @Body Map<String, String> form) {
        return console.post(request, form, space, inbox(space), visit -> {
            visit.authorize(Operation.CONSENT_GRANT);
            var grant = grants.consent(visit.write(), id);
            return Done.message("Grant " + grant.id() + " is " + grant.status() + " until " + grant.expiresAt() + ".");
        });
    }

    private static String inbox(String space) {
        return "/console/s/" + space + "/inbox";
    }

    private static String blankToNull(String s) {
        return s == null || s.isBlank() ? null : s.strip();
    }

    /** Browsers send text areas with CRLF line ends. */
    private static String normalize(String text) {
        return text.replace("\r\n", "\n").strip();
    }

    private static ReflectionChangeJson withContent(ReflectionChangeJson c, String content) {
        return new ReflectionChangeJson(
                c.changeId(),
                c.type(),
                c.reason(),
                c.memoryId(),
                c.toId(),
                c.label(),
                content,
                c.summary(),
                c.category(),
                c.tags(),
                c.importance(),
                c.relationType());
    }
}
