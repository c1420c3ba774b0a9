package io.memorychain.worker;

import io.memorychain.events.Topics;
import io.memorychain.events.registry.SchemaRegistry;
import io.memorychain.jobs.ChainJob;
import io.memorychain.jobs.tom.TomInsights;
import io.memorychain.jobs.tom.TomMetrics;
import io.memorychain.jobs.tom.TomRun;
import io.memorychain.jobs.tom.TomSettings;
import io.memorychain.jobs.tom.TomWorker;
import io.memorychain.llm.ChatModels;
import io.memorychain.llm.LlmRuntime;
import io.memorychain.llm.LlmSettings;
import io.memorychain.llm.UsageCounters;
import java.io.IOException;
import java.io.PrintStream;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code tom}: the theory-of-mind insight job (docs/architecture.md §12) as its own consumer group ({@link TomWorker}),
 * until the process is stopped. With no model configured it logs {@code skipped: no model} and exits 0 without
 * connecting.
 */
final class TomCommand {

    private static final Logger log = LoggerFactory.getLogger(TomCommand.class);

    static final String USAGE = """
            tom --bootstrap-servers HOST:PORT [--registry-url URL | --registry-topic TOPIC] [--topic-prefix P]
                [--group-id ID] [--instance-id ID] [--start-from latest|earliest] [--min-items 3] [--cooldown PT24H]
                [--max-runs-per-batch 4] [--llm-config FILE] [--llm-base-url URL] [--llm-model NAME]

              Runs the ToM insight job until stopped (SIGTERM or Ctrl-C): per conversation thread, once it has
              min-items new episodic or semantic memories and its previous run is at least the cooldown of chain time
              ago, asks the model for 1-3 third-person insights (<= 280 chars) and publishes each valid one as a
              CreateMemory request (kind insight, category relationship_dynamic, importance 2) as worker:tom, with
              request ids derived from the space and the seq range covered. Reads the events topic, writes the
              requests topic only, in transactions that also commit its offsets.

              --bootstrap-servers  Kafka cluster
              --registry-url       schema registry speaking the Confluent REST API
              --registry-topic     the embedded registry's topic (default: <prefix>_memory_schemas)
              --topic-prefix       prefix of the topic names (default: none)
              --group-id           consumer group (default: memory-chain-tom)
              --instance-id        this instance's name, stable across its restarts; the transactional id is
                                   <group-id>-<instance-id> (default: 0; give each running instance its own)
              --start-from         where a group with no committed offsets starts running: latest (default, no
                                   backfill) or earliest (every thread of the whole chain)
              --min-items          new items a thread needs before a run, 1..100 (default 3)
              --cooldown           chain time between two runs of a thread, ISO-8601 (default PT24H)
              --max-runs-per-batch model calls per transaction (default 4)
              --llm-config         properties file with memory.llm.* keys (see memory-llm/README.md)
              --llm-base-url       memory.llm.base-url, e.g. http://127.0.0.1:11434/v1
              --llm-model          memory.llm.model
              The model is also read from MEMORY_LLM_* environment variables (MEMORY_LLM_API_KEY for the key);
              the file overrides them and the two flags override both.

              Exit status: 0 stopped (or skipped: no model), 2 usage error or the job could not run.""";

    static final String DEFAULT_GROUP_ID = "memory-chain-tom";

    /** Parsed arguments of {@code tom}. */
    record Options(
            String bootstrapServers,
            RegistrySpec registry,
            Topics topics,
            String groupId,
            String instanceId,
            ChainJob.StartFrom startFrom,
            int maxRunsPerBatch,
            TomSettings settings,
            LlmSettings llm) {

        ChainJob.Options worker() {
            return TomWorker.options(
                    bootstrapServers, topics, groupId, instanceId, startFrom, maxRunsPerBatch, Duration.ofMillis(500));
        }
    }

    private TomCommand() {}

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
                        "--min-items",
                        "--cooldown",
                        "--max-runs-per-batch",
                        "--llm-config",
                        "--llm-base-url",
                        "--llm-model"),
                Set.of());
        String bootstrap = CommandLine.required(values, "--bootstrap-servers", "");
        Topics topics = CommandLine.topics(values);
        RegistrySpec registry = CommandLine.registry(values, bootstrap, topics);
        ChainJob.StartFrom startFrom = startFrom(values);
        int maxRuns = integer(values, "--max-runs-per-batch", 4);
        if (maxRuns < 1 || maxRuns > 100) {
            throw new UsageException("--max-runs-per-batch must be in 1..100");
        }
        TomSettings settings;
        try {
            Duration cooldown =
                    Duration.parse(values.getOrDefault("--cooldown", TomSettings.DEFAULT_COOLDOWN.toString()));
            settings = new TomSettings(
                    integer(values, "--min-items", TomSettings.DEFAULT_MIN_ITEMS),
                    cooldown,
                    TomSettings.DEFAULT_MAX_TOKENS);
        } catch (DateTimeParseException e) {
            throw new UsageException(
                    "--cooldown must be an ISO-8601 duration such as PT24H, not '" + values.get("--cooldown") + "'");
        } catch (IllegalArgumentException e) {
            throw new UsageException(
                    e.getMessage().replace("min-items", "--min-items").replace("cooldown", "--cooldown"));
        }
        return new Options(
                bootstrap,
                registry,
                topics,
                values.getOrDefault("--group-id", DEFAULT_GROUP_ID),
                values.getOrDefault("--instance-id", "0"),
                startFrom,
                maxRuns,
                settings,
                llm(values, environment));
    }

    /** {@code --start-from latest|earliest} (default latest), shared by the jobs' commands. */
    static ChainJob.StartFrom startFrom(Map<String, String> values) throws UsageException {
        try {
            return ChainJob.StartFrom.valueOf(
                    values.getOrDefault("--start-from", "latest").toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new UsageException(
                    "--start-from must be latest or earliest, not '" + values.get("--start-from") + "'");
        }
    }

    static LlmSettings llm(Map<String, String> values, Map<String, String> environment) throws UsageException {
        Map<String, String> properties = new HashMap<>(LlmSettings.propertiesFromEnvironment(environment));
        String file = values.get("--llm-config");
        if (file != null) {
            Properties loaded = new Properties();
            try (Reader reader = Files.newBufferedReader(Path.of(file), StandardCharsets.UTF_8)) {
                loaded.load(reader);
            } catch (IOException e) {
                throw new UsageException("cannot read --llm-config " + file + ": " + e.getMessage());
            }
            loaded.stringPropertyNames()
                    .forEach(name ->
                            properties.put(name, loaded.getProperty(name).strip()));
        }
        if (values.containsKey("--llm-base-url")) {
            properties.put(LlmSettings.PREFIX + "base-url", values.get("--llm-base-url"));
        }
        if (values.containsKey("--llm-model")) {
            properties.put(LlmSettings.PREFIX + "model", values.get("--llm-model"));
        }
        try {
            return LlmSettings.fromProperties(properties);
        } catch (IllegalArgumentException e) {
            throw new UsageException(e.getMessage());
        }
    }

    static int integer(Map<String, String> values, String name, int defaultValue) throws UsageException {
        String text = values.get(name);
        try {
            return text == null ? defaultValue : Integer.parseInt(text);
        } catch (NumberFormatException e) {
            throw new UsageException(name + " must be a whole number, not '" + text + "'");
        }
    }

    /** Runs the job until the JVM shuts down; returns the exit status. */
    static int run(Options options, RegistryFactory registries, PrintStream err) {
        if (!options.llm().anyConfigured()) {
            log.info("tom: skipped: no model (set MEMORY_LLM_BASE_URL and MEMORY_LLM_MODEL, --llm-config or "
                    + "--llm-base-url/--llm-model)");
            err.println("tom: skipped: no model");
            return WorkerMain.EXIT_OK;
        }
        UsageCounters usage = new UsageCounters();
        TomMetrics metrics = new TomMetrics();
        ChatModels models = new ChatModels(options.llm(), LlmRuntime.standard(usage));
        try (SchemaRegistry registry = registries.open(options.registry());
                WorkerContent content = WorkerContent.open(
                        options.worker().bootstrapServers(), options.worker().topics(), registry)) {
            ChainJob<TomRun> worker = TomWorker.job(
                    options.worker(),
                    registry,
                    options.settings(),
                    new TomInsights(models, options.settings(), metrics),
                    metrics,
                    ChainJob.BeforeCommit.NONE,
                    content.content());
            log.info(
                    "tom starting: group {}, model {} at {}, min-items {}, cooldown {}",
                    options.groupId(),
                    options.llm().defaults().model(),
                    options.llm().defaults().baseUrl(),
                    options.settings().minItems(),
                    options.settings().cooldown());
            JobRunner.runUntilShutdown(
                    worker,
                    TomWorker.NAME,
                    () -> log.info("tom: {}; llm usage {}", metrics.summary(), usage.totals("tom")));
        }
        log.info("tom stopped cleanly: {}", metrics.summary());
        return WorkerMain.EXIT_OK;
    }
}
