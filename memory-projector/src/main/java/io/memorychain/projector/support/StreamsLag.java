package io.memorychain.projector.support;

import java.util.Map;
import java.util.WeakHashMap;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.streams.KafkaStreams;

/**
 * How far a Streams application is behind its input topics, from its consumers' {@code records-lag} metrics. The figure
 * is read at most once a second per application: {@link KafkaStreams#metrics()} copies every client metric (thousands),
 * which cost a console health page most of its time (docs/benchmarks.md, console pages).
 */
public final class StreamsLag {

    static final long FRESH_NANOS = TimeUnit.SECONDS.toNanos(1);
    private static final Map<KafkaStreams, long[]> LAST = new WeakHashMap<>();

    private StreamsLag() {}

    /** Records not yet consumed, summed over the assigned partitions (restore consumers excluded); 0 when unknown. */
    public static long of(KafkaStreams streams) {
        long now = System.nanoTime();
        synchronized (LAST) {
            long[] last = LAST.get(streams);
            if (last != null && now - last[0] < FRESH_NANOS) {
                return last[1];
            }
        }
        long lag = read(streams);
        synchronized (LAST) {
            LAST.put(streams, new long[] {now, lag});
        }
        return lag;
    }

    private static long read(KafkaStreams streams) {
        long lag = 0;
        for (Map.Entry<MetricName, ? extends Metric> e : streams.metrics().entrySet()) {
            MetricName name = e.getKey();
            String client = name.tags().getOrDefault("client-id", "");
            if (!"records-lag".equals(name.name())
                    || !"consumer-fetch-manager-metrics".equals(name.group())
                    || !name.tags().containsKey("partition")
                    || client.endsWith("restore-consumer")) {
                continue;
            }
            Object value = e.getValue().metricValue();
            if (value instanceof Number n && !Double.isNaN(n.doubleValue())) {
                lag += Math.max(0, n.longValue());
            }
        }
        return lag;
    }
}
