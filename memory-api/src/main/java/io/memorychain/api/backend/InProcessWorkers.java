package io.memorychain.api.backend;

import io.memorychain.api.config.ConsolidateConfig;
import io.memorychain.api.config.LifecycleConfig;
import io.memorychain.api.config.LlmModelConfig;
import io.memorychain.api.config.RefinementConfig;
import io.memorychain.api.config.ReflectConfig;
import io.memorychain.api.config.RetrievalConfig;
import io.memorychain.api.config.TomConfig;
import io.memorychain.domain.category.CategoryPolicy;
import io.memorychain.embeddings.Embedder;
import io.memorychain.events.Topics;
import io.memorychain.events.registry.SchemaRegistry;
import io.memorychain.jobs.ChainJob;
import io.memorychain.jobs.consolidate.ConsolidateMetrics;
import io.memorychain.jobs.consolidate.ConsolidatePlanner;
import io.memorychain.jobs.consolidate.ConsolidateSettings;
import io.memorychain.jobs.consolidate.ConsolidateWorker;
import io.memorychain.jobs.consolidate.Consolidations;
import io.memorychain.jobs.consolidate.SameFactPrompt;
import io.memorychain.jobs.reflect.ReflectMetrics;
import io.memorychain.jobs.reflect.ReflectRun;
import io.memorychain.jobs.reflect.ReflectSettings;
import io.memorychain.jobs.reflect.ReflectWorker;
import io.memorychain.jobs.reflect.ReflectionEngine;
import io.memorychain.jobs.tom.TomInsights;
import io.memorychain.jobs.tom.TomMetrics;
import io.memorychain.jobs.tom.TomPrompt;
import io.memorychain.jobs.tom.TomRun;
import io.memorychain.jobs.tom.TomSettings;
import io.memorychain.jobs.tom.TomWorker;
import io.memorychain.llm.ChatModels;
import io.memorychain.llm.LlmRuntime;
import io.memorychain.llm.LlmSettings;
import io.memorychain.llm.UsageCounters;
import io.memorychain.projector.MemoryChainRuntime;
import io.memorychain.projector.StreamsProperties;
import io.memorychain.projector.lifecycle.LifecycleSettings;
import io.memorychain.projector.lifecycle.LifecycleStatus;
import io.memorychain.projector.lifecycle.LifecycleTopology;
import io.memorychain.projector.ops.OpsCounts;
import io.memorychain.projector.ops.OpsTopology;
import io.memorychain.projector.ops.OpsTotals;
import io.memorychain.projector.refinement.RefinementTriggerSettings;
import io.memorychain.projector.refinement.RefinementTriggerTopology;
import io.memorychain.projector.support.StreamsLag;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StoreQueryParameters;
import org.apache.kafka.streams.state.QueryableStoreTypes;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the service runs beside the chain's runtime (docs/architecture.md §12): the ops, refinement-trigger and
 * lifecycle Streams applications, and the ToM, consolidation and reflection jobs on threads of their own (a model is
 * never called from a Streams thread). Each is on when its configuration says so; a job that needs a model and has none
 * is reported {@code skipped: no model}. {@link MemoryChainBackend} starts it after the runtime and closes it before.
 */
final class InProcessWorkers implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(InProcessWorkers.class);
    private static final String NO_MODEL = "skipped: no model";

    /** What the workers run against: the started runtime and where it keeps its state. */
    record Chain(
            MemoryChainRuntime runtime,
            MemoryChainRuntime.Settings settings,
            SchemaRegistry registry,
            Embedder embedder,
            Path dataDir,
            boolean embedded) {

        Topics topics() {
            return settings.topics();
        }

        Properties streamsConfig(String suffix) {
            return StreamsProperties.streamsConfig(
                    settings.bootstrapServers(),
                    settings.stateDir(),
                    settings.replicationFactor(),
                    settings.applicationId() + suffix,
                    settings.instanceId());
        }
    }

    /** The configuration of every worker (each section's own {@code memory.*} keys). */
    record Config(
            RefinementConfig refinement,
            LifecycleConfig lifecycle,
            TomConfig tom,
            ConsolidateConfig consolidate,
            ReflectConfig reflect,
            LlmModelConfig llm,
            RetrievalConfig retrieval,
            CategoryPolicy categories,
            Set<String> blockLabels) {}

    private final OpsTotals opsTotals = new OpsTotals();
    private final LifecycleStatus lifecycleStatus = new LifecycleStatus();
    /** The LLM usage of this process's jobs, by purpose ({@code /prometheus} memory_llm_*). */
    private final UsageCounters llmUsage = new UsageCounters();

    private final TomMetrics tomMetrics = new TomMetrics();
    private final ConsolidateMetrics consolidateMetrics = new ConsolidateMetrics();
    private final ReflectMetrics reflectMetrics = new ReflectMetrics();
    /** Streams applications by name, in start order. */
    private final Map<String, KafkaStreams> applications = new LinkedHashMap<>();

    private KafkaStreams opsApp;
    private KafkaStreams lifecycleWorker;
    private InProcessJob tomJob;
    private InProcessJob consolidateJob;
    private InProcessJob reflectJob;
    /** Why the ToM job is not running although wanted ({@code skipped: no model}), or null. */
    private String tomSkipped;
    /** Why the reflection job is not running although wanted ({@code skipped: no model}), or null. */
    private String reflectSkipped;

    /** Starts every worker the configuration turns on; on failure, {@link #close()} stops what started. */
    void start(Chain chain, Config config) {
        config.refinement().trigger().ifPresent(trigger -> startRefinementTrigger(chain, trigger));
        opsApp = startApplication(chain, "ops", OpsTopology.build(chain.topics(), chain.registry(), opsTotals));
        config.lifecycle()
                .settings(chain.embedded(), config.retrieval().getDecayLambda(), config.categories())
                .ifPresent(worker -> startLifecycleWorker(chain, worker));
        LlmSettings models = config.llm().settings();
        Optional<TomSettings> tom = config.tom().settings(chain.embedded());
        if (tom.isPresent()) {
            if (models.anyConfigured()) {
                startTom(chain, tom.get(), models, config.tom().getMaxRunsPerBatch());
            } else {
                tomSkipped = NO_MODEL;
                log.info("tom: skipped: no model (set memory.llm.base-url and memory.llm.model, or MEMORY_LLM_BASE_URL "
                        + "and MEMORY_LLM_MODEL; memory.tom.enabled=false silences this)");
            }
        }
        config.consolidate()
                .settings(chain.embedded(), chain.embedder().modelId())
                .ifPresent(c -> startConsolidate(chain, c, models));
        Optional<ReflectSettings> reflect = config.reflect().settings(chain.embedded(), config.blockLabels());
        if (reflect.isPresent()) {
            if (models.anyConfigured()) {
                startReflect(chain, reflect.get(), models);
            } else {
                reflectSkipped = NO_MODEL;
                log.info("reflect: skipped: no model (set memory.llm.base-url and memory.llm.model; "
                        + "memory.reflect.enabled=false silences this)");
            }
        }
    }

    private KafkaStreams startApplication(Chain chain, String name, org.apache.kafka.streams.Topology topology) {
        KafkaStreams streams = new KafkaStreams(topology, chain.streamsConfig("-" + name));
        streams.setUncaughtExceptionHandler(chain.runtime().failures().handler(name));
        streams.start();
        applications.put(name, streams);
        return streams;
    }

    /**
     * The refinement trigger (docs/architecture.md §9), application id {@code <app>-refinement}: it reads the events
     * and publishes StartRefinement requests as worker:refinement; the sequencer decides.
     */
    private void startRefinementTrigger(Chain chain, RefinementTriggerSettings trigger) {
        startApplication(
                chain,
                "refinement",
                RefinementTriggerTopology.build(
                        chain.topics(),
                        chain.registry(),
                        trigger,
                        Clock.systemUTC(),
                        (space, why, requestId) -> log.info(
                                "Refinement session requested for space {} ({}, request {})", space, why, requestId),
                        chain.runtime().content()));
        log.info(
                "Refinement trigger running: sessions start over {} core tokens (target {}), schedule {}",
                trigger.thresholdTokens(),
                trigger.targetTokens(),
                trigger.schedule() == null ? "off" : trigger.schedule());
    }

    /**
     * The lifecycle worker (decay transitions and TTL expiry), application id {@code <app>-lifecycle}: it reads the
     * events and accesses and publishes TransitionDecay / ExpireMemory requests as worker:lifecycle.
     */
    private void startLifecycleWorker(Chain chain, LifecycleSettings worker) {
        lifecycleWorker = startApplication(
                chain,
                "lifecycle",
                LifecycleTopology.build(chain.topics(), chain.registry(), worker, Clock.systemUTC(), lifecycleStatus));
        log.info(
                "Lifecycle worker running: decay lambda {}, thresholds {}, checked every {}",
                worker.lambda(),
                worker.thresholds(),
                worker.checkInterval());
    }

    /**
     * The ToM insight job as its own consumer group ({@code <app>-tom}): it starts live at the end of a partition its
     * group never committed (no backfill), exactly as {@code memory-worker tom} does by default.
     */
    private void startTom(Chain chain, TomSettings settings, LlmSettings models, int maxRunsPerBatch) {
        ChainJob.Options options = TomWorker.options(
                chain.settings().bootstrapServers(),
                chain.topics(),
                chain.settings().applicationId() + "-tom",
                chain.settings().instanceId(),
                ChainJob.StartFrom.LATEST,
                maxRunsPerBatch,
                Duration.ofMillis(500));
        ChainJob<TomRun> worker = TomWorker.job(
                options,
                chain.registry(),
                settings,
                new TomInsights(chat(models), settings, tomMetrics),
                tomMetrics,
                ChainJob.BeforeCommit.NONE,
                chain.runtime().content());
        tomJob = InProcessJob.start("tom", worker, tomMetrics.job());
        log.info(
                "tom running: group {}, model {} at {}, min-items {}, cooldown {}, max-runs-per-batch {}",
                options.groupId(),
                models.defaults().model(),
                models.defaults().baseUrl(),
                settings.minItems(),
                settings.cooldown(),
                maxRunsPerBatch);
    }

    /**
     * The daily consolidation job as its own consumer group ({@code <app>-consolidate}), live from the end of a
     * partition its group never committed, as {@code memory-worker consolidate} by default. Without a model it merges
     * only near-exact duplicates.
     */
    private void startConsolidate(Chain chain, ConsolidateSettings settings, LlmSettings models) {
        ChainJob.Options options = ConsolidateWorker.options(
                chain.settings().bootstrapServers(),
                chain.topics(),
                chain.settings().applicationId() + "-consolidate",
                chain.settings().instanceId(),
                ChainJob.StartFrom.LATEST,
                Duration.ofMillis(500));
        ChainJob<List<ConsolidatePlanner.Plan>> worker = ConsolidateWorker.job(
                options,
                chain.registry(),
                settings,
                new Consolidations(chat(models), settings, consolidateMetrics),
                consolidateMetrics,
                chain.embedder().modelId(),
                chain.runtime().content(),
                chain.dataDir().resolve("jobs").resolve("consolidate"));
        consolidateJob = InProcessJob.start("consolidate", worker, consolidateMetrics.job());
        log.info(
                "consolidate running: group {}, interval {}, max-pairs {}, band [{}, {}), {}",
                options.groupId(),
                settings.interval(),
                settings.maxPairs(),
                settings.bandLow(),
                settings.nearExact(),
                models.anyConfigured() ? "model " + models.defaults().model() : "no model: near-exact duplicates only");
    }

    /**
     * The reflection job (docs/architecture.md §18) as its own consumer group ({@code <app>-reflect}), live from the
     * end of a partition its group never committed, as {@code memory-worker reflect} by default.
     */
    private void startReflect(Chain chain, ReflectSettings settings, LlmSettings models) {
        ChainJob.Options options = ReflectWorker.options(
                chain.settings().bootstrapServers(),
                chain.topics(),
                chain.settings().applicationId() + "-reflect",
                chain.settings().instanceId(),
                ChainJob.StartFrom.LATEST,
                Duration.ofMillis(500));
        ChainJob<ReflectRun> worker = ReflectWorker.job(
                options,
                chain.registry(),
                settings,
                new ReflectionEngine(chat(models), settings, reflectMetrics),
                reflectMetrics,
                ChainJob.BeforeCommit.NONE,
                chain.runtime().content());
        reflectJob = InProcessJob.start("reflect", worker, reflectMetrics.job());
        log.info(
                "reflect running: group {}, model {}, interval {}, threshold {}, session idle {}, output cap {}",
                options.groupId(),
                models.defaults().model(),
                settings.interval(),
                settings.threshold(),
                settings.sessionIdle(),
                settings.outputTokenCap());
    }

    private ChatModels chat(LlmSettings models) {
        return new ChatModels(models, LlmRuntime.standard(llmUsage));
    }

    /** The ops app's hourly counts of operational events, once it runs. */
    Optional<OpsCounts> opsCounts() {
        KafkaStreams ops = opsApp;
        return ops == null
                ? Optional.empty()
                : Optional.of(new OpsCounts(() -> ops.store(StoreQueryParameters.fromNameAndType(
                        OpsTopology.COUNTS, QueryableStoreTypes.<String, Long>keyValueStore()))));
    }

    OpsTotals opsTotals() {
        return opsTotals;
    }

    UsageCounters llmUsage() {
        return llmUsage;
    }

    /** The Streams applications started here, by name (refinement, ops, lifecycle). */
    Map<String, KafkaStreams> applications() {
        return applications;
    }

    /** {@code /health} {@code workers}: each worker's figures, or why it is skipped. */
    Map<String, Object> figures() {
        Map<String, Object> workers = new LinkedHashMap<>();
        if (lifecycleWorker != null) {
            Map<String, Object> figures = new LinkedHashMap<>();
            figures.put("state", lifecycleWorker.state().name());
            figures.put("lag", StreamsLag.of(lifecycleWorker));
            figures.putAll(lifecycleStatus.figures());
            workers.put("lifecycle", figures);
        }
        if (tomSkipped != null) {
            workers.put("tom", tomSkipped);
        } else if (tomJob != null) {
            workers.put("tom", tomFigures());
        }
        if (consolidateJob != null) {
            workers.put("consolidate", consolidateFigures());
        }
        if (reflectSkipped != null) {
            workers.put("reflect", reflectSkipped);
        } else if (reflectJob != null) {
            workers.put("reflect", reflectFigures());
        }
        return workers;
    }

    /** {@code workers.tom}: the loop's figures, the runs' counts (TomMetrics) and the model's usage. */
    private Map<String, Object> tomFigures() {
        Map<String, Object> figures = tomJob.figures();
        figures.put("runs", tomMetrics.runs());
        figures.put("dropped", tomMetrics.dropped());
        figures.put("empty_answers", tomMetrics.emptyAnswers());
        putUsage(figures, TomPrompt.PURPOSE);
        return figures;
    }

    /** {@code workers.consolidate}: the loop's figures, the runs' counts (ConsolidateMetrics) and the model's usage. */
    private Map<String, Object> consolidateFigures() {
        Map<String, Object> figures = consolidateJob.figures();
        figures.put("runs", consolidateMetrics.runs());
        figures.put("near_exact", consolidateMetrics.nearExact());
        figures.put("checked", consolidateMetrics.checked());
        figures.put("same_fact", consolidateMetrics.sameFact());
        figures.put("invalid_answers", consolidateMetrics.invalidAnswers());
        // its store on disk grows with the chain: every memory of every space and its vector (docs/benchmarks.md
        // "Memory of the embedded service")
        figures.put("memories_held", consolidateMetrics.memoriesHeld());
        figures.put("vectors_held", consolidateMetrics.vectorsHeld());
        // events held back (on disk) while a run waits for the embedder: grows while the embedder is behind or down
        figures.put("events_waiting", consolidateMetrics.eventsWaiting());
        putUsage(figures, SameFactPrompt.PURPOSE);
        return figures;
    }

    /** {@code workers.reflect}: the loop's figures, the runs' counts (ReflectMetrics) and the model's usage. */
    private Map<String, Object> reflectFigures() {
        Map<String, Object> figures = reflectJob.figures();
        figures.put("runs", reflectMetrics.runs());
        figures.put("proposed", reflectMetrics.proposed());
        figures.put("cap_reached", reflectMetrics.capReached());
        figures.put("dropped_changes", reflectMetrics.droppedChanges());
        figures.put("milestones", reflectMetrics.milestones());
        putUsage(figures, ReflectionEngine.PURPOSE);
        return figures;
    }

    private void putUsage(Map<String, Object> figures, String purpose) {
        UsageCounters.Totals usage = llmUsage.totals(purpose);
        figures.put(
                "llm_calls",
                usage.calls().values().stream().mapToLong(Long::longValue).sum());
        figures.put("llm_tokens", usage.promptTokens() + usage.completionTokens());
    }

    /** Stops the jobs, then the Streams applications (each given 30 s), logging what fails to close. */
    @Override
    public void close() {
        MemoryChainBackend.closeQuietly("ToM job", tomJob);
        MemoryChainBackend.closeQuietly("consolidation job", consolidateJob);
        MemoryChainBackend.closeQuietly("reflection job", reflectJob);
        List<Map.Entry<String, KafkaStreams>> started = List.copyOf(applications.entrySet());
        for (int i = started.size() - 1; i >= 0; i--) {
            KafkaStreams streams = started.get(i).getValue();
            MemoryChainBackend.closeQuietly(
                    started.get(i).getKey() + " app", () -> streams.close(Duration.ofSeconds(30)));
        }
    }
}
