package io.memorychain.worker;

import io.memorychain.embeddings.EmbeddingModel;
import io.memorychain.events.Topics;
import io.memorychain.events.registry.SchemaRegistry;
import io.memorychain.jobs.ChainJob;
import io.memorychain.jobs.consolidate.ConsolidateMetrics;
import io.memorychain.jobs.consolidate.ConsolidatePlanner;
import io.memorychain.jobs.consolidate.ConsolidateSettings;
import io.memorychain.jobs.consolidate.ConsolidateWorker;
import io.memorychain.jobs.consolidate.Consolidations;
import io.memorychain.jobs.consolidate.SameFactPrompt;
import io.memorychain.llm.ChatModels;
import io.memorychain.llm.LlmRuntime;
import io.memorychain.llm.LlmSettings;
import io.memorychain.llm.UsageCounters;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code consolidate}: the daily consolidation job (docs/architecture.md §12) as its own consumer group
 * ({@link ConsolidateWorker}), until the process is stopped. With no model it runs and merges only near-exact
 * duplicates.
 */
final class ConsolidateCommand {

    private static final Logger log = LoggerFactory.getLogger(ConsolidateCommand.class);

    static final String USAGE = """
            consolidate --bootstrap-servers HOST:PORT [--registry-url URL | --registry-topic TOPIC] [--topic-prefix P]
                [--group-id ID] [--instance-id ID] [--start-from latest|earliest] [--interval P1D] [--max-pairs 50]
                [--band-low X] [--near-exact Y] [--embedding-model M | --model-id ID] [--llm-config FILE] [--llm-base-url URL]
                [--llm-model NAME] [--state-dir DIR]

              Runs the daily consolidation job until stopped (SIGTERM or Ctrl-C): per space, at most once per
              interval of chain time, pairs recent or important semantic memories with similar ones (cosine band,
              recency <= 90 days, a shared content word or a numeric step), merges near-exact duplicates at once and
              asks the model whether the other pairs state the same fact (5-10 pairs per prompt); each merge is a
              ConsolidateMemories request as worker:consolidate with request id
              consolidate:<space>:<idA>,<idB>:<versionA>,<versionB>. Reads the events and embeddings topics, writes
              the requests topic only, in transactions that also commit its offsets.

              --bootstrap-servers  Kafka cluster
              --registry-url       schema registry speaking the Confluent REST API
              --registry-topic     the embedded registry's topic (default: <prefix>_memory_schemas)
              --topic-prefix       prefix of the topic names (default: none)
              --group-id           consumer group (default: memory-chain-consolidate)
              --instance-id        this instance's name, stable across its restarts (default: 0)
              --start-from         where a group with no committed offsets starts running: latest (default) or
                                   earliest
              --interval           chain time between two runs of a space, ISO-8601 (default P1D)
              --max-pairs          pairs per run and space, near-exact and checked together (default 50)
              --band-low           lowest cosine of a pair sent to the model (default: calibrated for the
                                   embedding model, e5-small 0.89, bge-small 0.85, minilm 0.80)
              --near-exact         cosine at or above which a pair merges without a model (default: e5-small
                                   0.995, the others 0.99)
              --embedding-model    the embedder's model, minilm, bge-small or e5-small (memory.embeddings.model):
                                   only its vectors are compared (default e5-small)
              --model-id           an explicit model id instead
              --state-dir          a local directory for the job's copy of the memories and vectors (RocksDB,
                                   about 2 KB per memory; rebuilt from the chain at every start, deleted at stop;
                                   one job per directory (locked); default: a new directory under java.io.tmpdir)
              --llm-config, --llm-base-url, --llm-model, MEMORY_LLM_*: the model, as for tom; without one only
                                   near-exact duplicates are merged. The daily token budget is memory-llm's
                                   memory.llm.daily-token-budget (per tenant = space).

              Exit status: 0 stopped, 2 usage error or the job could not run.""";

    static final String DEFAULT_GROUP_ID = "memory-chain-consolidate";

    /** Parsed arguments of {@code consolidate}. */
    record Options(
            String bootstrapServers,
            RegistrySpec registry,
            Topics topics,
            String groupId,
            String instanceId,
            ChainJob.StartFrom startFrom,
            String modelId,
            ConsolidateSettings settings,
            LlmSettings llm,
            Path stateDir) {

        ChainJob.Options worker() {
            return ConsolidateWorker.options(
                    bootstrapServers, topics, groupId, instanceId, startFrom, Duration.ofMillis(500));
        }
    }

    private ConsolidateCommand() {}

    static Options parse(List<String> args, Map<String, String> environment) throws UsageException {
        Map<String, String> values = CommandLine.parse(
                args,
                Set.of(
                        "--bootstrap-servers",
                        "--registry-url",
                        "--registry-topic",
                        "--topic-prefix",
                        "--group-id",
                        "--instance-id",
                        "--start-from",
                        "--interval",
                        "--max-pairs",
                        "--band-low",
                        "--near-exact",
                        "--model-id",
                        "--embedding-model",
                        "--llm-config",
                        "--llm-base-url",
                        "--llm-model",
                        "--state-dir"),
                Set.of());
        String bootstrap = CommandLine.required(values, "--bootstrap-servers", "");
        Topics topics = CommandLine.topics(values);
        RegistrySpec registry = CommandLine.registry(values, bootstrap, topics);
        ChainJob.StartFrom startFrom = TomCommand.startFrom(values);
        String modelId = LinkCommand.modelId(values);
        ConsolidateSettings calibrated = ConsolidateSettings.forModel(EmbeddingModel.thresholdsOf(modelId));
        ConsolidateSettings settings;
        try {
            Duration interval =
                    Duration.parse(values.getOrDefault("--interval", ConsolidateSettings.DEFAULT_INTERVAL.toString()));
            settings = calibrated
                    .withInterval(interval)
                    .withMaxPairs(TomCommand.integer(values, "--max-pairs", ConsolidateSettings.DEFAULT_MAX_PAIRS))
                    .withBand(
                            decimal(values, "--band-low", calibrated.bandLow()),
                            decimal(values, "--near-exact", calibrated.nearExact()));
        } catch (DateTimeParseException e) {
            throw new UsageException(
                    "--interval must be an ISO-8601 duration such as P1D, not '" + values.get("--interval") + "'");
        } catch (IllegalArgumentException e) {
            throw new UsageException(e.getMessage());
        }
        return new Options(
                bootstrap,
                registry,
                topics,
                values.getOrDefault("--group-id", DEFAULT_GROUP_ID),
                values.getOrDefault("--instance-id", "0"),
                startFrom,
                modelId,
                settings,
                TomCommand.llm(values, environment),
                stateDir(values));
    }

    private static Path stateDir(Map<String, String> values) throws UsageException {
        String dir = values.get("--state-dir");
        try {
            return dir == null ? null : Path.of(dir);
        } catch (InvalidPathException e) {
            throw new UsageException("--state-dir: '" + dir + "' is not a path: " + e.getMessage());
        }
    }

    private static double decimal(Map<String, String> values, String name, double defaultValue) throws UsageException {
        String text = values.get(name);
        try {
            return text == null ? defaultValue : Double.parseDouble(text);
        } catch (NumberFormatException e) {
            throw new UsageException(name + " must be a number, not '" + text + "'");
        }
    }

    /** Runs the job until the JVM shuts down; returns the exit status. */
    static int run(Options options, RegistryFactory registries, PrintStream err) {
        if (!options.llm().anyConfigured()) {
            log.info("consolidate: no model: only near-exact duplicates are merged");
            err.println("consolidate: no model: only near-exact duplicates are merged");
        }
        UsageCounters usage = new UsageCounters();
        ConsolidateMetrics metrics = new ConsolidateMetrics();
        ChatModels models = new ChatModels(options.llm(), LlmRuntime.standard(usage));
        Path stateDir;
        try {
            stateDir = options.stateDir() != null
                    ? options.stateDir()
                    : Files.createTempDirectory("memory-chain-consolidate-");
        } catch (IOException e) {
            err.println("consolidate: cannot create a temporary state directory (give one with --state-dir): " + e);
            return WorkerMain.EXIT_ERROR;
        }
        try (SchemaRegistry registry = registries.open(options.registry());
                WorkerContent content = WorkerContent.open(
                        options.worker().bootstrapServers(), options.worker().topics(), registry)) {
            ChainJob<List<ConsolidatePlanner.Plan>> worker = ConsolidateWorker.job(
                    options.worker(),
                    registry,
                    options.settings(),
                    new Consolidations(models, options.settings(), metrics),
                    metrics,
                    options.modelId(),
                    content.content(),
                    stateDir);
            log.info(
                    "consolidate starting: group {}, interval {}, max-pairs {}, band [{}, {}), embeddings of {}, "
                            + "state in {}",
                    options.groupId(),
                    options.settings().interval(),
                    options.settings().maxPairs(),
                    options.settings().bandLow(),
                    options.settings().nearExact(),
                    options.modelId(),
                    stateDir);
            JobRunner.runUntilShutdown(
                    worker,
                    ConsolidateWorker.NAME,
                    () -> log.info(
                            "consolidate: {}; llm usage {}", metrics.summary(), usage.totals(SameFactPrompt.PURPOSE)));
        }
        log.info(
                "consolidate stopped cleanly: {}; llm usage {}",
                metrics.summary(),
                usage.totals(SameFactPrompt.PURPOSE));
        return WorkerMain.EXIT_OK;
    }
}
