package io.memorychain.domain.decide;

import static io.memorychain.domain.RejectionCode.ALREADY_RESOLVED;
import static io.memorychain.domain.RejectionCode.FORBIDDEN;
import static io.memorychain.domain.RejectionCode.INVALID_ARGUMENT;
import static io.memorychain.domain.RejectionCode.NOT_FOUND;
import static io.memorychain.domain.decide.Decider.checkLength;
import static io.memorychain.domain.decide.Decider.isBlank;
import static io.memorychain.domain.decide.Decision.reject;

import io.memorychain.avro.Actor;
import io.memorychain.avro.ActorType;
import io.memorychain.avro.Confidence;
import io.memorychain.avro.CreateMemory;
import io.memorychain.avro.DecayInputs;
import io.memorychain.avro.DecayStatus;
import io.memorychain.avro.DecideReflection;
import io.memorychain.avro.LinkMemories;
import io.memorychain.avro.Memory;
import io.memorychain.avro.MemoryKind;
import io.memorychain.avro.MemoryRequest;
import io.memorychain.avro.ProposeReflection;
import io.memorychain.avro.ReflectionChange;
import io.memorychain.avro.ReflectionChangeType;
import io.memorychain.avro.ReflectionDecided;
import io.memorychain.avro.ReflectionDecisionType;
import io.memorychain.avro.ReflectionDocument;
import io.memorychain.avro.ReflectionProposed;
import io.memorychain.avro.ReflectionRequested;
import io.memorychain.avro.RequestReflection;
import io.memorychain.avro.Tier;
import io.memorychain.avro.TransitionDecay;
import io.memorychain.avro.UpdateBlock;
import io.memorychain.avro.UpdateMemory;
import io.memorychain.avro.view.Reflection;
import io.memorychain.domain.MemoryIds;
import io.memorychain.domain.ReflectionMilestones;
import io.memorychain.domain.Reflections;
import io.memorychain.domain.Relations;
import io.memorychain.domain.Rules;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * The rules of the reflection engine (docs/architecture.md §18). A reflection is requested (manual trigger), proposed
 * by the reflection worker as a pending document that changes nothing, and decided at most once by an agent or a user:
 * approve, approve with changes, partial, reject. An approval appends {@code ReflectionDecided} and, in the same
 * transaction, the ordinary events of the approved changes, each decided by the ordinary rules (so a change that no
 * longer applies rejects the whole decision with its own code: atomic, never half applied).
 */
final class ReflectionDecider {

    /** Who may ask for a reflection (the manual trigger). */
    static final Set<ActorType> REQUESTERS = EnumSet.of(ActorType.AGENT, ActorType.USER, ActorType.ADMIN);
    /** The agent relaying its user's answer, or the user: never a worker (never auto-applied), nor an admin. */
    static final Set<ActorType> DECIDERS = EnumSet.of(ActorType.AGENT, ActorType.USER);
    /** Most changes one reflection may propose. */
    static final int MAX_CHANGES = 100;
    /** Longest summary (characters). */
    static final int MAX_SUMMARY_CHARS = 64_000;
    /** Longest list of episodes, priorities, insights, contradictions or questions. */
    static final int MAX_LIST = 1_000;
    /** Actor id prefix of the events that apply an approved reflection's changes. */
    static final String ACTOR_PREFIX = "reflection:";

    private final Decider decider;

    ReflectionDecider(Decider decider) {
        this.decider = decider;
    }

    Decision request(MemoryRequest request, RequestReflection op) {
        if (!REQUESTERS.contains(request.getActor().getType())) {
            return reject(FORBIDDEN, "reflections are requested by an agent, a user or an admin");
        }
        Decision invalid = checkLength("reason", op.getReason(), Rules.MAX_REASON);
        return invalid != null ? invalid : Decision.Accept.withoutMemory(new ReflectionRequested(op.getReason()));
    }

    /** Accepted: ReflectionProposed; the outcome's memory id is the new reflection's id. */
    Decision propose(MemoryRequest request, long seq, ProposeReflection op) {
        if (request.getActor().getType() != ActorType.WORKER) {
            return reject(FORBIDDEN, "reflections are proposed by the reflection worker only");
        }
        ReflectionDocument doc = op.getReflection();
        Decision invalid = checkDocument(doc, seq);
        if (invalid != null) {
            return invalid;
        }
        String id = MemoryIds.reflection(request.getSpace(), seq);
        return new Decision.Accept(new ReflectionProposed(id, doc), id, 1);
    }

    Decision decide(MemoryRequest request, long seq, WriteModel model, Instant now, DecideReflection op) {
        Actor reviewer = request.getActor();
        String space = request.getSpace();
        if (!DECIDERS.contains(reviewer.getType())) {
            return reject(
                    FORBIDDEN,
                    "a reflection is decided by the agent or the user, not by "
                            + reviewer.getType().name().toLowerCase(Locale.ROOT));
        }
        String id = op.getReflectionId();
        Reflection reflection = isBlank(id) ? null : model.reflection(space, id);
        if (reflection == null) {
            return reject(NOT_FOUND, "no reflection " + id + " in space " + space);
        }
        if (!Reflections.isPending(reflection)) {
            return reject(
                    ALREADY_RESOLVED,
                    "reflection " + id + " was already decided ("
                            + reflection.getStatus().name().toLowerCase(Locale.ROOT) + ") at seq "
                            + reflection.getDecidedSeq());
        }
        Decision invalid = checkLength("reason", op.getReason(), Rules.MAX_REASON);
        if (invalid != null) {
            return invalid;
        }
        List<ReflectionChange> proposed = reflection.getDocument().getChanges();
        Map<String, ReflectionChange> byId = new HashMap<>();
        proposed.forEach(c -> byId.put(c.getChangeId(), c));
        for (String changeId : op.getChangeIds()) {
            if (!byId.containsKey(changeId)) {
                return reject(INVALID_ARGUMENT, "change " + changeId + " is not in reflection " + id);
            }
        }
        if (new HashSet<>(op.getChangeIds()).size() != op.getChangeIds().size()) {
            return reject(INVALID_ARGUMENT, "change_ids contain duplicates");
        }
        Set<String> selected = switch (op.getDecision()) {
            case APPROVE, REJECT ->
                op.getChangeIds().isEmpty() && op.getEditedChanges().isEmpty()
                        ? (op.getDecision() == ReflectionDecisionType.APPROVE ? byId.keySet() : Set.of())
                        : null;
            case PARTIAL ->
                op.getChangeIds().isEmpty() || !op.getEditedChanges().isEmpty()
                        ? null
                        : new HashSet<>(op.getChangeIds());
            case APPROVE_WITH_CHANGES ->
                op.getEditedChanges().isEmpty()
                        ? null
                        : op.getChangeIds().isEmpty() ? byId.keySet() : new HashSet<>(op.getChangeIds());
        };
        if (selected == null) {
            return reject(
                    INVALID_ARGUMENT,
                    "APPROVE and REJECT take no change_ids nor edits; PARTIAL takes "
                            + "change_ids and no edits; APPROVE_WITH_CHANGES takes edits (and optionally change_ids)");
        }
        Map<String, ReflectionChange> edits = new HashMap<>();
        for (ReflectionChange edit : op.getEditedChanges()) {
            ReflectionChange original = byId.get(edit.getChangeId());
            if (original == null) {
                return reject(INVALID_ARGUMENT, "edited change " + edit.getChangeId() + " is not in reflection " + id);
            }
            if (!selected.contains(edit.getChangeId()) || edits.put(edit.getChangeId(), edit) != null) {
                return reject(
                        INVALID_ARGUMENT,
                        "edited change " + edit.getChangeId()
                                + " is not among the approved changes, or is edited twice");
            }
            if (edit.getType() != original.getType()
                    || !Objects.equals(edit.getMemoryId(), original.getMemoryId())
                    || !Objects.equals(edit.getToId(), original.getToId())
                    || !Objects.equals(edit.getLabel(), original.getLabel())) {
                return reject(
                        INVALID_ARGUMENT,
                        "edited change " + edit.getChangeId()
                                + " must keep its type and target (memory_id, to_id, label)");
            }
            Decision malformed = checkChange(edit);
            if (malformed != null) {
                return malformed;
            }
        }
        Actor applier = new Actor(reviewer.getType(), ACTOR_PREFIX + id);
        List<Decision.Accept> applied = new ArrayList<>();
        List<String> appliedIds = new ArrayList<>();
        List<String> memoryIds = new ArrayList<>();
        for (ReflectionChange original : proposed) {
            if (!selected.contains(original.getChangeId())) {
                continue;
            }
            ReflectionChange change = edits.getOrDefault(original.getChangeId(), original);
            long changeSeq = seq + 1 + applied.size();
            MemoryRequest sub = MemoryRequest.newBuilder(request)
                    .setOp(operation(change, id, model, space, now))
                    .setExpectedVersion(null)
                    .setSessionId(null)
                    .build();
            Decision d = change.getType() == ReflectionChangeType.ARCHIVE_MEMORY
                    ? decider.archiveApproved(sub, model)
                    : decider.decideOne(sub, changeSeq, model, now);
            if (d instanceof Decision.Reject r) {
                return reject(r.code(), "change " + change.getChangeId() + " of reflection " + id + ": " + r.message());
            }
            Decision.Accept a = (Decision.Accept) d; // create, update, block, link and archive decide one event
            applied.add(new Decision.Accept(a.payload(), a.memoryId(), a.version(), applier));
            appliedIds.add(change.getChangeId());
            memoryIds.add(a.memoryId());
        }
        ReflectionDecided decided = new ReflectionDecided(
                id,
                op.getDecision(),
                op.getReason(),
                appliedIds,
                memoryIds,
                List.copyOf(edits.values().stream()
                        .sorted((a, b) -> a.getChangeId().compareTo(b.getChangeId()))
                        .toList()));
        List<Decision.Accept> events = new ArrayList<>();
        events.add(new Decision.Accept(decided, id, 2));
        events.addAll(applied);
        return new Decision.AcceptAll(events);
    }

    /**
     * The ordinary request a change becomes when approved. An archival is the lifecycle's {@code TransitionDecay} to
     * ARCHIVED, decided without its worker-or-admin rule (the user approved it; {@link Decider#archiveApproved}); it is
     * a decision, not a decay computation, so its score and rate are 0 and it names no reads.
     */
    static Object operation(ReflectionChange c, String reflectionId, WriteModel model, String space, Instant now) {
        return switch (c.getType()) {
            case ARCHIVE_MEMORY ->
                new TransitionDecay(
                        c.getMemoryId(),
                        DecayStatus.ARCHIVED,
                        0.0,
                        archivalInputs(model.memory(space, c.getMemoryId()), now));
            case CREATE_PROCEDURE ->
                CreateMemory.newBuilder()
                        .setKind(MemoryKind.PROCEDURAL)
                        .setTier(Tier.WORKING)
                        .setCategory(c.getCategory())
                        .setContent(c.getContent())
                        .setSummary(c.getSummary())
                        .setTags(List.copyOf(c.getTags()))
                        .setImportance(c.getImportance() == null ? 3 : c.getImportance())
                        .setConfidence(Confidence.MEDIUM)
                        .setSource(ACTOR_PREFIX + reflectionId)
                        .build();
            case CREATE_MEMORY ->
                CreateMemory.newBuilder()
                        .setKind(MemoryKind.SEMANTIC)
                        .setTier(Tier.WORKING)
                        .setCategory(c.getCategory())
                        .setContent(c.getContent())
                        .setSummary(c.getSummary())
                        .setTags(List.copyOf(c.getTags()))
                        .setImportance(c.getImportance() == null ? 3 : c.getImportance())
                        .setConfidence(Confidence.MEDIUM)
                        .setSource(ACTOR_PREFIX + reflectionId)
                        .build();
            case UPDATE_MEMORY ->
                UpdateMemory.newBuilder()
                        .setId(c.getMemoryId())
                        .setContent(c.getContent())
                        .setSummary(c.getSummary())
                        .setTags(c.getTags().isEmpty() ? null : List.copyOf(c.getTags()))
                        .setImportance(c.getImportance())
                        .setCategory(c.getCategory())
                        .build();
            case UPDATE_BLOCK ->
                UpdateBlock.newBuilder()
                        .setLabel(c.getLabel())
                        .setContent(c.getContent())
                        .setCore(true)
                        .build();
            case LINK_MEMORIES ->
                LinkMemories.newBuilder()
                        .setFromId(c.getMemoryId())
                        .setToId(c.getToId())
                        .setRelationType(c.getRelationType() == null ? Relations.SYMMETRIC : c.getRelationType())
                        .setStrength(1.0)
                        .build();
        };
    }

    private static DecayInputs archivalInputs(Memory m, Instant now) {
        Instant last = m == null ? now : m.getDecayClockAt() != null ? m.getDecayClockAt() : m.getUpdatedAt();
        double days = Math.max(0, Duration.between(last, now).toMillis() / 86_400_000.0);
        double base = m == null
                ? 0
                : switch (m.getConfidence()) {
                    case HIGH -> 1.0;
                    case MEDIUM -> 0.7;
                    case LOW -> 0.5;
                };
        return new DecayInputs(last, now, days, 0L, base, 1.0, 0.0);
    }

    private static Decision checkDocument(ReflectionDocument doc, long seq) {
        if (isBlank(doc.getSummary()) || doc.getSummary().length() > MAX_SUMMARY_CHARS) {
            return reject(
                    INVALID_ARGUMENT, "a reflection needs a summary of at most " + MAX_SUMMARY_CHARS + " characters");
        }
        if (doc.getChanges().size() > MAX_CHANGES) {
            return reject(
                    INVALID_ARGUMENT,
                    "at most " + MAX_CHANGES + " changes per reflection, got "
                            + doc.getChanges().size());
        }
        if (doc.getFromSeq() < 0 || doc.getToSeq() < doc.getFromSeq() || doc.getToSeq() >= seq || doc.getNumber() < 1) {
            return reject(INVALID_ARGUMENT, "need 0 <= from_seq <= to_seq < " + seq + " and number >= 1");
        }
        if (doc.getMilestone() != null && doc.getMilestone() != ReflectionMilestones.of(doc.getNumber())) {
            return reject(
                    INVALID_ARGUMENT,
                    "reflection #" + doc.getNumber() + " is not the "
                            + doc.getMilestone().name().toLowerCase(Locale.ROOT) + " milestone (10th summary, 25th "
                            + "consolidation, 50th synthesis, 100th retrospective)");
        }
        for (List<String> list : List.of(
                doc.getEpisodeIds(),
                doc.getPriorities(),
                doc.getEvolutionInsights(),
                doc.getContradictions(),
                doc.getQuestions())) {
            if (list.size() > MAX_LIST || list.stream().anyMatch(s -> s == null || s.length() > Rules.MAX_REASON)) {
                return reject(
                        INVALID_ARGUMENT,
                        "lists hold at most " + MAX_LIST + " entries of at most " + Rules.MAX_REASON + " characters");
            }
        }
        Decision invalid = Decider.firstProblem(
                checkLength("trigger_detail", doc.getTriggerDetail(), Rules.MAX_SHORT_TEXT),
                checkLength("guidance", doc.getGuidance(), Rules.MAX_SUMMARY * 8),
                checkLength("model", doc.getModel(), Rules.MAX_SHORT_TEXT));
        if (invalid != null) {
            return invalid;
        }
        Set<String> ids = new HashSet<>();
        Set<String> targets = new LinkedHashSet<>();
        for (ReflectionChange c : doc.getChanges()) {
            if (isBlank(c.getChangeId())
                    || c.getChangeId().length() > Rules.MAX_TAG_LENGTH
                    || !ids.add(c.getChangeId())) {
                return reject(
                        INVALID_ARGUMENT, "change ids must be distinct, 1 to " + Rules.MAX_TAG_LENGTH + " characters");
            }
            Decision malformed = checkChange(c);
            if (malformed != null) {
                return malformed;
            }
            String target = switch (c.getType()) {
                case CREATE_MEMORY -> null;
                case UPDATE_MEMORY -> "memory " + c.getMemoryId();
                case UPDATE_BLOCK -> "block " + c.getLabel();
                case LINK_MEMORIES -> "link " + c.getMemoryId() + " " + c.getToId();
                case ARCHIVE_MEMORY -> "memory " + c.getMemoryId();
                case CREATE_PROCEDURE -> null;
            };
            if (target != null && !targets.add(target)) {
                return reject(INVALID_ARGUMENT, "two changes of the reflection touch " + target);
            }
        }
        return null;
    }

    /** The fields each change type needs (the ordinary rules check the rest when it is applied). */
    static Decision checkChange(ReflectionChange c) {
        String problem = switch (c.getType()) {
            case CREATE_MEMORY, CREATE_PROCEDURE -> isBlank(c.getContent()) ? "needs content" : null;
            case UPDATE_MEMORY ->
                isBlank(c.getMemoryId())
                        ? "needs memory_id"
                        : c.getContent() == null
                                        && c.getSummary() == null
                                        && c.getCategory() == null
                                        && c.getTags().isEmpty()
                                        && c.getImportance() == null
                                ? "changes nothing"
                                : null;
            case UPDATE_BLOCK -> isBlank(c.getLabel()) || isBlank(c.getContent()) ? "needs label and content" : null;
            case LINK_MEMORIES -> isBlank(c.getMemoryId()) || isBlank(c.getToId()) ? "needs memory_id and to_id" : null;
            case ARCHIVE_MEMORY -> isBlank(c.getMemoryId()) ? "needs memory_id" : null;
        };
        if (problem == null && isBlank(c.getReason())) {
            problem = "needs a reason";
        }
        if (problem == null && c.getReason().length() > Rules.MAX_REASON) {
            problem = "has a reason over " + Rules.MAX_REASON + " characters";
        }
        return problem == null
                ? null
                : reject(
                        INVALID_ARGUMENT,
                        "change " + c.getChangeId() + " (" + c.getType().name().toLowerCase(Locale.ROOT) + ") "
                                + problem);
    }
}
