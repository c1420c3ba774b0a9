package io.memorychain.jobs.consolidate;

import io.memorychain.avro.MemoryAccess;
import io.memorychain.avro.MemoryEmbedding;
import io.memorychain.avro.MemoryEvent;
import io.memorychain.avro.MemoryRequest;
import io.memorychain.events.Topics;
import io.memorychain.events.content.ChainContent;
import io.memorychain.events.registry.SchemaRegistry;
import io.memorychain.events.serde.AvroWireSerde;
import io.memorychain.jobs.ChainJob;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
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
 * The consolidation job (docs/architecture.md §12) as the logic of a {@link ChainJob} reading {@code memory.events.v1},
 * {@code memory.embeddings.v1} and {@code memory.access.v1} (co-partitioned by space): records update each space's
 * {@link SpaceMemories} (reads only count: they never open, hold or complete a run); an <em>event</em> whose chain time
 * makes a run due ({@link ConsolidatePlanner#due}) opens the space's run at that chain time, which plans once the
 * vectors of its candidates have arrived ({@link PendingRun}: the two topics interleave differently in a replay, and a
 * run must not plan on whichever vectors came first); a run's merges (model calls, no transaction open) are the
 * requests the loop publishes with the consumed offsets in one transaction. A replay plans the same runs from the chain
 * and re-sends the same request ids, which the sequencer deduplicates.
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

    private final String eventsTopic;
    private final String embeddingsTopic;
    private final String accessTopic;
    private final AvroWireSerde<MemoryAccess> accessSerde;
    private final AvroWireSerde<MemoryEvent> eventSerde;
    private final AvroWireSerde<MemoryEmbedding> embeddingSerde;
    private final ChainContent content;
    private final ConsolidateStore store;
    private final Map<String, SpaceMemories> spaces = new HashMap<>();
    private final Map<String, ConsolidatePlanner> planners = new HashMap<>();
    /** space -> its run that waits for vectors (at most one: the space's later events wait behind it). */
    private final Map<String, PendingRun> pending = new HashMap<>();
    /**
     * space -> the positions of its events read while its run waits, kept in the store (the embedder may keep a run
     * waiting for as long as it is down) and applied in order once the run is planned.
     */
    private final Map<String, HeldRange> held = new HashMap<>();

    /** The store positions of a space's held events: from {@code first} (the oldest) up to {@code next}, excluded. */
    private static final class HeldRange {
        long first;
        long next;
    }

    /**
     * @param stateDir where the job keeps its copy of the memories and vectors ({@link ConsolidateStore}: emptied now,
     *     rebuilt from the chain, deleted on {@link #close()})
     */
    ConsolidateWorker(
            SchemaRegistry registry,
            ConsolidateSettings settings,
            Consolidations consolidations,
            ConsolidateMetrics metrics,
            String modelId,
            String eventsTopic,
            String embeddingsTopic,
            String accessTopic,
            ChainContent content,
            Path stateDir) {
        this.settings = Objects.requireNonNull(settings, "settings");
        this.metrics = Objects.requireNonNull(metrics, "metrics");
        this.consolidations = Objects.requireNonNull(consolidations, "consolidations");
        this.modelId = Objects.requireNonNull(modelId, "modelId");
        this.eventsTopic = Objects.requireNonNull(eventsTopic, "eventsTopic");
        this.embeddingsTopic = Objects.requireNonNull(embeddingsTopic, "embeddingsTopic");
        this.accessTopic = Objects.requireNonNull(accessTopic, "accessTopic");
        this.accessSerde = AvroWireSerde.forValues(registry, MemoryAccess.class);
        this.content = Objects.requireNonNull(content, "content");
        // texts stay encrypted in the job's state on disk: decrypted only for a run's candidates
        this.eventSerde = ChainContent.PLAINTEXT.eventSerde(registry);
        this.embeddingSerde = AvroWireSerde.forValues(registry, MemoryEmbedding.class);
        this.store = ConsolidateStore.open(stateDir);
    }

    /** The loop's options for the consolidation job: reads the events, embeddings and access topics. */
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
                List.of(topics.events(), topics.embeddings(), topics.access()),
                groupId,
                instanceId,
                startFrom,
                MAX_RUNS_PER_BATCH,
                pollTimeout);
    }

    /**
     * The consolidation job, ready to {@link ChainJob#run()}.
     *
     * @param modelId the embedding model whose vectors are compared
     * @param content how the chain's texts are read (decrypted, or {@link ChainContent#PLAINTEXT})
     * @param stateDir a local directory of the job's own (its copy of the memories and vectors; emptied at start,
     *     deleted when the job closes)
     */
    public static ChainJob<List<ConsolidatePlanner.Plan>> job(
            ChainJob.Options options,
            SchemaRegistry registry,
            ConsolidateSettings settings,
            Consolidations consolidations,
            ConsolidateMetrics metrics,
            String modelId,
            ChainContent content,
            Path stateDir) {
        return job(
                options,
                registry,
                settings,
                consolidations,
                metrics,
                modelId,
                content,
                stateDir,
                ChainJob.BeforeCommit.NONE);
    }

    /** As above, with a hook called before each transaction commits (crash tests). */
    public static ChainJob<List<ConsolidatePlanner.Plan>> job(
            ChainJob.Options options,
            SchemaRegistry registry,
            ConsolidateSettings settings,
            Consolidations consolidations,
            ConsolidateMetrics metrics,
            String modelId,
            ChainContent content,
            Path stateDir,
            ChainJob.BeforeCommit beforeCommit) {
        ConsolidateWorker worker = new ConsolidateWorker(
                registry,
                settings,
                consolidations,
                metrics,
                modelId,
                options.topics().events(),
                options.topics().embeddings(),
                options.topics().access(),
                content,
                stateDir);
        return new ChainJob<>(options, registry, worker, metrics.job(), beforeCommit);
    }

    @Override
    public void reset() {
        spaces.clear();
        store.clear();
        metrics.memoriesHeld.set(0);
        metrics.vectorsHeld.set(0);
        metrics.eventsWaiting.set(0);
        planners.clear();
        pending.clear();
        held.clear();
    }

    @Override
    public void close() {
        store.close();
    }

    @Override
    public Optional<List<ConsolidatePlanner.Plan>> onRecord(ConsumerRecord<byte[], byte[]> record) {
        return onRecord(record, true);
    }

    /**
     * Opens a run at each event that makes one due (one interval of chain time after the previous run opened), and
     * returns the runs this record completes, in order, if any of them depends on a live record. While a space's run
     * waits for vectors, its later events are held back, so the run plans on the memories of its time.
     */
    @Override
    public Optional<List<ConsolidatePlanner.Plan>> onRecord(ConsumerRecord<byte[], byte[]> record, boolean live) {
        String spaceId;
        if (record.topic().equals(accessTopic)) {
            MemoryAccess access = accessSerde.deserialize(record.topic(), record.value());
            space(access.getSpace()).onAccess(access);
            return Optional.empty();
        }
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
                    log.warn(
                            "consolidate: the embeddings topic carries vectors of model {}, this job compares {}: "
                                    + "runs wait for vectors of {} (start the job with the embedder's model id)",
                            embedding.getModelId(),
                            modelId,
                            modelId);
                }
                return Optional.empty();
            }
            PendingRun run = pending.get(spaceId);
            if (run != null) {
                run.offer(embedding, live);
            }
        } else {
            MemoryEvent event = eventSerde.deserialize(record.topic(), record.value());
            spaceId = event.getSpace();
            if (pending.containsKey(spaceId)) {
                store.hold(spaceId, held.computeIfAbsent(spaceId, s -> new HeldRange()).next++, record.value(), live);
                metrics.eventsWaiting.incrementAndGet();
                return Optional.empty();
            }
            apply(event, live);
        }
        return plans(spaceId);
    }

    /** Applies an event to its space and opens the space's run if the event makes one due. */
    private void apply(MemoryEvent event, boolean live) {
        String spaceId = event.getSpace();
        SpaceMemories space = space(spaceId);
        int memoriesBefore = space.size();
        int vectorsBefore = space.vectorCount();
        space.onEvent(event);
        held(space, memoriesBefore, vectorsBefore);
        if (planner(spaceId).due(space.chainTime())) {
            pending.put(spaceId, space.pendingRun(space.chainTime(), event.getSeq(), settings.recency(), live));
        }
    }

    /** Adds what a record changed in the space's memories and vectors to the job's totals. */
    private void held(SpaceMemories space, int memoriesBefore, int vectorsBefore) {
        metrics.memoriesHeld.addAndGet(space.size() - memoriesBefore);
        metrics.vectorsHeld.addAndGet(space.vectorCount() - vectorsBefore);
    }

    /**
     * Plans the space's run once it is complete, then applies the events held behind it (which may open and complete
     * further runs), in order; the live plans are returned.
     */
    private Optional<List<ConsolidatePlanner.Plan>> plans(String spaceId) {
        SpaceMemories space = space(spaceId);
        HeldRange waiting = held.get(spaceId);
        List<ConsolidatePlanner.Plan> plans = new ArrayList<>();
        while (true) {
            PendingRun run = pending.get(spaceId);
            if (run != null) {
                if (!run.complete(space.embeddedSeq(), space.lastStateOnlySeq())) {
                    break;
                }
                pending.remove(spaceId);
                plan(spaceId, space, run).ifPresent(plans::add);
            } else if (waiting != null && waiting.first < waiting.next) {
                ConsolidateStore.Held next = store.release(spaceId, waiting.first++);
                metrics.eventsWaiting.decrementAndGet();
                apply(eventSerde.deserialize(eventsTopic, next.record()), next.live());
            } else {
                break;
            }
        }
        if (waiting != null && waiting.first == waiting.next) {
            held.remove(spaceId);
        }
        return plans.isEmpty() ? Optional.empty() : Optional.of(plans);
    }

    /** Plans a complete run over the space's candidates as they stand (its time's); the plan if the run is live. */
    private Optional<ConsolidatePlanner.Plan> plan(String spaceId, SpaceMemories space, PendingRun run) {
        if (!run.ready()) {
            log.info(
                    "consolidate: run of space={} at {} plans without {} vector(s) the embedder did not write",
                    spaceId,
                    run.at(),
                    run.waiting());
        }
        SpaceMemories.Candidates candidates = space.candidates(run.at(), settings.recency(), content::decrypt);
        Optional<ConsolidatePlanner.Plan> plan =
                planner(spaceId).plan(spaceId, candidates.items(), space::reads, run.at());
        return run.live() || candidates.usesLive() ? plan : Optional.empty();
    }

    private ConsolidatePlanner planner(String space) {
        return planners.computeIfAbsent(space, s -> new ConsolidatePlanner(settings));
    }

    @Override
    public List<MemoryRequest> execute(List<ConsolidatePlanner.Plan> plans) {
        List<MemoryRequest> merges = new ArrayList<>();
        for (ConsolidatePlanner.Plan plan : plans) {
            List<MemoryRequest> run = consolidations.requests(plan);
            log.info(
                    "consolidate: run {} of space={} at {}: pool {}, considered {}, near-exact {}, checked {}, "
                            + "capped {}, remembered {}, merges {}",
                    plan.period(),
                    plan.space(),
                    plan.at(),
                    plan.pool(),
                    plan.considered(),
                    plan.nearExact().size(),
                    plan.toCheck().size(),
                    plan.capped(),
                    plan.remembered(),
                    run.size());
            merges.addAll(run);
        }
        return merges;
    }

    private SpaceMemories space(String space) {
        return spaces.computeIfAbsent(space, s -> new SpaceMemories(s, modelId, store));
    }
}
