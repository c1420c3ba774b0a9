package io.memorychain.worker;

import io.memorychain.events.Topics;
import io.memorychain.events.chain.KafkaChainReader;
import io.memorychain.events.chain.KeyRing;
import io.memorychain.events.chain.SignatureMode;
import io.memorychain.events.chain.VerificationResult;
import io.memorychain.events.registry.SchemaRegistry;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.clients.consumer.ConsumerConfig;

/**
 * {@code verify}: walks one space's chain, or every space's, from the events topic and prints one line per space,
 * {@code OK space=S events=N} or {@code BROKEN space=S seq=N problem=P message}, then a {@code SUSPECT} line per range
 * of events signed by a key marked compromised on that chain (docs/architecture.md §4).
 */
final class VerifyCommand {

    static final String USAGE = """
            verify --bootstrap-servers HOST:PORT --keys FILE.pub (--space S | --all)
                   [--registry-url URL | --registry-topic TOPIC] [--topic-prefix P]
                   [--signatures all|checkpoints] [--checkpoint-every N]

              Verifies the signed hash chain of one space (--space) or of every space (--all) in the events topic
              (<prefix>memory.events.v1) and reports the first bad seq of each broken chain.

              --bootstrap-servers  Kafka cluster to read
              --keys               public keys, lines of '<key id> <hex public key>' (the .pub file next to the
                                   sequencer's signing key)
              --registry-url       schema registry speaking the Confluent REST API
              --registry-topic     the embedded registry's topic (default: <prefix>_memory_schemas)
              --topic-prefix       prefix of the topic names (default: none)
              --signatures         all: check every signature (default); checkpoints: check hashes and links of
                                   every event but signatures only every N-th seq and on the last event
              --checkpoint-every   N for --signatures checkpoints (default 1000)

              Prints OK space=S events=N or BROKEN space=S seq=N problem=PROBLEM message, one line per space,
              each followed by a line SUSPECT space=S key=K seqs=A..B trusted_up_to=T marked_at=M per range of
              events signed by a key marked compromised on that chain (suspects are not a break).
              Exit status: 0 all verified chains intact, 1 a chain is broken, 2 usage error or verification could
              not run.""";

    static final int DEFAULT_CHECKPOINT_EVERY = 1000;

    /**
     * Parsed arguments of {@code verify}.
     *
     * @param space null to verify every space
     */
    record Options(
            String bootstrapServers,
            Path keys,
            String space,
            RegistrySpec registry,
            Topics topics,
            SignatureMode signatures) {

        boolean all() {
            return space == null;
        }
    }

    private VerifyCommand() {}

    static Options parse(List<String> args) throws UsageException {
        Map<String, String> values = CommandLine.parse(
                args,
                Set.of(
                        "--bootstrap-servers",
                        "--keys",
                        "--space",
                        "--registry-url",
                        "--registry-topic",
                        "--topic-prefix",
                        "--signatures",
                        "--checkpoint-every"),
                Set.of("--all"));
        String bootstrap = CommandLine.required(values, "--bootstrap-servers", "");
        Path keys = Path.of(CommandLine.required(values, "--keys", " (the public key file, e.g. chain.key.pub)"));
        if (!Files.isReadable(keys) || Files.isDirectory(keys)) {
            throw new UsageException("--keys: cannot read " + keys);
        }
        String space = values.get("--space");
        if (values.containsKey("--all") == (space != null)) {
            throw new UsageException("give exactly one of --space S and --all");
        }
        Topics topics = CommandLine.topics(values);
        return new Options(
                bootstrap, keys, space, CommandLine.registry(values, bootstrap, topics), topics, signatureMode(values));
    }

    private static SignatureMode signatureMode(Map<String, String> values) throws UsageException {
        String mode = values.getOrDefault("--signatures", "all");
        String every = values.get("--checkpoint-every");
        switch (mode) {
            case "all" -> {
                if (every != null) {
                    throw new UsageException("--checkpoint-every needs --signatures checkpoints");
                }
                return SignatureMode.ALL;
            }
            case "checkpoints" -> {
                if (every == null) {
                    return SignatureMode.checkpoints(DEFAULT_CHECKPOINT_EVERY);
                }
                try {
                    int n = Integer.parseInt(every);
                    if (n < 1) {
                        throw new NumberFormatException();
                    }
                    return SignatureMode.checkpoints(n);
                } catch (NumberFormatException e) {
                    throw new UsageException("--checkpoint-every must be a positive whole number, not '" + every + "'");
                }
            }
            default -> throw new UsageException("--signatures must be 'all' or 'checkpoints', not '" + mode + "'");
        }
    }

    /** Runs the verification; returns the exit status. Failures to run at all propagate as exceptions. */
    static int run(Options options, RegistryFactory registries, PrintStream out, PrintStream err)
            throws UsageException {
        KeyRing keys;
        try {
            keys = KeyRing.read(options.keys());
        } catch (RuntimeException e) {
            throw new UsageException("--keys: " + options.keys() + " is not a public key file of lines '<key id> <hex "
                    + "public key>' (" + WorkerMain.describe(e) + ")");
        }
        if (keys.asHex().isEmpty()) {
            throw new UsageException("--keys: no public key in " + options.keys());
        }
        Map<String, Object> consumerConfig =
                Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, options.bootstrapServers());
        String topic = options.topics().events();
        try (SchemaRegistry registry = registries.open(options.registry())) {
            KafkaChainReader reader = new KafkaChainReader(consumerConfig, topic, registry, keys, options.signatures());
            if (!options.all()) {
                VerificationResult result = reader.verifySpace(options.space());
                out.println(line(options.space(), result));
                if (result.ok() && result.events() == 0) {
                    err.println("note: no events of space '" + options.space() + "' in " + topic);
                }
                return result.ok() ? WorkerMain.EXIT_OK : WorkerMain.EXIT_BROKEN;
            }
            Map<String, VerificationResult> results = reader.verifyAll();
            long events = 0;
            int broken = 0;
            for (Map.Entry<String, VerificationResult> entry : results.entrySet()) {
                out.println(line(entry.getKey(), entry.getValue()));
                events += entry.getValue().events();
                broken += entry.getValue().ok() ? 0 : 1;
            }
            err.println("verified " + results.size() + " space(s) in " + topic + ", " + events + " event(s), " + broken
                    + " broken");
            return broken == 0 ? WorkerMain.EXIT_OK : WorkerMain.EXIT_BROKEN;
        }
    }

    /** The verdict's line, then one SUSPECT line per range of events a compromised key signed after its mark. */
    static String line(String space, VerificationResult result) {
        StringBuilder out = new StringBuilder(
                result.ok()
                        ? "OK space=" + space + " events=" + result.events()
                        : "BROKEN space=" + space + " seq=" + result.firstBadSeq() + " problem=" + result.problem()
                                + " " + result.message());
        for (io.memorychain.events.chain.SuspectRange s : result.suspects()) {
            out.append(System.lineSeparator())
                    .append("SUSPECT space=")
                    .append(space)
                    .append(" key=")
                    .append(s.keyId())
                    .append(" seqs=")
                    .append(s.fromSeq())
                    .append("..")
                    .append(s.toSeq())
                    .append(" trusted_up_to=")
                    .append(s.trustedUpTo())
                    .append(" marked_at=")
                    .append(s.markedAtSeq());
        }
        return out.toString();
    }
}
