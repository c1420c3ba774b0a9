package io.memorychain.domain;

import io.memorychain.avro.AccessGrantRequested;
import io.memorychain.avro.AccessGranted;
import io.memorychain.avro.AccessRevoked;
import io.memorychain.avro.BlockUpdated;
import io.memorychain.avro.DecayTransitioned;
import io.memorychain.avro.DuplicatesRemoved;
import io.memorychain.avro.GrantedContentRead;
import io.memorychain.avro.MemoriesConsolidated;
import io.memorychain.avro.MemoryCreated;
import io.memorychain.avro.MemoryDeleted;
import io.memorychain.avro.MemoryEvent;
import io.memorychain.avro.MemoryExpired;
import io.memorychain.avro.MemoryRestored;
import io.memorychain.avro.MemoryUpdated;
import io.memorychain.avro.ProposalResolved;
import io.memorychain.avro.ProposalSubmitted;
import io.memorychain.avro.RefinementCompleted;
import io.memorychain.avro.RefinementStarted;
import io.memorychain.avro.ReflectionDecided;
import io.memorychain.avro.ReflectionProposed;
import io.memorychain.avro.ReflectionRequested;
import io.memorychain.avro.RollbackApplied;
import java.util.List;
import org.apache.avro.specific.SpecificRecord;

/** Human one-liners for the audit log. */
public final class EventDescriptions {

    private static final int SNIPPET = 80;

    private EventDescriptions() {}

    public static String type(MemoryEvent event) {
        return ((SpecificRecord) event.getPayload()).getSchema().getName();
    }

    public static String describe(MemoryEvent event) {
        Object p = event.getPayload();
        if (p instanceof MemoryCreated c) {
            return "created " + c.getMemory().getId() + ": "
                    + snippet(c.getMemory().getContent());
        } else if (p instanceof MemoryUpdated u) {
            return "updated " + u.getAfter().getId() + " to v" + u.getAfter().getVersion();
        } else if (p instanceof MemoriesConsolidated c) {
            return "consolidated " + c.getSupersededIds().size() + " memories into "
                    + c.getCreated().getId() + (c.getReason() == null ? "" : " (" + snippet(c.getReason()) + ")");
        } else if (p instanceof MemoryDeleted d) {
            return "soft-deleted " + d.getMemoryId()
                    + (d.getReason() == null ? "" : " (" + snippet(d.getReason()) + ")");
        } else if (p instanceof DecayTransitioned d) {
            return "decay: " + d.getMemoryId() + " " + status(d.getFrom()) + " -> " + status(d.getTo())
                    + String.format(
                            java.util.Locale.ROOT,
                            " (score %.3f, %.1f days since last access, %d reads)",
                            d.getScore(),
                            d.getInputs().getDaysSinceLastAccess(),
                            d.getInputs().getAccessCount())
                    + (d.getTo() == io.memorychain.avro.DecayStatus.ARCHIVED
                            ? "; archived, hidden until restored"
                            : "");
        } else if (p instanceof MemoryExpired e) {
            return "expired " + e.getMemoryId() + " (TTL soft-delete"
                    + (e.getReason() == null ? "" : ": " + snippet(e.getReason()))
                    + (e.getPurgeAt() == null ? "; kept indefinitely" : "; purge at " + e.getPurgeAt()) + ")";
        } else if (p instanceof io.memorychain.avro.MemoryPurged x) {
            return "purged " + x.getMemoryId() + (x.getReason() == null ? "" : " (" + snippet(x.getReason()) + ")");
        } else if (p instanceof io.memorychain.avro.MemoryErased x) {
            return "erased " + x.getMemoryId() + " (data key " + (x.getDataKeyId() == null ? "none" : x.getDataKeyId())
                    + " destroyed: " + snippet(x.getReason()) + ")";
        } else if (p instanceof MemoryRestored r) {
            return "restored " + r.getMemoryId();
        } else if (p instanceof BlockUpdated b) {
            return "block " + b.getLabel() + " v" + b.getVersion() + " is "
                    + b.getMemory().getId();
        } else if (p instanceof ProposalSubmitted s) {
            String mode = s.getReviewMode() == null
                    ? ""
                    : switch (s.getReviewMode()) {
                        case BATCH -> "";
                        case MANUAL -> " for manual review";
                        case AUTO_COMMIT -> " for auto-commit";
                    };
            return "proposed " + s.getProposalId() + mode + ": "
                    + snippet(s.getProposal().getContent());
        } else if (p instanceof io.memorychain.avro.ContradictionFlagged f) {
            return "contradiction " + f.getContradictionId() + " flagged between " + f.getFirstId() + " and "
                    + f.getSecondId()
                    + (f.getSimilarity() == null
                            ? ""
                            : String.format(java.util.Locale.ROOT, " (similarity %.3f)", f.getSimilarity()));
        } else if (p instanceof io.memorychain.avro.ContradictionResolved r) {
            return "contradiction " + r.getContradictionId() + " resolved: " + status(r.getResolution())
                    + (r.getWinnerId() == null ? "" : ", " + r.getWinnerId() + " wins");
        } else if (p instanceof ProposalResolved r) {
            return describe(r);
        } else if (p instanceof DuplicatesRemoved d) {
            return "removed " + d.getRemoved().size() + " exact duplicate"
                    + (d.getRemoved().size() == 1 ? "" : "s")
                    + (d.getSessionId() == null ? "" : " before refinement session " + d.getSessionId());
        } else if (p instanceof RefinementStarted r) {
            return "refinement session " + r.getSessionId() + " started ("
                    + r.getTrigger().name().toLowerCase(java.util.Locale.ROOT) + "): core " + r.getCoreTokens()
                    + " tokens, target " + r.getTargetTokens()
                    + ", ledger " + r.getLedgerSize();
        } else if (p instanceof ReflectionRequested r) {
            return "reflection requested" + (r.getReason() == null ? "" : " (" + snippet(r.getReason()) + ")");
        } else if (p instanceof ReflectionProposed r) {
            return "reflection #" + r.getReflection().getNumber() + " " + r.getReflectionId() + " proposed ("
                    + r.getReflection()
                            .getTrigger()
                            .name()
                            .toLowerCase(java.util.Locale.ROOT)
                            .replace('_', ' ')
                    + "): " + r.getReflection().getChanges().size() + " change(s), "
                    + r.getReflection().getEpisodeIds().size() + " episode(s)";
        } else if (p instanceof ReflectionDecided r) {
            return "reflection " + r.getReflectionId() + " "
                    + r.getDecision().name().toLowerCase(java.util.Locale.ROOT).replace('_', ' ') + ": "
                    + r.getAppliedChangeIds().size() + " change(s) applied"
                    + (r.getReason() == null ? "" : " (" + snippet(r.getReason()) + ")");
        } else if (p instanceof io.memorychain.avro.ProfileFieldSet f) {
            return "profile " + f.getField() + " set ("
                    + status(f.getAppliedBy()).replace('_', ' ')
                    + (f.getConsentId() == null ? "" : " " + f.getConsentId())
                    + (f.getSignals().isEmpty() ? "" : ", signals: " + signals(f.getSignals())) + ")";
        } else if (p instanceof io.memorychain.avro.ProfileSignalRecorded r) {
            return "profile " + r.getField() + " proposed by " + signals(List.of(r.getSignal())) + ": " + r.getSignals()
                    + " signal(s), awaiting corroboration";
        } else if (p instanceof io.memorychain.avro.ConsentRequested c) {
            return "consent " + c.getConsentId() + " requested for profile " + c.getField() + " (expires "
                    + c.getExpiresAt() + ")" + (c.getReason() == null ? "" : ": " + snippet(c.getReason()));
        } else if (p instanceof io.memorychain.avro.ConsentResolved r) {
            return "consent " + r.getConsentId() + " for profile " + r.getField() + " " + status(r.getDecision())
                    + (r.getReason() == null ? "" : " (" + snippet(r.getReason()) + ")");
        } else if (p instanceof io.memorychain.avro.CriticalChangeAlerted a) {
            return "CRITICAL: block " + a.getLabel() + " v" + a.getVersion() + " (" + a.getBlockId() + ") changed by "
                    + status(a.getChangeActor().getType()) + ":"
                    + a.getChangeActor().getId() + " at seq "
                    + a.getChangeSeq() + "; pending acknowledgement as " + a.getAlertId();
        } else if (p instanceof io.memorychain.avro.AlertAcknowledged a) {
            return "alert " + a.getAlertId() + " acknowledged"
                    + (a.getReason() == null ? "" : " (" + snippet(a.getReason()) + ")");
        } else if (p instanceof io.memorychain.avro.SigningKeyRotated r) {
            return "chain signing key rotated from " + r.getPreviousKeyId() + " to " + r.getNewKeyId()
                    + (r.getReason() == null ? "" : " (" + snippet(r.getReason()) + ")");
        } else if (p instanceof io.memorychain.avro.SigningKeyCompromised c) {
            return "chain signing key " + c.getKeyId() + " marked compromised after seq " + c.getFromSeq() + " ("
                    + snippet(c.getReason()) + ")";
        } else if (p instanceof RollbackApplied r) {
            return "rollback of " + r.getScope().name().toLowerCase(java.util.Locale.ROOT)
                    + (r.getScopeId() == null ? "" : " " + r.getScopeId()) + " to seq " + r.getTargetSeq()
                    + (r.getTargetTime() == null ? "" : " (" + r.getTargetTime() + ")")
                    + (r.getRangeToSeq() == null ? "" : ", range " + (r.getTargetSeq() + 1) + ".." + r.getRangeToSeq())
                    + ": " + r.getMemories() + " memor" + (r.getMemories() == 1 ? "y" : "ies") + ", " + r.getEdges()
                    + " edge" + (r.getEdges() == 1 ? "" : "s") + " (" + snippet(r.getReason()) + ")";
        } else if (p instanceof AccessGrantRequested g) {
            return "grant " + g.getGrantId() + " requested for " + g.getGrantee() + ", " + g.getDurationSeconds()
                    + " s, "
                    + (g.getMemoryIds().isEmpty()
                            ? "whole space"
                            : g.getMemoryIds().size() + " memories")
                    + ": " + snippet(g.getPurpose());
        } else if (p instanceof AccessGranted g) {
            return "grant " + g.getGrantId() + " consented, expires at " + g.getExpiresAt();
        } else if (p instanceof AccessRevoked r) {
            return "grant " + r.getGrantId() + " revoked"
                    + (r.getReason() == null ? "" : " (" + snippet(r.getReason()) + ")");
        } else if (p instanceof GrantedContentRead r) {
            return "content read under grant " + r.getGrantId() + ": " + r.getOperation() + ", " + r.getCount()
                    + " memor" + (r.getCount() == 1 ? "y" : "ies");
        } else if (p instanceof RefinementCompleted r) {
            return "refinement session " + r.getSessionId() + " completed: " + r.getSummary() + "; journal "
                    + r.getJournal().getId();
        }
        return type(event) + " " + memoryIdOf(p);
    }

    private static String describe(ProposalResolved r) {
        String what = switch (r.getDecision()) {
            case COMMIT ->
                (r.getAutoCommitted() ? "auto-committed proposal " : "committed proposal ") + r.getProposalId() + " as "
                        + r.getMemoryId();
            case REJECT -> "rejected proposal " + r.getProposalId();
            case DEFER -> "deferred proposal " + r.getProposalId();
        };
        return what
                + (r.getConflictsWith().isEmpty()
                        ? ""
                        : " (conflicts with " + String.join(", ", r.getConflictsWith()) + ")")
                + (r.getReason() == null ? "" : ": " + snippet(r.getReason()));
    }

    private static String signals(List<io.memorychain.avro.ProfileSignal> signals) {
        return String.join(
                ", ",
                signals.stream()
                        .map(s -> status(s.getActor().getType()) + ":"
                                + s.getActor().getId() + (s.getSource() == null ? "" : "/" + s.getSource()) + " "
                                + status(s.getConfidence()))
                        .toList());
    }

    private static String status(Enum<?> status) {
        return status.name().toLowerCase(java.util.Locale.ROOT);
    }

    private static String memoryIdOf(Object payload) {
        Object id = ((SpecificRecord) payload).get(0);
        return String.valueOf(id);
    }

    public static String snippet(String text) {
        return snippet(text, SNIPPET);
    }

    /** The first {@code max} characters on one line (only the head of the text is looked at). */
    public static String snippet(String text, int max) {
        String oneLine = ContentHash.collapseWhitespace(text.length() > 4 * max ? text.substring(0, 4 * max) : text);
        return oneLine.length() <= max ? oneLine : oneLine.substring(0, max - 1) + "…";
    }
}
