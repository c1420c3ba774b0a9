package io.memorychain.worker;

import io.memorychain.domain.category.CategoryPolicy;
import io.memorychain.events.Topics;
import io.memorychain.events.registry.SchemaRegistry;
import io.memorychain.projector.MemoryChainRuntime;
import io.memorychain.projector.StreamsProperties;
import io.memorychain.projector.lifecycle.LifecycleListener;
import io.memorychain.projector.lifecycle.LifecycleSettings;
import io.memorychain.projector.lifecycle.LifecycleStatus;
import io.memorychain.projector.lifecycle.LifecycleTopology;
import io.memorychain.projector.retrieval.DecayModel;
import io.memorychain.projector.support.StreamsLag;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.streams.KafkaStreams;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code lifecycle}: runs the lifecycle worker ({@link LifecycleTopology}: decay transitions, docs/architecture.md §7;
 * TTL expiry, docs/architecture.md §12) as a Kafka Streams application until the process is stopped.
 */
final class LifecycleCommand {

    private static final Logger log = LoggerFactory.getLogger(LifecycleCommand.class);

    static final String USAGE = """
            lifecycle --bootstrap-servers HOST:PORT [--registry-url URL | --registry-topic TOPIC] [--topic-prefix P]
                   [--application-id ID] [--state-dir DIR] [--check-interval PT10M] [--decay-lambda 0.03]
                   [--fading-below 0.5] [--dormant-below 0.2] [--archived-below 0.05] [--ttl CATEGORY=TTL[/BELOW[/PURGE]],...]

              Runs the lifecycle worker until stopped (SIGTERM or Ctrl-C shut it down cleanly): every check interval it
              evaluates every memory's decay score (docs/architecture.md §7: from the chain's decay clock and the reads on
              the access topic) and publishes TransitionDecay requests (active -> fading -> dormant -> archived, one
              step per check; straight back up when reads reinforce it) and, for categories with a TTL, ExpireMemory
              requests (docs/architecture.md §12), as worker:lifecycle with request ids decay:<space>:<id>:<version>:<to> and
              expire:<space>:<id>:<version>. Reads the events and access topics, writes the requests topic only.

              --bootstrap-servers  Kafka cluster
              --registry-url       schema registry speaking the Confluent REST API
              --registry-topic     the embedded registry's topic (default: <prefix>_memory_schemas)
              --topic-prefix       prefix of the topic names (default: none)
              --application-id     Kafka Streams application id (default: memory-chain-lifecycle)
              --state-dir          Kafka Streams state directory (default: ./data/lifecycle)
              --check-interval     how often every memory is evaluated, ISO-8601 (default PT10M)
              --decay-lambda       decay rate per day (default 0.03; 0 turns decay transitions off)
              --fading-below       score under which an active memory fades (default 0.5)
              --dormant-below      score under which a fading memory turns dormant (default 0.2)
              --archived-below     score under which a dormant memory is archived (default 0.05)
              --ttl                per-category TTL, comma-separated: CATEGORY=TTL, optionally /BELOW (only importance
                                   below it expires, default 3) and /PURGE (purge_after; default never: kept
                                   indefinitely). E.g. event=P60D/3,activity=P30D/3/P30D. Keep it equal to the
                                   service's categories file, whose purge_after the sequencer applies.

              Exit status: 0 stopped, 2 usage error or the worker could not run.""";

    static final String DEFAULT_APPLICATION_ID = "memory-chain-lifecycle";
    static final Path DEFAULT_STATE_DIR = Path.of("data", "lifecycle");

    /** Parsed arguments of {@code lifecycle}. */
    record Options(
            String bootstrapServers,
            RegistrySpec registry,
            Topics topics,
            String applicationId,
            Path stateDir,
            LifecycleSettings settings) {}

    private LifecycleCommand() {}

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
                        "--check-interval",
                        "--decay-lambda",
                        "--fading-below",
                        "--dormant-below",
                        "--archived-below",
                        "--ttl"),
                Set.of());
        String bootstrap = CommandLine.required(values, "--bootstrap-servers", "");
        Topics topics = CommandLine.topics(values);
        RegistrySpec registry = CommandLine.registry(values, bootstrap, topics);
        Duration interval = duration(
                "--check-interval",
                values.getOrDefault("--check-interval", LifecycleSettings.DEFAULT_CHECK_INTERVAL.toString()));
        double lambda = number(values, "--decay-lambda", DecayModel.DEFAULT_LAMBDA);
        LifecycleSettings.Thresholds seed = LifecycleSettings.Thresholds.SEED;
        LifecycleSettings settings;
        try {
            LifecycleSettings.Thresholds thresholds = new LifecycleSettings.Thresholds(
                    number(values, "--fading-below", seed.fading()),
                    number(values, "--dormant-below", seed.dormant()),
                    number(values, "--archived-below", seed.archived()));
            settings = new LifecycleSettings(lambda, thresholds, interval, ttl(values.get("--ttl")));
        } catch (IllegalArgumentException e) {
            throw new UsageException(
                    e.getMessage().replace("checkInterval", "--check-interval").replace("lambda", "--decay-lambda"));
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

    /** {@code event=P60D/3,activity=P30D/3/P30D}: categories with a TTL lifecycle (no allowlists). */
    static CategoryPolicy ttl(String text) throws UsageException {
        if (text == null || text.isBlank()) {
            return CategoryPolicy.unrestricted();
        }
        Map<String, CategoryPolicy.Category> categories = new LinkedHashMap<>();
        for (String item : text.split(",")) {
            String[] nameAndRest = item.strip().split("=", 2);
            if (nameAndRest.length != 2 || nameAndRest[0].isBlank()) {
                throw new UsageException("--ttl takes CATEGORY=TTL[/BELOW[/PURGE]], not '" + item + "'");
            }
            String[] parts = nameAndRest[1].split("/");
            try {
                Duration ttl = duration("--ttl", parts[0]);
                int below = parts.length > 1
                        ? Integer.parseInt(parts[1])
                        : CategoryPolicy.Lifecycle.DEFAULT_IMPORTANCE_BELOW;
                Duration purge = parts.length > 2 && !"never".equals(parts[2]) ? duration("--ttl", parts[2]) : null;
                String name = nameAndRest[0].strip();
                categories.put(
                        name,
                        new CategoryPolicy.Category(
                                name,
                                CategoryPolicy.ContextMode.RAG,
                                0,
                                new CategoryPolicy.Lifecycle(ttl, below, purge)));
            } catch (IllegalArgumentException e) { // NumberFormatException included
                throw new UsageException("--ttl: " + e.getMessage() + " in '" + item + "'");
            }
        }
        return new CategoryPolicy(categories, Map.of());
    }

    private static double number(Map<String, String> values, String name, double defaultValue) throws UsageException {
        String text = values.get(name);
        try {
            return text == null ? defaultValue : Double.parseDouble(text);
        } catch (NumberFormatException e) {
            throw new UsageException(name + " must be a number, not '" + text + "'");
        }
    }

    private static Duration duration(String name, String text) throws UsageException {
        try {
            return Duration.parse(text);
        } catch (DateTimeParseException e) {
            throw new UsageException(name + " must be an ISO-8601 duration such as P60D or PT10M, not '" + text + "'");
        }
    }

    /** The worker's Streams application (not started), with the clock decay is measured by. */
    static KafkaStreams streams(Options options, SchemaRegistry registry, Clock clock, LifecycleListener listener) {
        return new KafkaStreams(
                LifecycleTopology.build(options.topics(), registry, options.settings(), clock, listener),
                StreamsProperties.streamsConfig(
                        options.bootstrapServers(),
                        options.stateDir(),
                        (short) -1,
                        options.applicationId(),
                        MemoryChainRuntime.Settings.defaultInstanceId()));
    }

    /** Runs the worker until the JVM shuts down or Streams fails; returns the exit status. */
    static int run(Options options, RegistryFactory registries, PrintStream err) {
        LifecycleStatus status = new LifecycleStatus();
        try (SchemaRegistry registry = registries.open(options.registry())) {
            KafkaStreams streams = streams(options, registry, Clock.systemUTC(), status);
            AtomicLong reported = new AtomicLong();
            LifecycleSettings s = options.settings();
            log.info(
                    "Lifecycle worker starting: application {}, topics {} + {} -> {}, lambda {}, {}, checked every {}",
                    options.applicationId(),
                    options.topics().events(),
                    options.topics().access(),
                    options.topics().requests(),
                    s.lambda(),
                    s.thresholds(),
                    s.checkInterval());
            return StreamsJob.run(
                    "Lifecycle worker",
                    streams,
                    () -> {
                        long total = status.requestedTotal();
                        log.info(
                                "Lifecycle worker: {} request(s) in the last minute, lag {}, {}",
                                total - reported.getAndSet(total),
                                StreamsLag.of(streams),
                                status.figures());
                    },
                    () -> status.requestedTotal() + " request(s) published since start",
                    err);
        }
    }
}
