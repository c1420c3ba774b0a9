package io.memorychain.domain.decide;

import static io.memorychain.domain.RejectionCode.ALREADY_RESOLVED;
import static io.memorychain.domain.RejectionCode.EXPIRED;
import static io.memorychain.domain.RejectionCode.FORBIDDEN;
import static io.memorychain.domain.RejectionCode.INVALID_ARGUMENT;
import static io.memorychain.domain.RejectionCode.INVALID_STATE;
import static io.memorychain.domain.RejectionCode.NOT_FOUND;
import static io.memorychain.domain.decide.Decider.checkLength;
import static io.memorychain.domain.decide.Decider.firstProblem;
import static io.memorychain.domain.decide.Decider.isBlank;
import static io.memorychain.domain.decide.Decision.reject;

import io.memorychain.avro.AcknowledgeAlert;
import io.memorychain.avro.Actor;
import io.memorychain.avro.ActorType;
import io.memorychain.avro.AlertAcknowledged;
import io.memorychain.avro.BlockUpdated;
import io.memorychain.avro.Confidence;
import io.memorychain.avro.ConsentDecision;
import io.memorychain.avro.ConsentRequested;
import io.memorychain.avro.ConsentResolved;
import io.memorychain.avro.CriticalChangeAlerted;
import io.memorychain.avro.DecideConsent;
import io.memorychain.avro.MemoryKind;
import io.memorychain.avro.MemoryRequest;
import io.memorychain.avro.MemoryUpdated;
import io.memorychain.avro.ProfileApplyReason;
import io.memorychain.avro.ProfileFieldSet;
import io.memorychain.avro.ProfileSignal;
import io.memorychain.avro.ProfileSignalRecorded;
import io.memorychain.avro.ReflectionDecided;
import io.memorychain.avro.SetProfileField;
import io.memorychain.avro.view.ConsentRequest;
import io.memorychain.avro.view.ConsentStatus;
import io.memorychain.avro.view.CriticalAlert;
import io.memorychain.avro.view.PendingProfileValue;
import io.memorychain.avro.view.ProfileField;
import io.memorychain.avro.view.SpaceGovernance;
import io.memorychain.domain.MemoryIds;
import io.memorychain.domain.Rules;
import io.memorychain.domain.governance.Governance;
import io.memorychain.domain.governance.GovernancePolicy;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * Consent for profile fields (seed 004 §10) and critical-change alerts (seed 001 §12.5), docs/architecture.md §21.
 *
 * <ul>
 *   <li>The user (actor type USER) sets any field at once: that is consent.
 *   <li>Anyone else changing a sensitive field (configured, or unknown) queues a {@code ConsentRequested}, grantable by
 *       the user until {@code expires_at} (the event time + the consent window). A later change of the same field
 *       records the expired requests of that field as {@code ConsentResolved EXPIRED} first. A request holding a write
 *       ({@link HeldChanges}) is granted by re-deciding that write.
 *   <li>Anyone else proposing a benign field: a <em>signal</em> is (actor type and id, source). The value applies
 *       ({@code ProfileFieldSet CORROBORATED}) when two distinct signals proposed the same value, or at once when the
 *       signal is {@code worker:tom} with HIGH confidence ({@code TOM_HIGH_CONFIDENCE}); else it waits
 *       ({@code ProfileSignalRecorded}). The same signal twice does not corroborate (INVALID_STATE).
 *   <li>After every accepted decision, each change of a block with a critical label by an actor that is neither a user,
 *       an admin nor an approved reflection is followed by a {@code CriticalChangeAlerted} in the same transaction.
 * </ul>
 */
final class GovernanceDecider {

    private final GovernancePolicy policy;

    GovernanceDecider(GovernancePolicy policy) {
        this.policy = Objects.requireNonNull(policy);
    }

    Decision setField(MemoryRequest request, long seq, WriteModel model, Instant now, SetProfileField op) {
        Actor actor = request.getActor();
        if (actor.getType() == ActorType.SUBAGENT) {
            return reject(FORBIDDEN, "sub-agents cannot change the profile");
        }
        Decision invalid = firstProblem(
                checkField(op.getField()),
                checkValue(op.getValue()),
                checkLength("source", op.getSource(), Rules.MAX_SHORT_TEXT),
                checkLength("reason", op.getReason(), Rules.MAX_REASON));
        if (invalid != null) {
            return invalid;
        }
        String space = request.getSpace();
        SpaceGovernance g = model.governance(space);
        String field = op.getField();
        String current = Governance.field(g, field).map(ProfileField::getValue).orElse(null);
        if (op.getValue().equals(current)) {
            return reject(INVALID_STATE, "profile field " + field + " already has this value");
        }
        ProfileSignal signal = new ProfileSignal(actor, op.getSource(), op.getConfidence(), 0L);
        if (actor.getType() == ActorType.USER) {
            return Decision.Accept.withoutMemory(
                    new ProfileFieldSet(field, op.getValue(), current, ProfileApplyReason.USER, null, List.of()));
        }
        List<Decision.Accept> events = new ArrayList<>();
        long next = seq;
        if (policy.isSensitive(field)) {
            for (ConsentRequest c : g == null ? List.<ConsentRequest>of() : g.getConsents()) {
                if (c.getField().equals(field) && c.getStatus() == ConsentStatus.PENDING) {
                    if (now.isAfter(c.getExpiresAt())) {
                        events.add(Decision.Accept.withoutMemory(new ConsentResolved(
                                c.getId(), field, ConsentDecision.EXPIRED, "not granted within " + days() + " days")));
                        next++;
                    } else if (c.getValue().equals(op.getValue())) {
                        return reject(
                                INVALID_STATE,
                                "this value of " + field + " already awaits the user's consent as " + c.getId());
                    }
                }
            }
            String id = MemoryIds.consent(space, next);
            events.add(new Decision.Accept(
                    new ConsentRequested(
                            id,
                            field,
                            op.getValue(),
                            current,
                            op.getSource(),
                            op.getConfidence(),
                            now.plus(policy.consentWindow()),
                            op.getReason(),
                            null),
                    id,
                    1));
            return events.size() == 1 ? events.get(0) : new Decision.AcceptAll(events);
        }
        signal.setSeq(seq);
        if (isTomHigh(actor, op.getConfidence())) {
            return Decision.Accept.withoutMemory(new ProfileFieldSet(
                    field, op.getValue(), current, ProfileApplyReason.TOM_HIGH_CONFIDENCE, null, List.of(signal)));
        }
        List<ProfileSignal> signals = Governance.pendingValue(g, field, op.getValue())
                .map(PendingProfileValue::getSignals)
                .orElse(List.of());
        for (ProfileSignal s : signals) {
            if (sameSignal(s, signal)) {
                return reject(
                        INVALID_STATE,
                        "this signal (" + describe(s) + ") already proposed this value of " + field
                                + "; it applies when a second, distinct signal proposes it");
            }
        }
        if (signals.size() + 1 >= 2) {
            List<ProfileSignal> all = new ArrayList<>(signals);
            all.add(signal);
            return Decision.Accept.withoutMemory(
                    new ProfileFieldSet(field, op.getValue(), current, ProfileApplyReason.CORROBORATED, null, all));
        }
        return Decision.Accept.withoutMemory(
                new ProfileSignalRecorded(field, op.getValue(), signal, signals.size() + 1, op.getReason()));
    }

    Decision decideConsent(
            MemoryRequest request, long seq, WriteModel model, Instant now, DecideConsent op, HeldChanges held) {
        if (request.getActor().getType() != ActorType.USER) {
            return reject(
                    FORBIDDEN,
                    "only the user grants or denies consent to a profile change, not "
                            + request.getActor().getType().name().toLowerCase(Locale.ROOT));
        }
        String space = request.getSpace();
        SpaceGovernance g = model.governance(space);
        ConsentRequest c = isBlank(op.getConsentId())
                ? null
                : Governance.consent(g, op.getConsentId()).orElse(null);
        if (c == null) {
            return reject(NOT_FOUND, "no consent request " + op.getConsentId() + " in space " + space);
        }
        Decision invalid = checkLength("reason", op.getReason(), Rules.MAX_REASON);
        if (invalid != null) {
            return invalid;
        }
        if (c.getStatus() != ConsentStatus.PENDING) {
            return reject(
                    ALREADY_RESOLVED,
                    "consent request " + c.getId() + " was already "
                            + c.getStatus().name().toLowerCase(Locale.ROOT) + " at seq " + c.getDecidedSeq());
        }
        if (!op.getGrant()) {
            return Decision.Accept.withoutMemory(
                    new ConsentResolved(c.getId(), c.getField(), ConsentDecision.DENIED, op.getReason()));
        }
        if (now.isAfter(c.getExpiresAt())) {
            return reject(
                    EXPIRED,
                    "consent request " + c.getId() + " expired at " + c.getExpiresAt()
                            + " and can no longer be granted");
        }
        if (c.getHeldRequest() != null) {
            return held.grant(request, seq, model, now, c, op.getReason());
        }
        String current =
                Governance.field(g, c.getField()).map(ProfileField::getValue).orElse(null);
        return new Decision.AcceptAll(List.of(
                Decision.Accept.withoutMemory(
                        new ConsentResolved(c.getId(), c.getField(), ConsentDecision.GRANTED, op.getReason())),
                Decision.Accept.withoutMemory(new ProfileFieldSet(
                        c.getField(), c.getValue(), current, ProfileApplyReason.CONSENT, c.getId(), List.of()))));
    }

    Decision acknowledge(MemoryRequest request, WriteModel model, AcknowledgeAlert op) {
        ActorType type = request.getActor().getType();
        if (type != ActorType.USER && type != ActorType.ADMIN) {
            return reject(FORBIDDEN, "critical-change alerts are acknowledged by the user or an admin");
        }
        String space = request.getSpace();
        CriticalAlert alert = isBlank(op.getAlertId())
                ? null
                : Governance.alert(model.governance(space), op.getAlertId()).orElse(null);
        if (alert == null) {
            return reject(NOT_FOUND, "no alert " + op.getAlertId() + " in space " + space);
        }
        if (alert.getAcknowledgedSeq() != null) {
            return reject(
                    ALREADY_RESOLVED,
                    "alert " + alert.getId() + " was already acknowledged at seq " + alert.getAcknowledgedSeq());
        }
        Decision invalid = checkLength("reason", op.getReason(), Rules.MAX_REASON);
        return invalid != null
                ? invalid
                : Decision.Accept.withoutMemory(new AlertAcknowledged(alert.getId(), op.getReason()));
    }

    /**
     * The decision with a {@code CriticalChangeAlerted} after each event that changed a critical block on behalf of an
     * actor that is neither a user, an admin nor an approved reflection (the events that follow a
     * {@code ReflectionDecided} in the same decision). The outcome still names the change (not the alert).
     */
    Decision withAlerts(MemoryRequest request, long seq, Decision decision) {
        if (decision instanceof Decision.Reject) {
            return decision;
        }
        List<Decision.Accept> events =
                decision instanceof Decision.AcceptAll all ? all.events() : List.of((Decision.Accept) decision);
        List<Decision.Accept> out = new ArrayList<>();
        boolean reflection = false;
        boolean alerted = false;
        for (Decision.Accept e : events) {
            out.add(e);
            reflection |= e.payload() instanceof ReflectionDecided;
            Actor actor = e.actor() != null ? e.actor() : request.getActor();
            Critical change = criticalChange(e.payload());
            if (change != null && !reflection && !privileged(actor)) {
                long changeSeq = seq + out.size() - 1;
                long alertSeq = seq + out.size();
                String id = MemoryIds.alert(request.getSpace(), alertSeq);
                out.add(new Decision.Accept(
                        new CriticalChangeAlerted(id, change.label, change.blockId, change.version, actor, changeSeq),
                        null,
                        0,
                        Actor.newBuilder()
                                .setType(ActorType.SYSTEM)
                                .setId("audit")
                                .build()));
                alerted = true;
            }
        }
        if (!alerted) {
            return decision;
        }
        // the outcome names the last event: keep naming the change the caller asked for
        Decision.Accept last = events.get(events.size() - 1);
        Decision.Accept lastAlert = out.remove(out.size() - 1);
        if (out.get(out.size() - 1) == last) {
            out.add(new Decision.Accept(lastAlert.payload(), last.memoryId(), last.version(), lastAlert.actor()));
        } else {
            out.add(lastAlert);
        }
        return new Decision.AcceptAll(out);
    }

    private record Critical(String label, String blockId, int version) {}

    private Critical criticalChange(Object payload) {
        if (payload instanceof BlockUpdated b && policy.isCritical(b.getLabel())) {
            return new Critical(b.getLabel(), b.getMemory().getId(), b.getVersion());
        }
        if (payload instanceof MemoryUpdated u
                && u.getAfter().getKind() == MemoryKind.BLOCK
                && policy.isCritical(u.getAfter().getBlockLabel())) {
            return new Critical(
                    u.getAfter().getBlockLabel(),
                    u.getAfter().getId(),
                    u.getAfter().getVersion());
        }
        return null;
    }

    private static boolean privileged(Actor actor) {
        return actor.getType() == ActorType.USER || actor.getType() == ActorType.ADMIN;
    }

    private static boolean isTomHigh(Actor actor, Confidence confidence) {
        return actor.getType() == ActorType.WORKER
                && GovernancePolicy.TOM_WORKER.equals(actor.getId())
                && confidence == Confidence.HIGH;
    }

    private static boolean sameSignal(ProfileSignal a, ProfileSignal b) {
        return a.getActor().getType() == b.getActor().getType()
                && a.getActor().getId().equals(b.getActor().getId())
                && Objects.equals(a.getSource(), b.getSource());
    }

    private static String describe(ProfileSignal s) {
        return s.getActor().getType().name().toLowerCase(Locale.ROOT) + ":"
                + s.getActor().getId() + (s.getSource() == null ? "" : ", source " + s.getSource());
    }

    private long days() {
        return policy.consentWindow().toDays();
    }

    private static Decision checkField(String field) {
        return GovernancePolicy.isValidField(field)
                ? null
                : reject(INVALID_ARGUMENT, "profile field must be " + GovernancePolicy.FIELD_HINT);
    }

    private static Decision checkValue(String value) {
        if (value == null || value.isBlank()) {
            return reject(INVALID_ARGUMENT, "value must not be blank");
        }
        return checkLength("value", value, GovernancePolicy.MAX_VALUE);
    }
}
