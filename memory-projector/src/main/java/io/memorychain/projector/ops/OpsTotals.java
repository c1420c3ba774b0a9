package io.memorychain.projector.ops;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;

/**
 * Operational events counted by this process since it started, by (node, op, status): the source of the
 * {@code memory_ops_total} counter. Thread-safe; new label sets are announced once to {@link #onNew}.
 */
public final class OpsTotals implements OpsListener {

    /** One label set. */
    public record Labels(String node, String op, String status) {}

    private final Map<Labels, LongAdder> counts = new ConcurrentHashMap<>();
    private volatile Consumer<Labels> onNew = labels -> {};

    @Override
    public void counted(String node, String op, String status) {
        Labels labels = new Labels(node, op, status);
        LongAdder adder = counts.get(labels);
        if (adder == null) {
            LongAdder created = new LongAdder();
            adder = counts.putIfAbsent(labels, created);
            if (adder == null) {
                adder = created;
                onNew.accept(labels);
            }
        }
        adder.increment();
    }

    public long count(Labels labels) {
        LongAdder adder = counts.get(labels);
        return adder == null ? 0 : adder.sum();
    }

    public List<Labels> labels() {
        return List.copyOf(counts.keySet());
    }

    /** Calls {@code listener} for every label set seen so far and for each new one. */
    public synchronized void onNew(Consumer<Labels> listener) {
        onNew = listener;
        counts.keySet().forEach(listener);
    }
}
