package io.memorychain.projector.ops;

import io.memorychain.projector.support.StoreKeys;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Supplier;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;

/**
 * Reads the ops app's counts ({@link OpsTopology#COUNTS}): per space, the operational events of each hour (or day,
 * summed from the hours; UTC) by node, op and status.
 */
public final class OpsCounts {

    /** The width of a bucket. */
    public enum Bucket {
        HOUR(ChronoUnit.HOURS),
        DAY(ChronoUnit.DAYS);

        private final ChronoUnit unit;

        Bucket(ChronoUnit unit) {
            this.unit = unit;
        }

        public Instant start(Instant at) {
            return at.truncatedTo(unit);
        }

        /** The end (exclusive) of the bucket holding {@code at}. */
        public Instant end(Instant at) {
            return start(at).plus(1, unit);
        }

        /** {@code hour} or {@code day} (any case). */
        public static Bucket parse(String value) {
            return Bucket.valueOf(value.toUpperCase(Locale.ROOT));
        }
    }

    /** One count: the operations of {@code node}/{@code op}/{@code status} in the bucket starting at {@code start}. */
    public record Count(Instant start, String node, String op, String status, long count) {}

    private final Supplier<ReadOnlyKeyValueStore<String, Long>> store;

    /** @param store the {@link OpsTopology#COUNTS} store holding the space's partition */
    public OpsCounts(Supplier<ReadOnlyKeyValueStore<String, Long>> store) {
        this.store = store;
    }

    static String key(String space, Instant hour, String node, String op, String status) {
        return StoreKeys.of(
                space, StoreKeys.seq(hour.toEpochMilli()), node + StoreKeys.SEP + op + StoreKeys.SEP + status);
    }

    /** The counts of buckets starting in [since, until), ordered by start, node, op, status. */
    public List<Count> counts(String space, Instant since, Instant until, Bucket bucket) {
        Instant from = bucket.start(since);
        if (!from.isBefore(until)) {
            return List.of();
        }
        Map<String, Count> merged = new TreeMap<>();
        String prefix = StoreKeys.prefix(space);
        try (KeyValueIterator<String, Long> it = store.get()
                .range(prefix + StoreKeys.seq(from.toEpochMilli()), prefix + StoreKeys.seq(until.toEpochMilli()))) {
            while (it.hasNext()) {
                KeyValue<String, Long> kv = it.next();
                String[] parts = kv.key.substring(prefix.length()).split(String.valueOf(StoreKeys.SEP), -1);
                Instant start = bucket.start(Instant.ofEpochMilli(Long.parseLong(parts[0])));
                if (parts.length != 4 || !start.isBefore(until)) {
                    continue;
                }
                String mergeKey = StoreKeys.seq(start.toEpochMilli())
                        + StoreKeys.SEP
                        + parts[1]
                        + StoreKeys.SEP
                        + parts[2]
                        + StoreKeys.SEP
                        + parts[3];
                Count previous = merged.get(mergeKey);
                merged.put(
                        mergeKey,
                        new Count(
                                start,
                                parts[1],
                                parts[2],
                                parts[3],
                                (previous == null ? 0 : previous.count()) + kv.value));
            }
        }
        List<Count> out = new ArrayList<>(merged.values());
        out.sort(Comparator.comparing(Count::start)
                .thenComparing(Count::node)
                .thenComparing(Count::op)
                .thenComparing(Count::status));
        return out;
    }
}
