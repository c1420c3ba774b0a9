package io.memorychain.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.memorychain.avro.ActorType;
import io.memorychain.avro.MemoryOutcome;
import io.memorychain.avro.view.Relation;
import io.memorychain.domain.decide.WriteSettings;
import io.memorychain.events.Requests;
import io.memorychain.events.Topics;
import io.memorychain.events.chain.ChainKeys;
import io.memorychain.events.publish.MemoryPublisher;
import io.memorychain.events.registry.KafkaTopicSchemaRegistry;
import io.memorychain.events.registry.SchemaRegistry;
import io.memorychain.events.testing.SharedKafka;
import io.memorychain.projector.MemoryChainRuntime;
import io.memorychain.projector.SharedEmbedder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The linker as operators run it (the shaded jar's {@code link} command in a child JVM) next to the sequencer,
 * projection and embedder on a real broker: two related memories get a related_to edge, an unrelated one none, and
 * SIGTERM stops the linker cleanly.
 */
@Tag("integration")
@ExtendWith(SharedKafka.class)
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class LinkerIT {

    @TempDir
    Path dir;

    @Test
    void linksARelatedMemoryButNotAnUnrelatedOneAndStopsCleanlyOnSigterm() throws Exception {
        String prefix = SharedKafka.uniquePrefix();
        Topics topics = Topics.withPrefix(prefix);
        MemoryChainRuntime.Settings settings = new MemoryChainRuntime.Settings(
                SharedKafka.bootstrapServers(),
                topics,
                dir.resolve("runtime"),
                prefix + "app",
                2,
                (short) 1,
                WriteSettings.defaults());
        String space = "tenant.agent";
        try (SchemaRegistry registry =
                        new KafkaTopicSchemaRegistry(SharedKafka.bootstrapServers(), topics.schemas(), (short) 1);
                MemoryChainRuntime runtime = MemoryChainRuntime.start(
                        settings, registry, ChainKeys.generate(), SharedEmbedder.get(), Duration.ofSeconds(90));
                MemoryPublisher publisher = new MemoryPublisher(SharedKafka.bootstrapServers(), topics, registry)) {
            Process linker = startLinker(prefix);
            try {
                String allergy = create(publisher, space, "Alice is allergic to peanuts.");
                String berlin = create(publisher, space, "The user lives in Berlin.");
                String paraphrase = create(publisher, space, "Alice has a peanut allergy.");

                await().atMost(Duration.ofSeconds(120))
                        .ignoreExceptions()
                        .untilAsserted(() -> assertThat(runtime.views().relations(space, allergy))
                                .singleElement()
                                .satisfies(r -> {
                                    assertThat(r.getFromId()).isEqualTo(paraphrase);
                                    assertThat(r.getRelationType()).isEqualTo("related_to");
                                    assertThat(r.getStrength()).isGreaterThan(0.85);
                                }));
                assertThat(runtime.views().relations(space, paraphrase))
                        .extracting(Relation::getToId)
                        .containsExactly(allergy);
                assertThat(runtime.views().relations(space, berlin))
                        .as("processed before the paraphrase")
                        .isEmpty();
            } finally {
                linker.destroy(); // SIGTERM
                assertThat(linker.waitFor(60, TimeUnit.SECONDS))
                        .as("linker stops on SIGTERM")
                        .isTrue();
            }
            String log = Files.readString(dir.resolve("linker.err"));
            assertThat(log)
                    .contains("Linker starting")
                    .contains("Linker stopped cleanly: 1 link(s) proposed")
                    .doesNotContain("ERROR");
        }
    }

    private static String create(MemoryPublisher publisher, String space, String content) throws Exception {
        MemoryOutcome outcome = publisher
                .publish(Requests.create(space, Requests.actor(ActorType.AGENT, "planner"), content)
                        .build())
                .get(60, TimeUnit.SECONDS);
        assertThat(outcome.getAccepted()).as("%s", outcome).isTrue();
        return outcome.getMemoryId();
    }

    private Process startLinker(String prefix) throws Exception {
        Path jar = Path.of(System.getProperty("worker.jar"));
        assertThat(jar).exists();
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx512m",
                "-XX:TieredStopAtLevel=1",
                "-XX:+UseSerialGC",
                "-Djava.io.tmpdir=" + dir,
                "-jar",
                jar.toString(),
                "link",
                "--bootstrap-servers",
                SharedKafka.bootstrapServers(),
                "--topic-prefix",
                prefix,
                "--application-id",
                prefix + "linker",
                "--state-dir",
                dir.resolve("linker-state").toString()));
        return new ProcessBuilder(command)
                .redirectOutput(dir.resolve("linker.out").toFile())
                .redirectError(dir.resolve("linker.err").toFile())
                .start();
    }
}
