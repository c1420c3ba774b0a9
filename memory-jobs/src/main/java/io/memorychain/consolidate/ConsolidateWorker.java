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
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The consolidation job (docs/architecture.md §12) as the logic of a {@link ChainJob} reading
 * {@code memory.events.v1} and {@code memory.embeddings.v1} (co-partitioned by space): records update each space's
 * {@link SpaceMemories}; an <em>event</em> whose chain time makes a run due ({@link ConsolidatePlanner#due}) opens the
 * space's run at that chain time, which plans once the vectors of its candidates have arrived ({@link PendingRun}: the
 * two topics interleave differently in a replay, and a run must not plan on whichever vectors came first); a run's
 * merges (model calls, no transaction open) are the requests the loop publishes with the consumed offsets in one
 * transaction. A replay plans the same runs from the chain and re-sends the same request ids, which the sequencer
 * deduplicates.
 */
public final class ConsolidateWorker implements ChainJob.Logic<List<ConsolidatePlanner.Plan>> {

    private static final Logger log = LoggerFactory.getLogger(ConsolidateWorker.class);

    /** The job's name: its logs' prefix and its dead letters' stage. */
    public static final String NAME = "consolidate";
    /** Records completing runs per transaction (usually one run each): each run is capped in pairs by its settings. */
    static final int MAX_RUNS_PER_BATCH = 4;

    private final ConsolidateSettings settings;
    private final Consolidations consolidations;
    private final ConsolidateMetrics metrics;
    private final String modelId;
    /** Other models whose vectors were read: each is warned about once (a job started with the wrong model id). */
    private final Set<String> foreignModels = new HashSet<>();
    private final String embeddingsTopic;
    private final AvroWireSerde<MemoryEvent> eventSerde;
    private final AvroWireSerde<MemoryEmbedding> embeddingSerde;
    private final Map<String, SpaceMemories> spaces = new HashMap<>();
    private final Map<String, ConsolidatePlanner> planners = new HashMap<>();
    private final Map<String, Deque<PendingRun>> pending = new HashMap<>();

    ConsolidateWorker(SchemaRegistry registry, ConsolidateSettings settings, Consolidations consolidations,
                      ConsolidateMetrics metrics, String modelId, String embeddingsTopic, ChainContent content) {
        this.settings = Objects.requireNonNull(settings, "settings");
        this.metrics = Objects.requireNonNull(metrics, "metrics");
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
     * @param content how the chain's texts are read (decrypted, or {@link ChainContent#PLAINTEXT})
     */
    public static ChainJob<List<ConsolidatePlanner.Plan>> job(ChainJob.Options options, SchemaRegistry registry,
                                                              ConsolidateSettings settings,
                                                              Consolidations consolidations,
                                                              ConsolidateMetrics metrics, String modelId,
                                                              ChainContent content) {
        return job(options, registry, settings, consolidations, metrics, modelId, content, ChainJob.BeforeCommit.NONE);
    }

    /** As above, with a hook called before each transaction commits (crash tests). */
    public static ChainJob<List<ConsolidatePlanner.Plan>> job(ChainJob.Options options, SchemaRegistry registry,
                                                              ConsolidateSettings settings,
                                                              Consolidations consolidations,
                                                              ConsolidateMetrics metrics, String modelId,
                                                              ChainContent content, ChainJob.BeforeCommit beforeCommit) {
        return new ChainJob<>(options, registry, new ConsolidateWorker(registry, settings, consolidations, metrics,
                modelId, options.topics().embeddings(), content), metrics.job(), beforeCommit);
    }

    @Override
    public void reset() {
        spaces.clear();
        metrics.memoriesHeld.set(0);
        metrics.vectorsHeld.set(0);
        planners.clear();
        pending.clear();
    }

    @Override
    public Optional<List<ConsolidatePlanner.Plan>> onRecord(ConsumerRecord<byte[], byte[]> record) {
        return onRecord(record, true);
    }

    /**
     * Opens a run at each event that makes one due (one interval of chain time after the previous run opened), and
     * returns the runs this record completes, in order, if any of them depends on a live record.
     */
    @Override
    public Optional<List<ConsolidatePlanner.Plan>> onRecord(ConsumerRecord<byte[], byte[]> record, boolean live) {
        String spaceId;
        if (record.topic().equals(embeddingsTopic)) {
            MemoryEmbedding embedding = embeddingSerde.deserialize(record.topic(), record.value());
            spaceId = embedding.getSpace();
            SpaceMemories space = space(spaceId);
            int memoriesBefore = space.size();
            int vectorsBefore = space.vectorCount();
            boolean kept = space.onEmbedding(embedding, live);
            held(space, memoriesBefore, vectorsBefore);
            if (!kept) {
                if (foreignModels.add(embedding.getModelId())) {
                    log.warn("consolidate: the embeddings topic carries vectors of model {}, this job compares {}: "
                            + "runs wait for vectors of {} (start the job with the embedder's model id)",
                            embedding.getModelId(), modelId, modelId);
                }
                return Optional.empty();
            }
            queue(spaceId).forEach(run -> run.offer(embedding, live));
        } else {
            MemoryEvent event = eventSerde.deserialize(record.topic(), record.value());
            spaceId = event.getSpace();
            SpaceMemories space = space(spaceId);
            int memoriesBefore = space.size();
            int vectorsBefore = space.vectorCount();
            space.onEvent(event);
            held(space, memoriesBefore, vectorsBefore);
            Deque<PendingRun> runs = queue(spaceId);
            Optional<Instant> previous = runs.isEmpty() ? planner(spaceId).lastRun() : Optional.of(runs.getLast().at());
            if (previous.isEmpty() || !space.chainTime().isBefore(previous.get().plus(settings.interval()))) {
                runs.addLast(space.pendingRun(space.chainTime(), event.getSeq(), settings.recency(), live));
            }
        }
        return plans(spaceId);
    }

    /** Adds what a record changed in the space's memories and vectors to the job's totals. */
    private void held(SpaceMemories space, int memoriesBefore, int vectorsBefore) {
        metrics.memoriesHeld.addAndGet(space.size() - memoriesBefore);
        metrics.vectorsHeld.addAndGet(space.vectorCount() - vectorsBefore);
    }

    /** Plans the space's runs that are complete, oldest first; the live ones are returned. */
    private Optional<List<ConsolidatePlanner.Plan>> plans(String spaceId) {
        Deque<PendingRun> runs = queue(spaceId);
        SpaceMemories space = space(spaceId);
        List<ConsolidatePlanner.Plan> plans = new ArrayList<>();
        while (!runs.isEmpty() && runs.getFirst().complete(space.embeddedSeq(), space.lastStateOnlySeq())) {
            PendingRun run = runs.removeFirst();
            if (!run.ready()) {
                log.info("consolidate: run of space={} at {} plans without {} vector(s) the embedder did not write",
                        spaceId, run.at(), run.waiting());
            }
            Optional<ConsolidatePlanner.Plan> plan = planner(spaceId).plan(spaceId, run.items(), run.at());
            if (run.live()) {
                plan.ifPresent(plans::add);
            }
        }
        return plans.isEmpty() ? Optional.empty() : Optional.of(plans);
    }

    private Deque<PendingRun> queue(String space) {
        return pending.computeIfAbsent(space, s -> new ArrayDeque<>());
    }

    private ConsolidatePlanner planner(String space) {
        return planners.computeIfAbsent(space, s -> new ConsolidatePlanner(settings));
    }

    @Override
    public List<MemoryRequest> execute(List<ConsolidatePlanner.Plan> plans) {
        List<MemoryRequest> merges = new ArrayList<>();
        for (ConsolidatePlanner.Plan plan : plans) {
            List<MemoryRequest> run = consolidations.requests(plan);
            log.info("consolidate: run {} of space={} at {}: pool {}, considered {}, near-exact {}, checked {}, "
                    + "capped {}, remembered {}, merges {}", plan.period(), plan.space(), plan.at(), plan.pool(),
                    plan.considered(), plan.nearExact().size(), plan.toCheck().size(), plan.capped(),
                    plan.remembered(), run.size());
            merges.addAll(run);
        }
        return merges;
    }

    private SpaceMemories space(String space) {
        return spaces.computeIfAbsent(space, s -> new SpaceMemories(modelId));
    }
}
