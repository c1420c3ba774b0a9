package io.memorychain.worker;

import io.memorychain.events.Topics;
import io.memorychain.events.registry.SchemaRegistry;
import io.memorychain.jobs.ChainJob;
import io.memorychain.jobs.reflect.ReflectMetrics;
import io.memorychain.jobs.reflect.ReflectRun;
import io.memorychain.jobs.reflect.ReflectSettings;
import io.memorychain.jobs.reflect.ReflectWorker;
import io.memorychain.jobs.reflect.ReflectionEngine;
import io.memorychain.llm.ChatModels;
import io.memorychain.llm.LlmRuntime;
import io.memorychain.llm.LlmSettings;
import io.memorychain.llm.UsageCounters;
import java.io.PrintStream;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code reflect}: the reflection job (docs/architecture.md §18) as its own consumer group ({@link ReflectWorker}),
 * until the process is stopped. With no model it runs, logs {@code skipped: no model} for each due reflection and
 * publishes nothing.
 */
final class ReflectCommand {

    private static final Logger log = LoggerFactory.getLogger(ReflectCommand.class);

    static final String USAGE = """
            reflect --bootstrap-servers HOST:PORT [--registry-url URL | --registry-topic TOPIC] [--topic-prefix P]
                [--group-id ID] [--instance-id ID] [--start-from latest|earliest] [--interval P1D] [--threshold 20]
                [--session-idle PT30M] [--output-token-cap 8000] [--llm-config FILE] [--llm-base-url URL] [--llm-model NAME]

              Runs the reflection job until stopped (SIGTERM or Ctrl-C): per space, when a reflection is requested
              (RequestReflection, the manual trigger), when the unprocessed episodes reach the threshold, when a
              conversation thread has been idle for the session-idle time, or once per interval of chain time, it
              runs the five phases (survey, meta-reflection, consolidate, rewrite core, summarize) against the model
              within the output token cap and publishes one ProposeReflection request as worker:reflect with request
              id reflect:<space>:<seq>: a pending reflection that changes nothing until a user or the agent decides
              it. No new reflection while one is pending. Reads the events topic, writes the requests topic only,
              in transactions that also commit its offsets.

              --bootstrap-servers  Kafka cluster
              --registry-url       schema registry speaking the Confluent REST API
              --registry-topic     the embedded registry's topic (default: <prefix>_memory_schemas)
              --topic-prefix       prefix of the topic names (default: none)
              --group-id           consumer group (default: memory-chain-reflect)
              --instance-id        this instance's name, stable across its restarts (default: 0)
              --start-from         where a group with no committed offsets starts running: latest (default) or
                                   earliest
              --interval           the schedule: chain time between two reflections of a space (default P1D)
              --threshold          unprocessed episodes that trigger a reflection (default 20)
              --session-idle       chain time after a thread's last episode that ends its session (default PT30M)
              --output-token-cap   completion tokens of all phases of one reflection (default 8000)
              --llm-config, --llm-base-url, --llm-model, MEMORY_LLM_*: the model, as for tom; without one nothing is
                                   published (skipped: no model).

              Exit status: 0 stopped, 2 usage error or the job could not run.""";

    static final String DEFAULT_GROUP_ID = "memory-chain-reflect";

    /** Parsed arguments of {@code reflect}. */
    record Options(
            String bootstrapServers,
            RegistrySpec registry,
            Topics topics,
            String groupId,
            String instanceId,
            ChainJob.StartFrom startFrom,
            ReflectSettings settings,
            LlmSettings llm) {

        ChainJob.Options worker() {
            return ReflectWorker.options(
                    bootstrapServers, topics, groupId, instanceId, startFrom, Duration.ofMillis(500));
        }
    }

    private ReflectCommand() {}

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
                        "--threshold",
                        "--session-idle",
                        "--output-token-cap",
                        "--llm-config",
                        "--llm-base-url",
                        "--llm-model"),
                Set.of());
        String bootstrap = CommandLine.required(values, "--bootstrap-servers", "");
        Topics topics = CommandLine.topics(values);
        RegistrySpec registry = CommandLine.registry(values, bootstrap, topics);
        ReflectSettings settings;
        try {
            ReflectSettings d = ReflectSettings.defaults();
            settings = new ReflectSettings(
                    duration(values, "--interval", d.interval()),
                    TomCommand.integer(values, "--threshold", d.threshold()),
                    duration(values, "--session-idle", d.sessionIdle()),
                    d.retryAfter(),
                    TomCommand.integer(values, "--output-token-cap", d.outputTokenCap()),
                    d.maxEpisodes(),
                    d.maxMemories(),
                    d.blockLabels());
        } catch (IllegalArgumentException e) {
            throw new UsageException(e.getMessage());
        }
        return new Options(
                bootstrap,
                registry,
                topics,
                values.getOrDefault("--group-id", DEFAULT_GROUP_ID),
                values.getOrDefault("--instance-id", "0"),
                TomCommand.startFrom(values),
                settings,
                TomCommand.llm(values, environment));
    }

    private static Duration duration(Map<String, String> values, String name, Duration defaultValue)
            throws UsageException {
        String text = values.get(name);
        try {
            return text == null ? defaultValue : Duration.parse(text);
        } catch (DateTimeParseException e) {
            throw new UsageException(name + " must be an ISO-8601 duration such as P1D or PT30M, not '" + text + "'");
        }
    }

    /** Runs the job until the JVM shuts down; returns the exit status. */
    static int run(Options options, RegistryFactory registries, PrintStream err) {
        if (!options.llm().anyConfigured()) {
            log.info("reflect: skipped: no model: reflections that fall due publish nothing");
            err.println("reflect: skipped: no model: reflections that fall due publish nothing");
        }
        UsageCounters usage = new UsageCounters();
        ReflectMetrics metrics = new ReflectMetrics();
        ChatModels models = new ChatModels(options.llm(), LlmRuntime.standard(usage));
        try (SchemaRegistry registry = registries.open(options.registry());
                WorkerContent content = WorkerContent.open(
                        options.worker().bootstrapServers(), options.worker().topics(), registry)) {
            ChainJob<ReflectRun> worker = ReflectWorker.job(
                    options.worker(),
                    registry,
                    options.settings(),
                    new ReflectionEngine(models, options.settings(), metrics),
                    metrics,
                    ChainJob.BeforeCommit.NONE,
                    content.content());
            log.info(
                    "reflect starting: group {}, interval {}, threshold {}, session idle {}, output token cap {}",
                    options.groupId(),
                    options.settings().interval(),
                    options.settings().threshold(),
                    options.settings().sessionIdle(),
                    options.settings().outputTokenCap());
            JobRunner.runUntilShutdown(
                    worker,
                    ReflectWorker.NAME,
                    () -> log.info(
                            "reflect: {}; llm usage {}", metrics.summary(), usage.totals(ReflectionEngine.PURPOSE)));
        }
        log.info(
                "reflect stopped cleanly: {}; llm usage {}", metrics.summary(), usage.totals(ReflectionEngine.PURPOSE));
        return WorkerMain.EXIT_OK;
    }
}
