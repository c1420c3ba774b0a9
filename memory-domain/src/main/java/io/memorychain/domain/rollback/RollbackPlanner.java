package io.memorychain.domain.rollback;

import io.memorychain.avro.Actor;
import io.memorychain.avro.Memory;
import io.memorychain.avro.MemoryEvent;
import io.memorychain.avro.MemoryState;
import io.memorychain.avro.ReflectionDecided;
import io.memorychain.avro.RollbackScope;
import io.memorychain.domain.Evolver;
import io.memorychain.domain.decide.InMemoryWriteModel;
import io.memorychain.domain.decide.WriteModelEvolution;
import io.memorychain.domain.refinement.RefinementState;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.function.BiFunction;
import java.util.function.Function;

/**
 * Plans a rollback (docs/architecture.md §17) by replaying one space's chain, in seq order, into two fresh write
 * models: the state at the target seq and the state at the head. The memories and edges that events in scope touched
 * after the target are compared between the two; each that differs is part of the plan. Pure: no clock, no I/O; fed
 * event by event ({@link #accept}), so a reader can report progress.
 */
public final class RollbackPlanner {

    private final String space;
    private final RollbackSpec spec;
    private final InMemoryWriteModel atTarget = new InMemoryWriteModel();
    private final InMemoryWriteModel atHead = new InMemoryWriteModel();
    private final Map<String, Evolver.Edge> targetEdges = new HashMap<>();
    private final Map<String, Evolver.Edge> headEdges = new HashMap<>();
    private final TreeSet<String> touchedMemories = new TreeSet<>();
    private final TreeSet<String> touchedEdges = new TreeSet<>();
    private boolean frozen;
    private long targetSeq;
    private long head;
    private long read;

    public RollbackPlanner(String space, RollbackSpec spec) {
        this.space = Objects.requireNonNull(space, "space");
        this.spec = Objects.requireNonNull(spec, "spec");
    }

    /** Plans over a whole chain at once. */
    public static RollbackPlan plan(String space, RollbackSpec spec, Iterable<MemoryEvent> chain) {
        RollbackPlanner planner = new RollbackPlanner(space, spec);
        chain.forEach(planner::accept);
        return planner.plan();
    }

    /** The next event of the space's chain (seq head + 1); events of other spaces are ignored. */
    public void accept(MemoryEvent event) {
        if (!space.equals(event.getSpace())) {
            return;
        }
        if (event.getSeq() != head + 1) {
            throw new IllegalArgumentException(
                    "chain of " + space + " not in order: " + event.getSeq() + " after " + head);
        }
        read++;
        if (!frozen && startsRange(event)) {
            frozen = true;
            targetSeq = head;
        }
        List<Evolver.Change> changes = WriteModelEvolution.apply(event, atHead);
        Evolver.Edge edge = Evolver.edge(event).orElse(null);
        trackEdge(headEdges, edge);
        if (!frozen) {
            WriteModelEvolution.apply(event, atTarget);
            trackEdge(targetEdges, edge);
        } else if (inScope(event)) {
            touch(spec, changes.stream().map(c -> c.after().getId()).toList(), edge, touchedMemories, touchedEdges);
        }
        head = event.getSeq();
    }

    /**
     * Adds what an event in scope after the target touched: the memories it changed and the edge it linked or unlinked
     * (a memory rollback: that memory and its edges only), edges as {@link #edgeKey}.
     */
    static void touch(
            RollbackSpec spec, List<String> changed, Evolver.Edge edge, Set<String> memories, Set<String> edges) {
        boolean all = spec.scope() != RollbackScope.MEMORY;
        for (String id : changed) {
            if (all || id.equals(spec.scopeId())) {
                memories.add(id);
            }
        }
        if (edge != null
                && (all || edge.fromId().equals(spec.scopeId()) || edge.toId().equals(spec.scopeId()))) {
            edges.add(edgeKey(edge.fromId(), edge.toId()));
        }
    }

    /** The plan over the events accepted so far (the head is the last one). */
    public RollbackPlan plan() {
        return build(
                space,
                spec,
                frozen ? targetSeq : head,
                head,
                read,
                touchedMemories,
                touchedEdges,
                new States(
                        id -> atTarget.memory(space, id),
                        id -> atHead.memory(space, id),
                        (from, to) -> targetEdges.get(edgeKey(from, to)),
                        (from, to) -> headEdges.get(edgeKey(from, to))));
    }

    /**
     * The memories and edges of a space at the target and at the head, however a planner found them: null for a memory
     * that did not exist, or no edge (never linked, or unlinked).
     */
    record States(
            Function<String, Memory> memoryAtTarget,
            Function<String, Memory> memoryAtHead,
            BiFunction<String, String, Evolver.Edge> edgeAtTarget,
            BiFunction<String, String, Evolver.Edge> edgeAtHead) {}

    /**
     * The plan, however the touched memories and edges and their states were found: every planner ends here, so that
     * equal inputs give equal plans and digests.
     *
     * @param targetSeq the seq restored: below the head once an event after it is undone, else the head
     * @param touchedEdges keys {@link #edgeKey} of the edges events in scope touched after the target
     */
    static RollbackPlan build(
            String space,
            RollbackSpec spec,
            long targetSeq,
            long head,
            long read,
            SortedSet<String> touchedMemories,
            SortedSet<String> touchedEdges,
            States states) {
        boolean frozen = targetSeq < head;
        switch (spec.scope()) {
            case SPACE, MEMORY -> {
                if (spec.toSeq() != null && spec.toSeq() > head) {
                    throw new RollbackPlanException(
                            "INVALID_ARGUMENT",
                            "to_seq " + spec.toSeq() + " is beyond the head " + head + " of " + space);
                }
                if (spec.scope() == RollbackScope.MEMORY
                        && states.memoryAtHead().apply(spec.scopeId()) == null) {
                    throw new RollbackPlanException("NOT_FOUND", "no memory " + spec.scopeId() + " in " + space);
                }
            }
            case SESSION -> {
                if (!frozen) {
                    throw new RollbackPlanException(
                            "NOT_FOUND", "no refinement session " + spec.scopeId() + " in " + space);
                }
            }
            case REFLECTION -> {
                if (!frozen) {
                    throw new RollbackPlanException(
                            "NOT_FOUND", "no decided reflection " + spec.scopeId() + " in " + space);
                }
            }
            case ACTOR -> {
                if (spec.toSeq() > head) {
                    throw new RollbackPlanException(
                            "INVALID_ARGUMENT",
                            "from_seq " + spec.toSeq() + " is beyond the head " + head + " of " + space);
                }
            }
            default -> throw new IllegalStateException();
        }
        List<RollbackPlan.MemoryChange> memories = new ArrayList<>();
        for (String id : touchedMemories) {
            Memory current = states.memoryAtHead().apply(id);
            Memory target = states.memoryAtTarget().apply(id);
            if (target == null) {
                if (current.getState() == MemoryState.ACTIVE || current.getState() == MemoryState.ARCHIVED) {
                    memories.add(new RollbackPlan.MemoryChange(id, RollbackPlan.Action.DELETE, current, null));
                }
            } else if (!sameState(current, target)) {
                memories.add(new RollbackPlan.MemoryChange(id, RollbackPlan.Action.RESTORE, current, target));
            }
        }
        List<RollbackPlan.EdgeChange> edges = new ArrayList<>();
        for (String key : touchedEdges) {
            String[] ids = key.split("\u0000", 2);
            Evolver.Edge current = states.edgeAtHead().apply(ids[0], ids[1]);
            Evolver.Edge target = states.edgeAtTarget().apply(ids[0], ids[1]);
            String currentType = current == null ? null : current.type();
            String targetType = target == null ? null : target.type();
            if (!Objects.equals(currentType, targetType)
                    || current != null && Double.compare(current.strength(), target.strength()) != 0) {
                edges.add(new RollbackPlan.EdgeChange(
                        ids[0], ids[1], currentType, targetType, target == null ? 1.0 : target.strength()));
            }
        }
        Instant targetTime =
                spec.scope() == RollbackScope.SPACE || spec.scope() == RollbackScope.MEMORY ? spec.toTime() : null;
        Long rangeTo = spec.scope() == RollbackScope.ACTOR ? Math.min(rangeEnd(spec), head) : null;
        return new RollbackPlan(
                space,
                spec.scope(),
                spec.scopeId(),
                targetSeq,
                targetTime,
                rangeTo,
                head,
                read,
                memories,
                edges,
                digest(space, spec, targetSeq, head, memories, edges));
    }

    /** Whether this event is the first one undone: the target is the seq before it. */
    private boolean startsRange(MemoryEvent event) {
        return switch (spec.scope()) {
            case SPACE, MEMORY ->
                spec.toSeq() != null
                        ? event.getSeq() > spec.toSeq()
                        : event.getOccurredAt().isAfter(spec.toTime());
            case SESSION -> spec.scopeId().equals(RefinementState.sessionOf(event));
            case ACTOR -> event.getSeq() >= spec.toSeq();
            case REFLECTION ->
                event.getPayload() instanceof ReflectionDecided d
                        && spec.scopeId().equals(d.getReflectionId());
        };
    }

    private boolean inScope(MemoryEvent event) {
        return switch (spec.scope()) {
            case SPACE, MEMORY -> true;
            case SESSION -> spec.scopeId().equals(RefinementState.sessionOf(event));
            case ACTOR -> event.getSeq() <= rangeEnd(spec) && actorMatches(spec, event.getActor());
            // the approved changes: ordinary events by <decider type>:reflection:ID (docs/architecture.md §18)
            case REFLECTION ->
                ("reflection:" + spec.scopeId()).equals(event.getActor().getId());
        };
    }

    /** ACTOR: the last seq of the range undone. */
    static long rangeEnd(RollbackSpec spec) {
        return spec.rangeToSeq() == null ? Long.MAX_VALUE : spec.rangeToSeq();
    }

    /** ACTOR: whether the actor is the one the spec names ({@code type:id} or id). */
    static boolean actorMatches(RollbackSpec spec, Actor actor) {
        String id = actor.getId();
        String typed = actor.getType().name().toLowerCase(Locale.ROOT) + ":" + id;
        return spec.scopeId().equals(id) || spec.scopeId().equalsIgnoreCase(typed);
    }

    private static void trackEdge(Map<String, Evolver.Edge> edges, Evolver.Edge edge) {
        if (edge == null) {
            return;
        }
        if (edge.linked()) {
            edges.put(edgeKey(edge.fromId(), edge.toId()), edge);
        } else {
            edges.remove(edgeKey(edge.fromId(), edge.toId()));
        }
    }

    static String edgeKey(String from, String to) {
        return from + "\u0000" + to;
    }

    /** Equal apart from what every write sets anew (version, updated_at, decay clock). */
    public static boolean sameState(Memory a, Memory b) {
        return normalized(a).equals(normalized(b));
    }

    private static Memory normalized(Memory m) {
        Memory copy = Memory.newBuilder(m).build();
        copy.setVersion(0);
        copy.setUpdatedAt(Instant.EPOCH);
        copy.setDecayClockAt(null);
        return copy;
    }

    private static String digest(
            String space,
            RollbackSpec spec,
            long targetSeq,
            long head,
            List<RollbackPlan.MemoryChange> memories,
            List<RollbackPlan.EdgeChange> edges) {
        StringBuilder text = new StringBuilder();
        text.append(space)
                .append('|')
                .append(spec.scope())
                .append('|')
                .append(spec.scopeId())
                .append('|')
                .append(targetSeq)
                .append('|')
                .append(head)
                .append('\n');
        for (RollbackPlan.MemoryChange m : memories) {
            text.append(m.memoryId())
                    .append('|')
                    .append(m.action())
                    .append('|')
                    .append(m.target() == null ? "" : normalized(m.target()).toString())
                    .append('\n');
        }
        for (RollbackPlan.EdgeChange e : edges) {
            text.append(e.fromId())
                    .append('|')
                    .append(e.toId())
                    .append('|')
                    .append(e.targetType())
                    .append('|')
                    .append(e.targetStrength())
                    .append('\n');
        }
        try {
            return HexFormat.of()
                    .formatHex(MessageDigest.getInstance("SHA-256")
                            .digest(text.toString().getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
    }
}
