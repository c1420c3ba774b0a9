package io.memorychain.projector.support;

import java.util.Map;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.streams.KafkaStreams;

/** How far a Streams application is behind its input topics, from its consumers' {@code records-lag} metrics. */
public final class StreamsLag {

    private StreamsLag() {
    }

    /** Records not yet consumed, summed over the assigned partitions (restore consumers excluded); 0 when unknown. */
    public static long of(KafkaStreams streams) {
        long lag = 0;
        for (Map.Entry<MetricName, ? extends Metric> e : streams.metrics().entrySet()) {
            MetricName name = e.getKey();
            String client = name.tags().getOrDefault("client-id", "");
            if (!"records-lag".equals(name.name()) || !"consumer-fetch-manager-metrics".equals(name.group())
                    || !name.tags().containsKey("partition") || client.endsWith("restore-consumer")) {
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
