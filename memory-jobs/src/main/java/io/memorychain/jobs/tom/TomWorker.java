package io.memorychain.jobs.tom;

import io.memorychain.avro.MemoryEvent;
import io.memorychain.avro.MemoryRequest;
import io.memorychain.events.Topics;
import io.memorychain.events.content.ChainContent;
import io.memorychain.events.registry.SchemaRegistry;
import io.memorychain.events.serde.AvroWireSerde;
import io.memorychain.jobs.ChainJob;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;

/**
 * The ToM job (docs/architecture.md §12) as the logic of a {@link ChainJob}: the events, in order, feed one
 * {@link TomPlanner} per events partition; each run it plans is executed by {@link TomInsights} (model calls, no
 * transaction open) into {@code CreateMemory} requests, which the loop publishes with the consumed offsets in one
 * transaction. A replay plans the same runs, so publishes the same request ids.
 */
public final class TomWorker implements ChainJob.Logic<TomRun> {

    /** The job's name: its logs' prefix and its dead letters' stage. */
    public static final String NAME = "tom";

    private final TomSettings settings;
    private final TomInsights insights;
    private final AvroWireSerde<MemoryEvent> eventSerde;
    private final Map<TopicPartition, TomPlanner> planners = new HashMap<>();

    private TomWorker(SchemaRegistry registry, TomSettings settings, TomInsights insights, ChainContent content) {
        this.settings = Objects.requireNonNull(settings, "settings");
        this.insights = Objects.requireNonNull(insights, "insights");
        this.eventSerde = content.eventSerde(registry);
    }

    /**
     * The loop's options for the ToM job: reads the events topic.
     *
     * @param groupId consumer group (the ToM job's own)
     * @param instanceId unique per running instance, stable across its restarts (names the transactional id)
     * @param maxRunsPerBatch runs (model calls) per transaction; bounds the time between polls
     */
    public static ChainJob.Options options(
            String bootstrapServers,
            Topics topics,
            String groupId,
            String instanceId,
            ChainJob.StartFrom startFrom,
            int maxRunsPerBatch,
            Duration pollTimeout) {
        return new ChainJob.Options(
                NAME,
                bootstrapServers,
                topics,
                List.of(topics.events()),
                groupId,
                instanceId,
                startFrom,
                maxRunsPerBatch,
                pollTimeout);
    }

    /** The ToM job, ready to {@link ChainJob#run()}. */
    public static ChainJob<TomRun> job(
            ChainJob.Options options,
            SchemaRegistry registry,
            TomSettings settings,
            TomInsights insights,
            TomMetrics metrics,
            ChainJob.BeforeCommit beforeCommit) {
        return job(options, registry, settings, insights, metrics, beforeCommit, ChainContent.PLAINTEXT);
    }

    /** As above, decrypting the chain's texts (docs/architecture.md §12, erasure). */
    public static ChainJob<TomRun> job(
            ChainJob.Options options,
            SchemaRegistry registry,
            TomSettings settings,
            TomInsights insights,
            TomMetrics metrics,
            ChainJob.BeforeCommit beforeCommit,
            ChainContent content) {
        return new ChainJob<>(
                options, registry, new TomWorker(registry, settings, insights, content), metrics.job(), beforeCommit);
    }

    @Override
    public void reset() {
        planners.clear();
    }

    @Override
    public Optional<TomRun> onRecord(ConsumerRecord<byte[], byte[]> record) {
        MemoryEvent event = eventSerde.deserialize(record.topic(), record.value());
        return planners.computeIfAbsent(
                        new TopicPartition(record.topic(), record.partition()), tp -> new TomPlanner(settings))
                .onEvent(event);
    }

    @Override
    public List<MemoryRequest> execute(TomRun run) {
        return insights.requests(run);
    }
}
