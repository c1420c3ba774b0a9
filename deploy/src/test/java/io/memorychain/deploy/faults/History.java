package io.memorychain.deploy.faults;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * Everything that happened in a run: the operations of every client, the acknowledged writes, the faults injected, the
 * health transitions seen and the anomalies found. Thread-safe; times are ms since {@link #start}.
 */
final class History {

    /** A write the service acknowledged (2xx): on the chain exactly once, as {@code requestId}. */
    record Ack(
            int client, Operation.Kind kind, String space, String requestId, String memoryId, long seq, int version) {}

    /** A fault and when it was injected and ended. */
    record Fault(String name, long startedAt, long endedAt, String note) {}

    private final long start = System.currentTimeMillis();
    private final ConcurrentLinkedQueue<Operation> operations = new ConcurrentLinkedQueue<>();
    private final ConcurrentLinkedQueue<Ack> acks = new ConcurrentLinkedQueue<>();
    /** Request ids of writes invoked and never acknowledged (an error or no answer to every attempt). */
    private final ConcurrentLinkedQueue<String> unacknowledged = new ConcurrentLinkedQueue<>();

    private final ConcurrentLinkedQueue<Fault> faults = new ConcurrentLinkedQueue<>();
    private final ConcurrentLinkedQueue<String> anomalies = new ConcurrentLinkedQueue<>();
    private final ConcurrentLinkedQueue<String> notes = new ConcurrentLinkedQueue<>();

    long now() {
        return System.currentTimeMillis() - start;
    }

    void record(Operation op) {
        operations.add(op);
    }

    void acknowledged(Ack ack) {
        acks.add(ack);
    }

    void unacknowledged(String requestId) {
        unacknowledged.add(requestId);
    }

    void fault(String name, long startedAt, String note) {
        faults.add(new Fault(name, startedAt, now(), note));
    }

    void anomaly(String what) {
        anomalies.add(String.format("%7.1f s  %s", now() / 1000.0, what));
    }

    void note(String what) {
        notes.add(String.format("%7.1f s  %s", now() / 1000.0, what));
    }

    List<Operation> operations() {
        return List.copyOf(operations);
    }

    List<Ack> acks() {
        return List.copyOf(acks);
    }

    List<String> unacknowledgedRequestIds() {
        return List.copyOf(unacknowledged);
    }

    List<Fault> faults() {
        return List.copyOf(faults);
    }

    List<String> anomalies() {
        return List.copyOf(anomalies);
    }

    List<String> notes() {
        return List.copyOf(notes);
    }

    /** Operations counted by kind, then outcome (with the error statuses seen). */
    Map<String, Long> countsByKindAndOutcome() {
        Function<Operation, String> key = op ->
                op.kind() + " " + op.outcome() + (op.outcome() == Operation.Outcome.ERROR ? " " + op.status() : "");
        return operations.stream().collect(Collectors.groupingBy(key, TreeMap::new, Collectors.counting()));
    }

    /** Every operation, one CSV line each, for a look at what happened when (the report has only the counts). */
    void writeOperations(java.nio.file.Path file) throws java.io.IOException {
        List<String> lines = new ArrayList<>();
        lines.add("client,kind,instance,space,request_id,memory_id,invoked_ms,completed_ms,outcome,status,detail");
        for (Operation op : operations) {
            lines.add(String.join(
                    ",",
                    String.valueOf(op.client()),
                    op.kind().name(),
                    op.instance(),
                    op.space(),
                    String.valueOf(op.requestId()),
                    String.valueOf(op.memoryId()),
                    String.valueOf(op.invokedAt()),
                    String.valueOf(op.completedAt()),
                    op.outcome().name(),
                    String.valueOf(op.status()),
                    '"' + String.valueOf(op.detail()).replace('"', '\'').replace('\n', ' ') + '"'));
        }
        java.nio.file.Files.write(file, lines);
    }

    List<String> report(long runMillis) {
        List<String> lines = new ArrayList<>();
        lines.add("==== NetworkFaultsIT report ====");
        lines.add(String.format("run time: %.1f s", runMillis / 1000.0));
        lines.add("faults injected (" + faults.size() + "):");
        for (Fault f : faults.stream()
                .sorted(java.util.Comparator.comparingLong(Fault::startedAt))
                .toList()) {
            lines.add(String.format(
                    "  %7.1f s .. %7.1f s  %s%s",
                    f.startedAt() / 1000.0,
                    f.endedAt() / 1000.0,
                    f.name(),
                    f.note().isEmpty() ? "" : "  (" + f.note() + ")"));
        }
        lines.add("operations: " + operations.size() + " (writes acknowledged: " + acks.size()
                + ", writes never acknowledged: " + unacknowledged.size() + ")");
        countsByKindAndOutcome().forEach((k, n) -> lines.add(String.format("  %-22s %6d", k, n)));
        lines.add("observations:");
        notes.forEach(n -> lines.add("  " + n));
        lines.add("anomalies: " + anomalies.size());
        anomalies.forEach(a -> lines.add("  " + a));
        return lines;
    }
}
