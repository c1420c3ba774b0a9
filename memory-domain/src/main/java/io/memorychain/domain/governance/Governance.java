package io.memorychain.domain.governance;

import io.memorychain.avro.AlertAcknowledged;
import io.memorychain.avro.ConsentRequested;
import io.memorychain.avro.ConsentResolved;
import io.memorychain.avro.CriticalChangeAlerted;
import io.memorychain.avro.MemoryEvent;
import io.memorychain.avro.ProfileFieldSet;
import io.memorychain.avro.ProfileSignalRecorded;
import io.memorychain.avro.view.ConsentRequest;
import io.memorychain.avro.view.ConsentStatus;
import io.memorychain.avro.view.CriticalAlert;
import io.memorychain.avro.view.PendingProfileValue;
import io.memorychain.avro.view.ProfileField;
import io.memorychain.avro.view.SpaceGovernance;
import io.memorychain.domain.contradiction.Contradictions;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * {@code evolve(governance, event)} for profile fields, consent requests and critical-change alerts
 * (docs/architecture.md §21): one record per space, used by the sequencer (to decide) and by the projection (to read),
 * so both see the same state. Pure: reads only the event and the prior record.
 */
public final class Governance {

    private Governance() {}

    public static boolean isGovernanceEvent(Object payload) {
        return payload instanceof ProfileFieldSet
                || payload instanceof ProfileSignalRecorded
                || payload instanceof ConsentRequested
                || payload instanceof ConsentResolved
                || payload instanceof CriticalChangeAlerted
                || payload instanceof AlertAcknowledged
                || Contradictions.isContradictionEvent(payload);
    }

    public static SpaceGovernance empty(String space) {
        return new SpaceGovernance(space, List.of(), List.of(), List.of(), List.of(), List.of());
    }

    /**
     * @param before the space's record (null: none yet)
     * @return the record after the event, or null when the event is not a governance event
     */
    public static SpaceGovernance evolve(SpaceGovernance before, MemoryEvent event) {
        Object payload = event.getPayload();
        if (!isGovernanceEvent(payload)) {
            return null;
        }
        SpaceGovernance g = SpaceGovernance.newBuilder(before == null ? empty(event.getSpace()) : before)
                .build();
        if (payload instanceof ProfileFieldSet p) {
            List<ProfileField> fields = new ArrayList<>(g.getFields());
            fields.removeIf(f -> f.getName().equals(p.getField()));
            fields.add(new ProfileField(
                    p.getField(),
                    p.getValue(),
                    event.getSeq(),
                    event.getOccurredAt(),
                    event.getActor(),
                    p.getAppliedBy(),
                    p.getConsentId()));
            fields.sort(Comparator.comparing(ProfileField::getName));
            g.setFields(fields);
            List<PendingProfileValue> pending = new ArrayList<>(g.getPending());
            pending.removeIf(v -> v.getField().equals(p.getField()));
            g.setPending(pending);
        } else if (payload instanceof ProfileSignalRecorded r) {
            List<PendingProfileValue> pending = new ArrayList<>(g.getPending());
            PendingProfileValue existing =
                    pendingValue(g, r.getField(), r.getValue()).orElse(null);
            List<io.memorychain.avro.ProfileSignal> signals =
                    new ArrayList<>(existing == null ? List.of() : existing.getSignals());
            signals.add(r.getSignal());
            pending.remove(existing);
            pending.add(new PendingProfileValue(r.getField(), r.getValue(), signals));
            g.setPending(pending);
        } else if (payload instanceof ConsentRequested c) {
            List<ConsentRequest> consents = new ArrayList<>(g.getConsents());
            consents.add(ConsentRequest.newBuilder()
                    .setId(c.getConsentId())
                    .setField(c.getField())
                    .setValue(c.getValue())
                    .setPrevious(c.getPrevious())
                    .setSource(c.getSource())
                    .setConfidence(c.getConfidence())
                    .setStatus(ConsentStatus.PENDING)
                    .setRequestedSeq(event.getSeq())
                    .setRequestedAt(event.getOccurredAt())
                    .setRequestedBy(event.getActor())
                    .setExpiresAt(c.getExpiresAt())
                    .setReason(c.getReason())
                    .setHeldRequest(c.getHeldRequest())
                    .build());
            g.setConsents(consents);
        } else if (payload instanceof ConsentResolved r) {
            g.setConsents(replace(
                    g.getConsents(),
                    ConsentRequest::getId,
                    r.getConsentId(),
                    event,
                    c -> ConsentRequest.newBuilder(c)
                            .setStatus(ConsentStatus.valueOf(r.getDecision().name()))
                            .setDecidedSeq(event.getSeq())
                            .setDecidedAt(event.getOccurredAt())
                            .setDecidedBy(event.getActor())
                            .setDecisionReason(r.getReason())
                            .build()));
        } else if (payload instanceof CriticalChangeAlerted a) {
            List<CriticalAlert> alerts = new ArrayList<>(g.getAlerts());
            alerts.add(CriticalAlert.newBuilder()
                    .setId(a.getAlertId())
                    .setLabel(a.getLabel())
                    .setBlockId(a.getBlockId())
                    .setVersion(a.getVersion())
                    .setChangeActor(a.getChangeActor())
                    .setChangeSeq(a.getChangeSeq())
                    .setAlertedSeq(event.getSeq())
                    .setAlertedAt(event.getOccurredAt())
                    .setAcknowledgedSeq(null)
                    .setAcknowledgedAt(null)
                    .setAcknowledgedBy(null)
                    .setReason(null)
                    .build());
            g.setAlerts(alerts);
        } else if (payload instanceof AlertAcknowledged a) {
            g.setAlerts(replace(
                    g.getAlerts(),
                    CriticalAlert::getId,
                    a.getAlertId(),
                    event,
                    x -> CriticalAlert.newBuilder(x)
                            .setAcknowledgedSeq(event.getSeq())
                            .setAcknowledgedAt(event.getOccurredAt())
                            .setAcknowledgedBy(event.getActor())
                            .setReason(a.getReason())
                            .build()));
        } else if (Contradictions.isContradictionEvent(payload)) {
            g.setContradictions(Contradictions.evolve(g.getContradictions(), event));
        }
        return g;
    }

    public static Optional<ProfileField> field(SpaceGovernance g, String name) {
        return g == null
                ? Optional.empty()
                : g.getFields().stream().filter(f -> f.getName().equals(name)).findFirst();
    }

    public static Optional<ConsentRequest> consent(SpaceGovernance g, String id) {
        return g == null
                ? Optional.empty()
                : g.getConsents().stream().filter(c -> c.getId().equals(id)).findFirst();
    }

    public static Optional<CriticalAlert> alert(SpaceGovernance g, String id) {
        return g == null
                ? Optional.empty()
                : g.getAlerts().stream().filter(a -> a.getId().equals(id)).findFirst();
    }

    public static Optional<PendingProfileValue> pendingValue(SpaceGovernance g, String field, String value) {
        return g == null
                ? Optional.empty()
                : g.getPending().stream()
                        .filter(v -> v.getField().equals(field) && v.getValue().equals(value))
                        .findFirst();
    }

    /** The alerts nobody acknowledged yet, oldest first: what /context shows. */
    public static List<CriticalAlert> unacknowledged(SpaceGovernance g) {
        return g == null
                ? List.of()
                : g.getAlerts().stream()
                        .filter(a -> a.getAcknowledgedSeq() == null)
                        .toList();
    }

    private static <T> List<T> replace(
            List<T> items,
            java.util.function.Function<T, String> id,
            String wanted,
            MemoryEvent event,
            java.util.function.UnaryOperator<T> change) {
        List<T> out = new ArrayList<>(items.size());
        boolean found = false;
        for (T item : items) {
            if (id.apply(item).equals(wanted)) {
                out.add(change.apply(item));
                found = true;
            } else {
                out.add(item);
            }
        }
        if (!found) {
            throw new IllegalStateException(
                    "Event " + event.getSpace() + "#" + event.getSeq() + " names unknown " + wanted);
        }
        return out;
    }
}
