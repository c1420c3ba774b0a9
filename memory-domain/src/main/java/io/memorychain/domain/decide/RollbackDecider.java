package io.memorychain.domain.decide;

import static io.memorychain.domain.RejectionCode.FORBIDDEN;
import static io.memorychain.domain.RejectionCode.INVALID_ARGUMENT;
import static io.memorychain.domain.RejectionCode.INVALID_STATE;
import static io.memorychain.domain.RejectionCode.VERSION_CONFLICT;
import static io.memorychain.domain.decide.Decision.reject;

import io.memorychain.avro.ActorType;
import io.memorychain.avro.MemoriesLinked;
import io.memorychain.avro.MemoriesUnlinked;
import io.memorychain.avro.Memory;
import io.memorychain.avro.MemoryDeleted;
import io.memorychain.avro.MemoryRequest;
import io.memorychain.avro.MemoryState;
import io.memorychain.avro.MemoryUpdated;
import io.memorychain.avro.RollbackApplied;
import io.memorychain.avro.RollbackEdge;
import io.memorychain.avro.RollbackScope;
import io.memorychain.avro.RollbackSpace;
import io.memorychain.avro.RollbackTarget;
import io.memorychain.domain.FieldChecks;
import io.memorychain.domain.Purges;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * Applies a planned rollback (docs/architecture.md §17) atomically: admin only, a reason, a plan computed at the
 * current head (else VERSION_CONFLICT). Appends {@code RollbackApplied}, then the restoring events: deletions first
 * (memories that did not exist at the target), then the restored snapshots, then the edges, so a restored block version
 * becomes its label's head again after the version that replaced it was removed.
 */
final class RollbackDecider {

    Decision decide(MemoryRequest request, long seq, WriteModel model, Instant now, RollbackSpace r) {
        if (request.getActor().getType() != ActorType.ADMIN) {
            return reject(FORBIDDEN, "only admins roll back");
        }
        if (r.getReason() == null || r.getReason().isBlank()) {
            return reject(INVALID_ARGUMENT, "a rollback needs a reason");
        }
        if (r.getMemories().isEmpty() && r.getEdges().isEmpty()) {
            return reject(INVALID_ARGUMENT, "the plan changes nothing");
        }
        long head = seq - 1;
        if (r.getHeadSeq() != head) {
            return reject(
                    VERSION_CONFLICT,
                    "the plan was computed at seq " + r.getHeadSeq() + "; the space is at " + head + ": plan again");
        }
        if (r.getTargetSeq() < 0
                || r.getTargetSeq() > head
                || r.getScope() != RollbackScope.SPACE && r.getScopeId() == null) {
            return reject(INVALID_ARGUMENT, "target seq must be in 0.." + head + " and a scope needs its id");
        }
        String space = request.getSpace();
        List<Decision.Accept> deletions = new ArrayList<>();
        List<Decision.Accept> restores = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        String reason = "rollback: " + r.getReason();
        for (RollbackTarget t : r.getMemories()) {
            Memory current = model.memory(space, t.getMemoryId());
            if (current == null || !seen.add(t.getMemoryId())) {
                return reject(INVALID_ARGUMENT, "unknown or repeated memory " + t.getMemoryId() + " in the plan");
            }
            if (Purges.isPurged(current)) {
                return reject(
                        INVALID_STATE, "memory " + t.getMemoryId() + " was purged; a rollback cannot bring it back");
            }
            Memory target = t.getTarget();
            if (target == null) {
                deletions.add(new Decision.Accept(
                        new MemoryDeleted(current.getId(), reason), current.getId(), current.getVersion() + 1));
                continue;
            }
            if (!target.getId().equals(current.getId())
                    || !space.equals(target.getSpace())
                    || target.getKind() != current.getKind()
                    || !Objects.equals(target.getBlockLabel(), current.getBlockLabel())) {
                return reject(INVALID_ARGUMENT, "the target of " + t.getMemoryId() + " is another memory");
            }
            if (FieldChecks.isCiphertext(target.getContent())
                    || FieldChecks.isCiphertext(target.getSummary())
                    || target.getTags().stream().anyMatch(FieldChecks::isCiphertext)) {
                // planned by a reader without the content key: it would restore ciphertext as the text
                return reject(
                        INVALID_ARGUMENT,
                        "the target of " + t.getMemoryId() + " holds ciphertext ('" + FieldChecks.CIPHERTEXT_PREFIX
                                + "'): plan the rollback with the content key");
            }
            Memory after = Memory.newBuilder(target).build();
            after.setVersion(current.getVersion() + 1);
            after.setUpdatedAt(now);
            after.setDecayClockAt(null);
            if (after.getState() == MemoryState.ACTIVE) {
                after.setPurgeAt(null);
            }
            restores.add(new Decision.Accept(new MemoryUpdated(current, after), current.getId(), after.getVersion()));
        }
        List<Decision.Accept> edges = new ArrayList<>();
        for (RollbackEdge e : r.getEdges()) {
            String currentType = model.relation(space, e.getFromId(), e.getToId());
            if (currentType != null) {
                edges.add(Decision.Accept.withoutMemory(new MemoriesUnlinked(e.getFromId(), e.getToId(), currentType)));
            }
            if (e.getRelationType() != null) {
                if (!(e.getStrength() > 0 && e.getStrength() <= 1)) {
                    return reject(INVALID_ARGUMENT, "edge strength must be in (0, 1]");
                }
                edges.add(Decision.Accept.withoutMemory(
                        new MemoriesLinked(e.getFromId(), e.getToId(), e.getRelationType(), e.getStrength())));
            }
        }
        List<Decision.Accept> events = new ArrayList<>();
        events.add(Decision.Accept.withoutMemory(RollbackApplied.newBuilder()
                .setScope(r.getScope())
                .setScopeId(r.getScopeId())
                .setTargetSeq(r.getTargetSeq())
                .setTargetTime(r.getTargetTime())
                .setRangeToSeq(r.getRangeToSeq())
                .setHeadSeq(head)
                .setReason(r.getReason())
                .setPlanDigest(r.getPlanDigest())
                .setMemories(deletions.size() + restores.size())
                .setEdges(edges.size())
                .build()));
        events.addAll(deletions);
        events.addAll(restores);
        events.addAll(edges);
        return new Decision.AcceptAll(events);
    }
}
