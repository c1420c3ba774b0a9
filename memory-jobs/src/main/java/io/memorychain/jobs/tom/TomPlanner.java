package io.memorychain.jobs.tom;

import io.memorychain.avro.ActorType;
import io.memorychain.avro.Memory;
import io.memorychain.avro.MemoryCreated;
import io.memorychain.avro.MemoryEvent;
import io.memorychain.avro.MemoryKind;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Decides when a thread gets a ToM run, as a pure function of the chain events it is fed in order (one planner per
 * events partition). Inputs are {@code MemoryCreated} events of kind EPISODIC or SEMANTIC written by anyone but a
 * worker (so insights, journals and the workers' own writes never feed ToM). A thread ({@code space} +
 * {@code thread_id}) collects inputs; when it has {@link TomSettings#minItems()} of them and its previous run is at
 * least {@link TomSettings#cooldown()} of chain time ({@code occurred_at}) older than the current event, the current
 * event triggers a run covering everything collected since the previous run. Chain time rather than the wall clock
 * keeps the 24 h skip deterministic: a replay of the same events plans the same runs with the same seq ranges.
 */
public final class TomPlanner {

    private record ThreadKey(String space, String thread) {}

    private static final class Pending {
        long fromSeq = -1;
        int items;
        final Deque<String> activity = new ArrayDeque<>();
        final Deque<String> semantic = new ArrayDeque<>();
        final Deque<String> conversation = new ArrayDeque<>();
        int conversationChars;
        Instant lastRunAt;

        void add(long seq, Memory memory) {
            if (fromSeq < 0) {
                fromSeq = seq;
            }
            items++;
            String line = memory.getSummary() != null && !memory.getSummary().isBlank()
                    ? memory.getSummary()
                    : memory.getContent();
            push(activity, clip(line, TomSettings.MAX_CHARS), TomSettings.MAX_ACTIVITY_ITEMS);
            if (memory.getKind() == MemoryKind.SEMANTIC) {
                push(semantic, clip(memory.getContent(), 2 * TomSettings.MAX_CHARS), TomSettings.MAX_SEMANTIC_ITEMS);
            } else {
                String text = memory.getContent().strip();
                conversation.addLast(text);
                conversationChars += text.length() + 1;
                while (conversationChars > TomSettings.MAX_SNIPPET_CHARS && conversation.size() > 1) {
                    conversationChars -= conversation.removeFirst().length() + 1;
                }
            }
        }

        String snippet() {
            String joined = String.join("\n", conversation);
            return joined.length() <= TomSettings.MAX_SNIPPET_CHARS
                    ? joined
                    : joined.substring(joined.length() - TomSettings.MAX_SNIPPET_CHARS);
        }

        void reset(Instant runAt) {
            fromSeq = -1;
            items = 0;
            activity.clear();
            semantic.clear();
            conversation.clear();
            conversationChars = 0;
            lastRunAt = runAt;
        }

        private static void push(Deque<String> deque, String value, int max) {
            deque.addLast(value);
            while (deque.size() > max) {
                deque.removeFirst();
            }
        }

        private static String clip(String text, int max) {
            String stripped = text.strip();
            return stripped.length() <= max ? stripped : stripped.substring(0, max - 3) + "...";
        }
    }

    /** Inputs between two sweeps of idle threads. */
    static final int DEFAULT_SWEEP_EVERY = 1_000;

    private final TomSettings settings;
    private final int sweepEvery;
    private final Map<ThreadKey, Pending> threads = new HashMap<>();
    private long deferred;
    private long inputs;

    public TomPlanner(TomSettings settings) {
        this(settings, DEFAULT_SWEEP_EVERY);
    }

    TomPlanner(TomSettings settings, int sweepEvery) {
        this.settings = Objects.requireNonNull(settings, "settings");
        this.sweepEvery = sweepEvery;
    }

    /** Feeds the next event of the partition; returns the run it triggers, if any. */
    public Optional<TomRun> onEvent(MemoryEvent event) {
        if (!(event.getPayload() instanceof MemoryCreated created)
                || event.getActor().getType() == ActorType.WORKER) {
            return Optional.empty();
        }
        Memory memory = created.getMemory();
        if (memory.getKind() != MemoryKind.EPISODIC && memory.getKind() != MemoryKind.SEMANTIC) {
            return Optional.empty();
        }
        if (++inputs % sweepEvery == 0) {
            sweep(event.getOccurredAt());
        }
        String thread = memory.getThreadId() == null ? "" : memory.getThreadId();
        Pending pending = threads.computeIfAbsent(new ThreadKey(event.getSpace(), thread), k -> new Pending());
        pending.add(event.getSeq(), memory);
        if (pending.items < settings.minItems()) {
            return Optional.empty();
        }
        Instant now = event.getOccurredAt();
        if (pending.lastRunAt != null && now.isBefore(pending.lastRunAt.plus(settings.cooldown()))) {
            deferred++;
            return Optional.empty();
        }
        TomRun run = new TomRun(
                event.getSpace(),
                thread,
                pending.fromSeq,
                event.getSeq(),
                now,
                pending.items,
                new ArrayList<>(pending.activity),
                new ArrayList<>(pending.semantic),
                pending.snippet());
        pending.reset(now);
        return Optional.of(run);
    }

    /**
     * Forgets threads with nothing pending whose cooldown is over at {@code now} (chain time): such an entry plans
     * exactly as a missing one does, so the sweep keeps memory bounded without changing any run.
     */
    private void sweep(Instant now) {
        threads.values()
                .removeIf(p ->
                        p.items == 0 && p.lastRunAt != null && !now.isBefore(p.lastRunAt.plus(settings.cooldown())));
    }

    /** Inputs that found their thread within the cooldown (the 24 h skip), since this planner was created. */
    public long deferred() {
        return deferred;
    }

    /** Threads with state. */
    public int threads() {
        return threads.size();
    }
}
