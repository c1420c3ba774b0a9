package io.memorychain.worker;

import io.memorychain.embeddings.EmbeddingModel;
import io.memorychain.events.Topics;
import io.memorychain.events.registry.SchemaRegistry;
import io.memorychain.projector.MemoryChainRuntime;
import io.memorychain.projector.StreamsProperties;
import io.memorychain.projector.linker.LinkerSettings;
import io.memorychain.projector.linker.LinkerTopology;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import org.apache.kafka.streams.KafkaStreams;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code link}: runs the linker ({@link LinkerTopology}) as a Kafka Streams application until the process is stopped
 * (SIGTERM / Ctrl-C closes it cleanly, committing its progress), logging the links proposed each minute.
 */
final class LinkCommand {

    private static final Logger log = LoggerFactory.getLogger(LinkCommand.class);

    static final String USAGE = """
            link --bootstrap-servers HOST:PORT [--registry-url URL | --registry-topic TOPIC] [--topic-prefix P]
                 [--application-id ID] [--top-k 5] [--link-min X] [--max-scan 2000] [--state-dir DIR]
                 [--embedding-model minilm|bge-small|e5-small | --model-id ID]

              Runs the linker until stopped (SIGTERM or Ctrl-C shut it down cleanly): links each new active semantic
              memory to its top-K active semantic neighbours with cosine similarity >= link-min, by publishing
              LinkMemories requests (related_to, strength = similarity) as worker:linker. Reads the events and
              embeddings topics, writes the requests topic only. Logs the links proposed per minute on stderr.

              --bootstrap-servers  Kafka cluster
              --registry-url       schema registry speaking the Confluent REST API
              --registry-topic     the embedded registry's topic (default: <prefix>_memory_schemas)
              --topic-prefix       prefix of the topic names (default: none)
              --application-id     Kafka Streams application id (default: memory-chain-linker)
              --top-k              neighbours linked per new memory, 1..100 (default 5)
              --link-min           lowest similarity linked, in (0, 1] (default: calibrated for the model,
                                   e5-small 0.86, bge-small 0.79, minilm 0.6)
              --max-scan           the most recent linkable memories of its space a new memory is compared with
                                   (default 2000): bounds a link's cost in a large space
              --state-dir          Kafka Streams state directory (default: ./data/linker)
              --embedding-model    the embedder's model (memory.embeddings.model): only its vectors are compared
                                   (default e5-small)
              --model-id           an explicit model id instead, e.g. all-MiniLM-L6-v2-q@<version>#mean-256

              Exit status: 0 stopped, 2 usage error or the linker could not run.""";

    static final String DEFAULT_APPLICATION_ID = "memory-chain-linker";
    static final Path DEFAULT_STATE_DIR = Path.of("data", "linker");

    /** Parsed arguments of {@code link}; {@code modelId} is the model whose vectors are compared. */
    record Options(
            String bootstrapServers,
            RegistrySpec registry,
            Topics topics,
            String applicationId,
            Path stateDir,
            int topK,
            double linkMin,
            String modelId,
            int maxScan) {

        LinkerSettings settings(String resolvedModelId) {
            return new LinkerSettings(topK, linkMin, resolvedModelId, maxScan);
        }
    }

    private LinkCommand() {}

    static Options parse(List<String> args) throws UsageException {
        Map<String, String> values = CommandLine.parse(
                args,
                Set.of(
                        "--bootstrap-servers",
                        "--registry-url",
                        "--registry-topic",
                        "--topic-prefix",
                        "--application-id",
                        "--top-k",
                        "--link-min",
                        "--max-scan",
                        "--state-dir",
                        "--model-id",
                        "--embedding-model"),
                Set.of());
        String bootstrap = CommandLine.required(values, "--bootstrap-servers", "");
        Topics topics = CommandLine.topics(values);
        RegistrySpec registry = CommandLine.registry(values, bootstrap, topics);
        String modelId = modelId(values);
        int topK;
        double linkMin;
        int maxScan;
        try {
            maxScan = Integer.parseInt(
                    values.getOrDefault("--max-scan", String.valueOf(LinkerSettings.DEFAULT_MAX_SCAN)));
        } catch (NumberFormatException e) {
            throw new UsageException("--max-scan must be a whole number, not '" + values.get("--max-scan") + "'");
        }
        try {
            topK = Integer.parseInt(values.getOrDefault("--top-k", String.valueOf(LinkerSettings.DEFAULT_TOP_K)));
        } catch (NumberFormatException e) {
            throw new UsageException("--top-k must be a whole number, not '" + values.get("--top-k") + "'");
        }
        try {
            linkMin = values.containsKey("--link-min")
                    ? Double.parseDouble(values.get("--link-min"))
                    : LinkerSettings.defaults(modelId).linkMin();
        } catch (NumberFormatException e) {
            throw new UsageException("--link-min must be a number, not '" + values.get("--link-min") + "'");
        }
        try {
            new LinkerSettings(topK, linkMin, "check", maxScan);
        } catch (IllegalArgumentException e) {
            throw new UsageException(e.getMessage()
                    .replace("topK", "--top-k")
                    .replace("linkMin", "--link-min")
                    .replace("maxScan", "--max-scan"));
        }
        Path stateDir = values.containsKey("--state-dir") ? Path.of(values.get("--state-dir")) : DEFAULT_STATE_DIR;
        return new Options(
                bootstrap,
                registry,
                topics,
                values.getOrDefault("--application-id", DEFAULT_APPLICATION_ID),
                stateDir,
                topK,
                linkMin,
                modelId,
                maxScan);
    }

    /**
     * The model id whose vectors a job compares: {@code --model-id} as given, else the id of {@code --embedding-model}
     * (default {@code e5-small}), from the model artifact's version (this jar ships the model artifacts but not the
     * inference libraries, so no model is loaded here).
     */
    static String modelId(Map<String, String> values) throws UsageException {
        if (values.containsKey("--model-id")) {
            if (values.containsKey("--embedding-model")) {
                throw new UsageException("give at most one of --embedding-model and --model-id");
            }
            return values.get("--model-id");
        }
        EmbeddingModel model;
        try {
            model = EmbeddingModel.fromConfigName(
                    values.getOrDefault("--embedding-model", EmbeddingModel.DEFAULT.configName()));
        } catch (IllegalArgumentException e) {
            throw new UsageException("--embedding-model: " + e.getMessage());
        }
        return model.expectedModelId()
                .orElseThrow(() -> new UsageException("the version of the embedding model " + model.configName()
                        + " is not on the classpath: give --model-id (the embedder's model id)"));
    }

    /** Runs the linker until the JVM shuts down or Streams fails; returns the exit status. */
    static int run(Options options, RegistryFactory registries, PrintStream err) throws UsageException {
        LinkerSettings settings = options.settings(options.modelId());
        LongAdder proposed = new LongAdder();
        try (SchemaRegistry registry = registries.open(options.registry());
                WorkerContent content = WorkerContent.open(options.bootstrapServers(), options.topics(), registry)) {
            KafkaStreams streams = new KafkaStreams(
                    LinkerTopology.build(
                            options.topics(),
                            registry,
                            settings,
                            (space, from, to, s) -> proposed.increment(),
                            content.content()),
                    StreamsProperties.streamsConfig(
                            options.bootstrapServers(),
                            options.stateDir(),
                            (short) -1,
                            options.applicationId(),
                            MemoryChainRuntime.Settings.defaultInstanceId()));
            AtomicLong reported = new AtomicLong();
            log.info(
                    "Linker starting: application {}, topics {} + {} -> {}, top-k {}, link-min {}, model {}",
                    options.applicationId(),
                    options.topics().events(),
                    options.topics().embeddings(),
                    options.topics().requests(),
                    settings.topK(),
                    settings.linkMin(),
                    settings.modelId());
            return StreamsJob.run(
                    "Linker",
                    streams,
                    () -> {
                        long total = proposed.sum();
                        log.info(
                                "Linker: {} link(s) proposed in the last minute, {} since start",
                                total - reported.getAndSet(total),
                                total);
                    },
                    () -> proposed.sum() + " link(s) proposed since start",
                    err);
        }
    }
}
