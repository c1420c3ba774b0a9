package io.memorychain.worker;

import io.memorychain.events.Topics;
import io.memorychain.events.registry.SchemaRegistry;
import io.memorychain.projector.MemoryChainRuntime;
import io.memorychain.projector.StreamsProperties;
import io.memorychain.projector.refinement.RefinementTriggerSettings;
import io.memorychain.projector.refinement.RefinementTriggerTopology;
import io.memorychain.projector.refinement.TriggerListener;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import org.apache.kafka.streams.KafkaStreams;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code refine}: runs the refinement trigger ({@link RefinementTriggerTopology}, docs/architecture.md §9) as a Kafka
 * Streams application until the process is stopped: refinement sessions start when a space's core memory goes over the
 * token threshold, and on the schedule.
 */
final class RefineCommand {

    private static final Logger log = LoggerFactory.getLogger(RefineCommand.class);

    static final String USAGE = """
            refine --bootstrap-servers HOST:PORT [--registry-url URL | --registry-topic TOPIC] [--topic-prefix P]
                   [--application-id ID] [--state-dir DIR] [--threshold-tokens 8000] [--target-tokens 5000]
                   [--schedule P7D | off] [--check-interval PT1M]

              Runs the refinement trigger until stopped (SIGTERM or Ctrl-C shut it down cleanly): publishes
              StartRefinement requests as worker:refinement when a space's core memory goes over the token threshold
              (trigger token_budget), and for every space with core memories that had no session for the schedule
              period (trigger schedule). The sequencer removes exact duplicates before each session starts. Reads the
              events topic, writes the requests topic only. Logs the sessions requested per minute on stderr.

              --bootstrap-servers  Kafka cluster
              --registry-url       schema registry speaking the Confluent REST API
              --registry-topic     the embedded registry's topic (default: <prefix>_memory_schemas)
              --topic-prefix       prefix of the topic names (default: none)
              --application-id     Kafka Streams application id (default: memory-chain-refinement)
              --state-dir          Kafka Streams state directory (default: ./data/refinement)
              --threshold-tokens   core tokens (cl100k_base, as GET /core counts them) over which a session starts
                                   (default 8000)
              --target-tokens      the core token budget the sessions ask the agent to reach (default 5000)
              --schedule           ISO-8601 period between scheduled sessions of a space, or off (default P7D)
              --check-interval     how often the schedule is checked, ISO-8601 (default PT1M)

              Exit status: 0 stopped, 2 usage error or the trigger could not run.""";

    static final String DEFAULT_APPLICATION_ID = "memory-chain-refinement";
    static final Path DEFAULT_STATE_DIR = Path.of("data", "refinement");

    /** Parsed arguments of {@code refine}. */
    record Options(
            String bootstrapServers,
            RegistrySpec registry,
            Topics topics,
            String applicationId,
            Path stateDir,
            RefinementTriggerSettings settings) {}

    private RefineCommand() {}

    static Options parse(List<String> args) throws UsageException {
        Map<String, String> values = CommandLine.parse(
                args,
                Set.of(
                        "--bootstrap-servers",
                        "--registry-url",
                        "--registry-topic",
                        "--topic-prefix",
                        "--application-id",
                        "--state-dir",
                        "--threshold-tokens",
                        "--target-tokens",
                        "--schedule",
                        "--check-interval"),
                Set.of());
        String bootstrap = CommandLine.required(values, "--bootstrap-servers", "");
        Topics topics = CommandLine.topics(values);
        RegistrySpec registry = CommandLine.registry(values, bootstrap, topics);
        int threshold = integer(values, "--threshold-tokens", RefinementTriggerSettings.DEFAULT_THRESHOLD_TOKENS);
        int target = integer(values, "--target-tokens", RefinementTriggerSettings.DEFAULT_TARGET_TOKENS);
        String scheduleText = values.getOrDefault("--schedule", RefinementTriggerSettings.DEFAULT_SCHEDULE.toString());
        Duration schedule = "off".equalsIgnoreCase(scheduleText) ? null : duration("--schedule", scheduleText);
        Duration checkInterval = duration(
                "--check-interval",
                values.getOrDefault("--check-interval", RefinementTriggerSettings.DEFAULT_CHECK_INTERVAL.toString()));
        RefinementTriggerSettings settings;
        try {
            settings = new RefinementTriggerSettings(
                    threshold, target, schedule, checkInterval, RefinementTriggerSettings.DEFAULT_PENDING_TIMEOUT);
        } catch (IllegalArgumentException e) {
            throw new UsageException(e.getMessage()
                    .replace("thresholdTokens", "--threshold-tokens")
                    .replace("targetTokens", "--target-tokens")
                    .replace("checkInterval", "--check-interval")
                    .replace("schedule", "--schedule"));
        }
        Path stateDir = values.containsKey("--state-dir") ? Path.of(values.get("--state-dir")) : DEFAULT_STATE_DIR;
        return new Options(
                bootstrap,
                registry,
                topics,
                values.getOrDefault("--application-id", DEFAULT_APPLICATION_ID),
                stateDir,
                settings);
    }

    private static int integer(Map<String, String> values, String name, int defaultValue) throws UsageException {
        String text = values.get(name);
        try {
            return text == null ? defaultValue : Integer.parseInt(text);
        } catch (NumberFormatException e) {
            throw new UsageException(name + " must be a whole number, not '" + text + "'");
        }
    }

    private static Duration duration(String name, String text) throws UsageException {
        try {
            return Duration.parse(text);
        } catch (DateTimeParseException e) {
            throw new UsageException(name + " must be an ISO-8601 duration such as P7D or PT1M, not '" + text + "'");
        }
    }

    /** The trigger's Streams application (not started), with the clock the schedule is measured by. */
    static KafkaStreams streams(Options options, SchemaRegistry registry, Clock clock, TriggerListener listener) {
        return streams(options, registry, clock, listener, io.memorychain.events.content.ChainContent.PLAINTEXT);
    }

    /** As above, decrypting the chain's texts (docs/architecture.md §12) before counting core tokens. */
    static KafkaStreams streams(
            Options options,
            SchemaRegistry registry,
            Clock clock,
            TriggerListener listener,
            io.memorychain.events.content.ChainContent content) {
        return new KafkaStreams(
                RefinementTriggerTopology.build(
                        options.topics(), registry, options.settings(), clock, listener, content),
                StreamsProperties.streamsConfig(
                        options.bootstrapServers(),
                        options.stateDir(),
                        (short) -1,
                        options.applicationId(),
                        MemoryChainRuntime.Settings.defaultInstanceId()));
    }

    /** Runs the trigger until the JVM shuts down or Streams fails; returns the exit status. */
    static int run(Options options, RegistryFactory registries, PrintStream err) {
        LongAdder requested = new LongAdder();
        try (SchemaRegistry registry = registries.open(options.registry());
                WorkerContent content = WorkerContent.open(options.bootstrapServers(), options.topics(), registry)) {
            KafkaStreams streams = streams(
                    options,
                    registry,
                    Clock.systemUTC(),
                    (space, trigger, id) -> requested.increment(),
                    content.content());
            AtomicLong reported = new AtomicLong();
            RefinementTriggerSettings s = options.settings();
            log.info(
                    "Refinement trigger starting: application {}, topics {} -> {}, threshold {} tokens, target {}, "
                            + "schedule {}",
                    options.applicationId(),
                    options.topics().events(),
                    options.topics().requests(),
                    s.thresholdTokens(),
                    s.targetTokens(),
                    s.schedule() == null ? "off" : s.schedule());
            return StreamsJob.run(
                    "Refinement trigger",
                    streams,
                    () -> {
                        long total = requested.sum();
                        log.info(
                                "Refinement trigger: {} session(s) requested in the last minute, {} since start",
                                total - reported.getAndSet(total),
                                total);
                    },
                    () -> requested.sum() + " session(s) requested since start",
                    err);
        }
    }
}
