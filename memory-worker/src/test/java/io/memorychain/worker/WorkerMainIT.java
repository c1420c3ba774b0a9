package io.memorychain.worker;

import static org.assertj.core.api.Assertions.assertThat;

import io.memorychain.avro.MemoryEvent;
import io.memorychain.events.Topics;
import io.memorychain.events.chain.ChainKeys;
import io.memorychain.events.chain.ChainSealer;
import io.memorychain.events.serde.AvroWireSerde;
import io.memorychain.events.testing.InMemorySchemaRegistry;
import io.memorychain.events.testing.SharedKafka;
import io.memorychain.events.testing.TestChains;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code verify} end to end against a real broker (registry injected through the package-private seam, since the
 * registry clients live on another branch), and the shaded jar launched as operators will launch it.
 */
@ExtendWith(SharedKafka.class)
class WorkerMainIT {

    private static final InMemorySchemaRegistry REGISTRY = new InMemorySchemaRegistry();

    @TempDir
    static Path dir;

    private static Path keys;
    private static String intactPrefix;
    private static String forgedPrefix;

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    @BeforeAll
    static void publish() {
        ChainKeys signing = ChainKeys.loadOrCreate(dir.resolve("chain.key"));
        keys = dir.resolve("chain.key.pub");
        ChainSealer sealer = new ChainSealer(signing);
        intactPrefix = SharedKafka.uniquePrefix();
        forgedPrefix = SharedKafka.uniquePrefix();
        List<MemoryEvent> a = TestChains.sealedChain(sealer, "alice", 25);
        List<MemoryEvent> b = TestChains.sealedChain(sealer, "bob", 12);
        publish(intactPrefix, a, b);
        TestChains.memory(b.get(6)).setContent("bob never said that");
        publish(forgedPrefix, a, b);
    }

    @SafeVarargs
    private static void publish(String prefix, List<MemoryEvent>... chains) {
        String topic = Topics.withPrefix(prefix).events();
        SharedKafka.createTopics(2, topic);
        try (KafkaProducer<String, MemoryEvent> producer = new KafkaProducer<>(
                SharedKafka.clientProps(),
                new StringSerializer(),
                AvroWireSerde.forValues(REGISTRY, MemoryEvent.class))) {
            for (List<MemoryEvent> chain : chains) {
                for (MemoryEvent event : chain) {
                    producer.send(new ProducerRecord<>(topic, event.getSpace(), event));
                }
            }
        }
    }

    private int verify(String prefix, String... more) {
        List<String> args = new ArrayList<>(List.of(
                "verify",
                "--bootstrap-servers",
                SharedKafka.bootstrapServers(),
                "--keys",
                keys.toString(),
                "--topic-prefix",
                prefix));
        args.addAll(List.of(more));
        return new WorkerMain(spec -> REGISTRY)
                .run(
                        args.toArray(String[]::new),
                        new PrintStream(out, true, StandardCharsets.UTF_8),
                        new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    private List<String> outLines() {
        return out.toString(StandardCharsets.UTF_8).lines().toList();
    }

    @Test
    void verifiesOneIntactSpaceAndExitsWithZero() {
        assertThat(verify(intactPrefix, "--space", "alice")).isZero();
        assertThat(outLines()).containsExactly("OK space=alice events=25");
    }

    @Test
    void verifiesEverySpaceAndPrintsOneLineEach() {
        assertThat(verify(intactPrefix, "--all", "--signatures", "checkpoints", "--checkpoint-every", "10"))
                .isZero();
        assertThat(outLines()).containsExactly("OK space=alice events=25", "OK space=bob events=12");
        assertThat(err.toString(StandardCharsets.UTF_8))
                .contains("verified 2 space(s)")
                .contains("0 broken");
    }

    @Test
    void reportsTheForgedSeqAsBrokenAndExitsWithOne() {
        assertThat(verify(forgedPrefix, "--space", "bob")).isEqualTo(1);
        assertThat(outLines())
                .singleElement()
                .asString()
                .startsWith("BROKEN space=bob seq=7 problem=BAD_HASH stored hash ");
    }

    @Test
    void exitsWithOneWhenAnySpaceOfTheTopicIsBroken() {
        assertThat(verify(forgedPrefix, "--all")).isEqualTo(1);
        List<String> lines = outLines();
        assertThat(lines).hasSize(2);
        assertThat(lines.get(0)).isEqualTo("OK space=alice events=25");
        assertThat(lines.get(1)).startsWith("BROKEN space=bob seq=7 problem=BAD_HASH");
    }

    @Test
    void reportsEventsSignedByAKeyOutsideTheKeyFileAsUnknownKey() throws IOException {
        ChainKeys.loadOrCreate(dir.resolve("other.key"));
        keys = dir.resolve("other.key.pub");
        try {
            assertThat(verify(intactPrefix, "--space", "alice")).isEqualTo(1);
            assertThat(outLines())
                    .singleElement()
                    .asString()
                    .startsWith("BROKEN space=alice seq=1 problem=UNKNOWN_KEY");
        } finally {
            keys = dir.resolve("chain.key.pub");
        }
        assertThat(Files.exists(keys)).isTrue();
    }

    @Test
    void reportsAMissingTopicAsAnErrorWithTwo() {
        assertThat(verify(SharedKafka.uniquePrefix(), "--all")).isEqualTo(2);
        assertThat(err.toString(StandardCharsets.UTF_8))
                .contains("error: Topic")
                .contains("does not exist")
                .doesNotContain("\tat ");
        assertThat(outLines()).isEmpty();
    }

    // --- the shaded jar, in a child JVM started without -Dorg.apache.avro.SERIALIZABLE_PACKAGES ---

    private record Run(int status, String out, String err) {}

    private static Run java(String... args) throws Exception {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(List.of(args));
        Path stdout = Files.createTempFile(dir, "out", ".txt");
        Path stderr = Files.createTempFile(dir, "err", ".txt");
        Process process = new ProcessBuilder(command)
                .redirectOutput(stdout.toFile())
                .redirectError(stderr.toFile())
                .start();
        if (!process.waitFor(60, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new AssertionError("child JVM did not finish: " + command);
        }
        return new Run(process.exitValue(), Files.readString(stdout), Files.readString(stderr));
    }

    private static String jar() {
        Path jar = Path.of(System.getProperty("worker.jar"));
        assertThat(jar).exists();
        return jar.toString();
    }

    @Test
    void shadedJarRunsItsMainClassAndReportsUsageErrorsWithTwo() throws Exception {
        Run help = java("-jar", jar(), "--help");
        Run usage = java("-jar", jar(), "verify", "--all");

        assertThat(help.status()).as(help.err()).isZero();
        assertThat(help.out()).contains("verify --bootstrap-servers HOST:PORT --keys FILE.pub");
        assertThat(usage.status()).isEqualTo(2);
        assertThat(usage.err())
                .contains("error: --bootstrap-servers is required")
                .doesNotContain("Exception");
    }

    @Test
    void mainAllowsGeneratedAvroClassesWithoutTheCommandLineProperty() throws Exception {
        String classpath = jar() + java.io.File.pathSeparator + System.getProperty("worker.test.classes");

        Run allowed = java("-cp", classpath, AvroAllowListProbe.class.getName(), "allow");
        Run refused = java("-cp", classpath, AvroAllowListProbe.class.getName());

        assertThat(allowed.status()).as(allowed.err()).isZero();
        assertThat(allowed.out()).contains("decoded seq=7");
        assertThat(refused.status())
                .as("without the property Avro refuses the generated class")
                .isNotZero();
        assertThat(refused.err()).contains("Forbidden").contains("io.memorychain.avro");
    }
}
