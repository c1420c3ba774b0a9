package io.memorychain.jobs.reflect;

import io.memorychain.avro.Memory;
import io.memorychain.avro.MemoryEvent;
import io.memorychain.avro.MemoryKind;
import io.memorychain.avro.MemoryState;
import io.memorychain.avro.ReflectionDecided;
import io.memorychain.avro.ReflectionProposed;
import io.memorychain.avro.ReflectionRequested;
import io.memorychain.avro.ReflectionTrigger;
import io.memorychain.avro.view.Reflection;
import io.memorychain.domain.Evolver;
import io.memorychain.domain.Reflections;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The reflection planner of one space (docs/architecture.md §18): a pure function of the space's chain events, fed in
 * order, and of its own earlier plans. No I/O, no model, no clock: time is the events' {@code occurred_at}, so a replay
 * plans the same runs at the same seqs.
 *
 * <p>An episode (an active EPISODIC memory) is <em>unprocessed</em> while no {@code ReflectionProposed} covers its
 * creation seq. After each event, unless a reflection is pending (proposed, not decided) or the last run is still in
 * flight (planned less than {@code retryAfter} ago and not yet on the chain), the first trigger that holds plans a run:
 *
 * <ol>
 *   <li>MANUAL: a {@code ReflectionRequested} not yet answered;
 *   <li>THRESHOLD: at least {@code threshold} unprocessed episodes;
 *   <li>SESSION_END: a thread whose last unprocessed episode entered the chain at least {@code sessionIdle} before this
 *       event (chain time moves with the space's events, so a session ends with the next event after the idle time);
 *   <li>SCHEDULE: unprocessed episodes and {@code interval} since the last run (or since the oldest of them).
 * </ol>
 *
 * No run is planned in the middle of an approved decision: the events that apply its changes come first.
 */
final class SpaceReflections {

    private final ReflectSettings settings;
    private final Map<String, Memory> memories = new HashMap<>();
    private final Map<String, String> blocks = new TreeMap<>();
    /** Episodes not yet covered by a reflection: id -> [creation seq, chain time]. */
    private final Map<String, Episode> unprocessed = new LinkedHashMap<>();

    private final Map<String, Reflection> reflections = new TreeMap<>();
    private final Deque<Long> manual = new ArrayDeque<>();
    /** Thread -> creation seq of its last episode a SESSION_END already fired for. */
    private final Map<String, Long> sessionsEnded = new HashMap<>();
    /** Change events of the last ReflectionDecided still to come (a run waits until the decision is applied). */
    private int applying;

    private long processedTo;
    private Instant lastRunAt;
    private long attemptSeq;
    private Instant attemptAt;

    private record Episode(long seq, Instant at, String thread) {}

    SpaceReflections(ReflectSettings settings) {
        this.settings = Objects.requireNonNull(settings, "settings");
    }

    Optional<ReflectRun> onEvent(MemoryEvent event) {
        apply(event);
        Instant now = event.getOccurredAt();
        if (applying > 0
                || reflections.values().stream().anyMatch(Reflections::isPending)
                || attemptSeq > processedTo
                        && attemptAt.plus(settings.retryAfter()).isAfter(now)) {
            return Optional.empty();
        }
        ReflectionTrigger trigger = null;
        String detail = null;
        if (!manual.isEmpty()) {
            trigger = ReflectionTrigger.MANUAL;
            detail = "requested at seq " + manual.peekFirst();
        } else if (unprocessed.size() >= settings.threshold()) {
            trigger = ReflectionTrigger.THRESHOLD;
            detail = unprocessed.size() + " unprocessed episodes";
        } else if (!unprocessed.isEmpty()) {
            String ended = endedSession(now);
            if (ended != null) {
                trigger = ReflectionTrigger.SESSION_END;
                detail = "thread " + ended;
            } else {
                Instant since = lastRunAt != null
                        ? lastRunAt
                        : unprocessed.values().iterator().next().at();
                if (!now.isBefore(since.plus(settings.interval()))) {
                    trigger = ReflectionTrigger.SCHEDULE;
                    detail = "period "
                            + Math.floorDiv(
                                    now.getEpochSecond(), settings.interval().getSeconds());
                }
            }
        }
        if (trigger == null) {
            return Optional.empty();
        }
        attemptSeq = event.getSeq();
        attemptAt = now;
        lastRunAt = now;
        manual.clear();
        unprocessed.values().stream()
                .filter(e -> e.thread() != null)
                .forEach(e -> sessionsEnded.merge(e.thread(), e.seq(), Math::max));
        return Optional.of(plan(event, trigger, detail));
    }

    private ReflectRun plan(MemoryEvent event, ReflectionTrigger trigger, String detail) {
        List<String> ids = List.copyOf(unprocessed.keySet());
        List<Memory> episodes = ids.subList(Math.max(0, ids.size() - settings.maxEpisodes()), ids.size()).stream()
                .map(memories::get)
                .toList();
        List<Memory> others = memories.values().stream()
                .filter(m -> m.getState() == MemoryState.ACTIVE
                        && m.getKind() != MemoryKind.BLOCK
                        && m.getKind() != MemoryKind.EPISODIC)
                .sorted(Comparator.comparing(Memory::getUpdatedAt).reversed().thenComparing(Memory::getId))
                .limit(settings.maxMemories())
                .toList();
        Map<String, String> core = new TreeMap<>();
        blocks.forEach((label, id) -> core.put(label, memories.get(id).getContent()));
        return new ReflectRun(
                event.getSpace(),
                trigger,
                detail,
                reflections.size() + 1,
                processedTo + 1,
                event.getSeq(),
                event.getOccurredAt(),
                episodes,
                others,
                core,
                List.copyOf(reflections.values()));
    }

    /** A thread whose last unprocessed episode is idle long enough and has not ended a session yet; else null. */
    private String endedSession(Instant now) {
        Map<String, Episode> last = new TreeMap<>();
        unprocessed.values().stream().filter(e -> e.thread() != null).forEach(e -> last.put(e.thread(), e));
        for (Map.Entry<String, Episode> e : last.entrySet()) {
            Episode latest = e.getValue();
            if (!now.isBefore(latest.at().plus(settings.sessionIdle()))
                    && sessionsEnded.getOrDefault(e.getKey(), 0L) < latest.seq()) {
                return e.getKey();
            }
        }
        return null;
    }

    private void apply(MemoryEvent event) {
        if (event.getPayload() instanceof ReflectionDecided d) {
            applying = d.getAppliedChangeIds().size();
        } else if (applying > 0) {
            applying--;
        }
        List<Evolver.Change> changes = Evolver.evolve(event, memories::get);
        for (Evolver.Change c : changes) {
            Memory m = c.after();
            memories.put(m.getId(), m);
            if (c.before() == null && m.getKind() == MemoryKind.EPISODIC && m.getState() == MemoryState.ACTIVE) {
                unprocessed.put(m.getId(), new Episode(event.getSeq(), event.getOccurredAt(), m.getThreadId()));
            } else if (m.getState() != MemoryState.ACTIVE) {
                unprocessed.remove(m.getId());
            }
        }
        for (Evolver.BlockHead head : Evolver.blockHeads(changes)) {
            blocks.put(head.label(), head.memoryId());
        }
        Reflection reflection = Reflections.evolve(event, reflections::get);
        if (reflection != null) {
            reflections.put(reflection.getId(), reflection);
        }
        if (event.getPayload() instanceof ReflectionRequested) {
            manual.addLast(event.getSeq());
        } else if (event.getPayload() instanceof ReflectionProposed p) {
            long to = p.getReflection().getToSeq();
            processedTo = Math.max(processedTo, to);
            unprocessed.values().removeIf(e -> e.seq() <= to);
            manual.removeIf(seq -> seq <= to);
            lastRunAt = event.getOccurredAt();
        }
    }

    int unprocessed() {
        return unprocessed.size();
    }
}
