package io.memorychain.jobs.reflect;

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

/**
 * The reflection job (docs/architecture.md §18) as the logic of a {@link ChainJob} reading {@code memory.events.v1}:
 * the events, in order, feed one {@link SpaceReflections} planner per space; each run it plans is executed by the
 * {@link ReflectionEngine} (model calls, no transaction open) into one {@code ProposeReflection} request, which the
 * loop publishes with the consumed offsets in one transaction. A replay plans the same runs at the same seqs, so
 * publishes the same request ids, which the sequencer deduplicates.
 */
public final class ReflectWorker implements ChainJob.Logic<ReflectRun> {

    /** The job's name: its logs' prefix and its dead letters' stage. */
    public static final String NAME = "reflect";
    /** Reflections (five model calls each) per transaction. */
    static final int MAX_RUNS_PER_BATCH = 2;

    private final ReflectSettings settings;
    private final ReflectionEngine engine;
    private final AvroWireSerde<MemoryEvent> eventSerde;
    private final Map<String, SpaceReflections> spaces = new HashMap<>();

    ReflectWorker(SchemaRegistry registry, ReflectSettings settings, ReflectionEngine engine) {
        this(registry, settings, engine, ChainContent.PLAINTEXT);
    }

    ReflectWorker(SchemaRegistry registry, ReflectSettings settings, ReflectionEngine engine, ChainContent content) {
        this.settings = Objects.requireNonNull(settings, "settings");
        this.engine = Objects.requireNonNull(engine, "engine");
        this.eventSerde = content.eventSerde(registry);
    }

    /** The loop's options for the reflection job: reads the events topic. */
    public static ChainJob.Options options(
            String bootstrapServers,
            Topics topics,
            String groupId,
            String instanceId,
            ChainJob.StartFrom startFrom,
            Duration pollTimeout) {
        return new ChainJob.Options(
                NAME,
                bootstrapServers,
                topics,
                List.of(topics.events()),
                groupId,
                instanceId,
                startFrom,
                MAX_RUNS_PER_BATCH,
                pollTimeout);
    }

    /** The reflection job, ready to {@link ChainJob#run()}. */
    public static ChainJob<ReflectRun> job(
            ChainJob.Options options,
            SchemaRegistry registry,
            ReflectSettings settings,
            ReflectionEngine engine,
            ReflectMetrics metrics,
            ChainJob.BeforeCommit beforeCommit) {
        return job(options, registry, settings, engine, metrics, beforeCommit, ChainContent.PLAINTEXT);
    }

    /** As above, decrypting the chain's texts (docs/architecture.md §12, erasure). */
    public static ChainJob<ReflectRun> job(
            ChainJob.Options options,
            SchemaRegistry registry,
            ReflectSettings settings,
            ReflectionEngine engine,
            ReflectMetrics metrics,
            ChainJob.BeforeCommit beforeCommit,
            ChainContent content) {
        return new ChainJob<>(
                options, registry, new ReflectWorker(registry, settings, engine, content), metrics.job(), beforeCommit);
    }

    @Override
    public void reset() {
        spaces.clear();
    }

    @Override
    public Optional<ReflectRun> onRecord(ConsumerRecord<byte[], byte[]> record) {
        return onEvent(eventSerde.deserialize(record.topic(), record.value()));
    }

    /** Feeds one event of the chain (in order per space). */
    public Optional<ReflectRun> onEvent(MemoryEvent event) {
        return spaces.computeIfAbsent(event.getSpace(), s -> new SpaceReflections(settings))
                .onEvent(event);
    }

    @Override
    public List<MemoryRequest> execute(ReflectRun run) {
        return engine.requests(run);
    }
}
