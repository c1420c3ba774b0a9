package io.memorychain.consolidate;

import io.memorychain.avro.MemoryEmbedding;
import io.memorychain.avro.MemoryEvent;
import io.memorychain.avro.MemoryRequest;
import io.memorychain.events.Topics;
import io.memorychain.events.content.ChainContent;
import io.memorychain.events.registry.SchemaRegistry;
import io.memorychain.events.serde.AvroWireSerde;
import io.memorychain.projector.job.ChainJob;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The consolidation job (docs/architecture.md §12) as the logic of a {@link ChainJob} reading
 * {@code memory.events.v1} and {@code memory.embeddings.v1} (co-partitioned by space): records update each space's
 * {@link SpaceMemories}; an <em>event</em> whose chain time makes a run due ({@link ConsolidatePlanner#due}) plans the
 * space's run at that chain time; a run's merges (model calls, no transaction open) are the requests the loop
 * publishes with the consumed offsets in one transaction. A replay plans the same runs from the chain and re-sends the
 * same request ids, which the sequencer deduplicates.
 */
public final class ConsolidateWorker implements ChainJob.Logic<ConsolidatePlanner.Plan> {

    private static final Logger log = LoggerFactory.getLogger(ConsolidateWorker.class);

    /** The job's name: its logs' prefix and its dead letters' stage. */
    public static final String NAME = "consolidate";
    /** Runs per transaction: each is capped in pairs (and so in model calls) by its settings. */
    static final int MAX_RUNS_PER_BATCH = 4;

    private final ConsolidateSettings settings;
    private final Consolidations consolidations;
    private final String modelId;
    private final String embeddingsTopic;
    private final AvroWireSerde<MemoryEvent> eventSerde;
    private final AvroWireSerde<MemoryEmbedding> embeddingSerde;
    private final Map<String, SpaceMemories> spaces = new HashMap<>();
    private final Map<String, ConsolidatePlanner> planners = new HashMap<>();

    private ConsolidateWorker(SchemaRegistry registry, ConsolidateSettings settings, Consolidations consolidations,
                              String modelId, String embeddingsTopic, ChainContent content) {
        this.settings = Objects.requireNonNull(settings, "settings");
        this.consolidations = Objects.requireNonNull(consolidations, "consolidations");
        this.modelId = Objects.requireNonNull(modelId, "modelId");
        this.embeddingsTopic = Objects.requireNonNull(embeddingsTopic, "embeddingsTopic");
        this.eventSerde = content.eventSerde(registry);
        this.embeddingSerde = AvroWireSerde.forValues(registry, MemoryEmbedding.class);
    }

    /** The loop's options for the consolidation job: reads the events and embeddings topics. */
    public static ChainJob.Options options(String bootstrapServers, Topics topics, String groupId, String instanceId,
                                           ChainJob.StartFrom startFrom, Duration pollTimeout) {
        return new ChainJob.Options(NAME, bootstrapServers, topics, List.of(topics.events(), topics.embeddings()),
                groupId, instanceId, startFrom, MAX_RUNS_PER_BATCH, pollTimeout);
    }

    /**
     * The consolidation job, ready to {@link ChainJob#run()}.
     *
     * @param modelId the embedding model whose vectors are compared
     */
    public static ChainJob<ConsolidatePlanner.Plan> job(ChainJob.Options options, SchemaRegistry registry,
                                                        ConsolidateSettings settings, Consolidations consolidations,
                                                        ConsolidateMetrics metrics, String modelId) {
        return job(options, registry, settings, consolidations, metrics, modelId, ChainContent.PLAINTEXT);
    }

    /** As above, decrypting the chain's texts (docs/architecture.md §12, erasure). */
    public static ChainJob<ConsolidatePlanner.Plan> job(ChainJob.Options options, SchemaRegistry registry,
                                                        ConsolidateSettings settings, Consolidations consolidations,
                                                        ConsolidateMetrics metrics, String modelId,
                                                        ChainContent content) {
        return new ChainJob<>(options, registry, new ConsolidateWorker(registry, settings, consolidations, modelId,
                options.topics().embeddings(), content),
                metrics.job(), ChainJob.BeforeCommit.NONE);
    }

    @Override
    public void reset() {
        spaces.clear();
        planners.clear();
    }

    @Override
    public Optional<ConsolidatePlanner.Plan> onRecord(ConsumerRecord<byte[], byte[]> record) {
        if (record.topic().equals(embeddingsTopic)) {
            MemoryEmbedding embedding = embeddingSerde.deserialize(record.topic(), record.value());
            space(embedding.getSpace()).onEmbedding(embedding);
            return Optional.empty();
        }
        MemoryEvent event = eventSerde.deserialize(record.topic(), record.value());
        SpaceMemories space = space(event.getSpace());
        space.onEvent(event);
        return planners.computeIfAbsent(event.getSpace(), s -> new ConsolidatePlanner(settings))
                .plan(event.getSpace(), space.items(), space.chainTime());
    }

    @Override
    public List<MemoryRequest> execute(ConsolidatePlanner.Plan plan) {
        List<MemoryRequest> merges = consolidations.requests(plan);
        log.info("consolidate: run {} of space={} at {}: pool {}, considered {}, near-exact {}, checked {}, capped {}, "
                + "remembered {}, merges {}", plan.period(), plan.space(), plan.at(), plan.pool(), plan.considered(),
                plan.nearExact().size(), plan.toCheck().size(), plan.capped(), plan.remembered(), merges.size());
        return merges;
    }

    private SpaceMemories space(String space) {
        return spaces.computeIfAbsent(space, s -> new SpaceMemories(modelId));
    }
}
