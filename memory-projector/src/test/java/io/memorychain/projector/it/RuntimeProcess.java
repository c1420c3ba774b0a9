package io.memorychain.projector.it;

import io.memorychain.domain.decide.WriteSettings;
import io.memorychain.events.Topics;
import io.memorychain.events.chain.ChainKeys;
import io.memorychain.events.registry.KafkaTopicSchemaRegistry;
import io.memorychain.projector.MemoryChainRuntime;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;

/**
 * The sequencer and projection in their own JVM, for crash tests: {@code bootstrap topicPrefix stateDir keyFile}.
 * Prints READY once both Streams applications run, then runs until killed. No embedder: the ONNX runtime crashed
 * (SIGSEGV) in a JVM started from the failsafe JVM, so the projection here indexes without a model.
 */
public final class RuntimeProcess {

    private RuntimeProcess() {}

    /** Starts a runtime JVM on the shared broker and waits for its READY line. */
    static Process start(String prefix, Path state, Path keyFile) throws java.io.IOException {
        Path log = java.nio.file.Files.createTempFile("runtime", ".log");
        java.util.List<String> command = new java.util.ArrayList<>(java.util.List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx512m",
                "-XX:TieredStopAtLevel=1",
                "-XX:+UseSerialGC",
                "-Dorg.apache.avro.SERIALIZABLE_PACKAGES=io.memorychain.avro",
                "-cp",
                System.getProperty("java.class.path"),
                RuntimeProcess.class.getName(),
                io.memorychain.events.testing.SharedKafka.bootstrapServers(),
                prefix,
                state.toString(),
                keyFile.toString()));
        Process p = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
        org.awaitility.Awaitility.await()
                .atMost(Duration.ofSeconds(120))
                .pollInterval(Duration.ofMillis(200))
                .until(() -> {
                    if (!p.isAlive()) {
                        throw new IllegalStateException(
                                "runtime exited early (exit code " + p.exitValue() + "); see " + log);
                    }
                    return java.nio.file.Files.readString(log).lines().anyMatch("READY"::equals);
                });
        return p;
    }

    public static void main(String[] args) throws InterruptedException {
        String bootstrap = args[0];
        Topics topics = Topics.withPrefix(args[1]);
        KafkaTopicSchemaRegistry registry = new KafkaTopicSchemaRegistry(bootstrap, topics.schemas(), (short) 1);
        ChainKeys keys = ChainKeys.loadOrCreate(Path.of(args[3]));
        MemoryChainRuntime.start(
                new MemoryChainRuntime.Settings(
                        bootstrap, topics, Path.of(args[2]), args[1] + "app", 3, (short) 1, WriteSettings.defaults()),
                registry,
                keys,
                null,
                Duration.ofSeconds(90));
        System.out.println("READY");
        System.out.flush();
        new CountDownLatch(1).await();
    }
}
