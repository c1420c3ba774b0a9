package io.memorychain.worker;

import static org.assertj.core.api.Assertions.assertThat;

import io.memorychain.avro.Actor;
import io.memorychain.avro.ActorType;
import io.memorychain.avro.MemoryOutcome;
import io.memorychain.avro.MemoryRequest;
import io.memorychain.domain.decide.WriteSettings;
import io.memorychain.events.Requests;
import io.memorychain.events.Topics;
import io.memorychain.events.chain.ChainKeys;
import io.memorychain.events.content.ChainContent;
import io.memorychain.events.content.MasterKey;
import io.memorychain.events.publish.MemoryPublisher;
import io.memorychain.events.registry.KafkaTopicSchemaRegistry;
import io.memorychain.events.registry.SchemaRegistry;
import io.memorychain.events.testing.SharedKafka;
import io.memorychain.projector.MemoryChainRuntime;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The ops commands {@code memory-worker rollback} and {@code erase} on a real broker next to the real sequencer and
 * projection (texts encrypted, as the service writes them): dry run, then apply. One runtime, one space per test.
 */
@Tag("integration")
@ExtendWith(SharedKafka.class)
@Timeout(value = 4, unit = TimeUnit.MINUTES)
class OpsCommandsIT {

    private static final Actor AGENT = Requests.actor(ActorType.AGENT, "planner");

    @TempDir
    static Path dir;

    private static String prefix;
    private static SchemaRegistry registry;
    private static MemoryChainRuntime runtime;
    private static MemoryPublisher publisher;

    @BeforeAll
    static void start() {
        prefix = SharedKafka.uniquePrefix();
        Topics topics = Topics.withPrefix(prefix);
        registry = new KafkaTopicSchemaRegistry(SharedKafka.bootstrapServers(), topics.schemas(), (short) 1);
        runtime = MemoryChainRuntime.start(
                new MemoryChainRuntime.Settings(
                        SharedKafka.bootstrapServers(),
                        topics,
                        dir.resolve("runtime"),
                        prefix + "app",
                        2,
                        (short) 1,
                        WriteSettings.defaults()),
                registry,
                ChainKeys.generate(),
                null,
                null,
                Duration.ofSeconds(90),
                MasterKey.loadOrCreate(contentKey()));
        publisher = new MemoryPublisher(SharedKafka.bootstrapServers(), topics, registry);
    }

    private static Path contentKey() {
        return dir.resolve("keys").resolve(MasterKey.FILE_NAME);
    }

    @AfterAll
    static void stop() {
        for (AutoCloseable c : new AutoCloseable[] {publisher, runtime, registry}) {
            try {
                if (c != null) {
                    c.close();
                }
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }
    }

    @Test
    void rollbackPrintsThePlanPublishesNothingOnADryRunThenAppliesIt() throws Exception {
        String space = "ops.rollback";
        String id = write(
                        publisher,
                        runtime,
                        Requests.create(space, AGENT, "the backup runs at 2am").build())
                .getMemoryId();
        write(
                publisher,
                runtime,
                Requests.updateContent(space, AGENT, id, "the backup never runs")
                        .build());
        String late = write(
                        publisher,
                        runtime,
                        Requests.create(space, AGENT, "backups are optional").build())
                .getMemoryId();
        List<String> withoutKey = List.of(
                "rollback",
                "--bootstrap-servers",
                SharedKafka.bootstrapServers(),
                "--topic-prefix",
                prefix,
                "--space",
                space,
                "--to-seq",
                "1");
        Run blind = run(concat(withoutKey, "--reason", "wrong edits", "--apply"));
        assertThat(blind.status).as("no ciphertext restored as text").isEqualTo(2);
        assertThat(blind.err).contains("the chain's texts are encrypted", "--content-key-file");
        assertThat(runtime.views().appliedSeq(space)).isEqualTo(3);
        List<String> base =
                concat(withoutKey, "--content-key-file", contentKey().toString());

        Run dry = run(base);

        assertThat(dry.status).as(dry.err).isZero();
        assertThat(dry.out)
                .contains(
                        "PLAN space=ops.rollback scope=space target_seq=1 head_seq=3",
                        "RESTORE " + id
                                + " v2 active -> active \"the backup never runs\" -> \"the backup runs at 2am\" "
                                + "[MemoryUpdated]",
                        "DELETE  " + late,
                        "2 memories, 0 edge(s); 3 event(s) replayed",
                        "DRY RUN: nothing published");
        assertThat(dry.err).containsPattern("read 0/(\\d+) offsets\n(.*\n)*read (\\1)/\\1 offsets");
        assertThat(runtime.views().appliedSeq(space)).isEqualTo(3);

        Run applied = run(concat(base, "--reason", "wrong edits", "--apply", "--admin", "alice"));

        assertThat(applied.status).as(applied.out + applied.err).isZero();
        assertThat(applied.out).contains("APPLIED space=ops.rollback seq=6");
        assertThat(runtime.views().awaitApplied(space, 6, Duration.ofSeconds(30)))
                .isTrue();
        assertThat(runtime.views().memory(space, id).orElseThrow().getContent()).isEqualTo("the backup runs at 2am");
        assertThat(runtime.views().audit(space, 3, 1).get(0).getActor())
                .isEqualTo(Requests.actor(ActorType.ADMIN, "alice"));

        Run again = run(concat(base, "--reason", "again", "--apply"));
        assertThat(again.out).contains("0 memories, 0 edge(s)", "NOTHING TO ROLL BACK");
    }

    @Test
    void eraseShowsTheMemoryWithoutItsTextThenErasesItOnce() throws Exception {
        String space = "ops.erase";
        String id = write(
                        publisher,
                        runtime,
                        Requests.create(space, AGENT, "Bo's home address is 12 Elm Road")
                                .build())
                .getMemoryId();
        String kept = write(
                        publisher,
                        runtime,
                        Requests.create(space, AGENT, "Bo likes chess").build())
                .getMemoryId();
        List<String> base = List.of(
                "erase",
                "--bootstrap-servers",
                SharedKafka.bootstrapServers(),
                "--topic-prefix",
                prefix,
                "--space",
                space,
                "--memory",
                id);

        Run dry = run(base);

        assertThat(dry.status).as(dry.err).isZero();
        assertThat(dry.out)
                .contains(
                        "MEMORY space=ops.erase id=" + id + " state=active version=1",
                        "first_seq=1 last_seq=1 (texts not shown)",
                        "DRY RUN: nothing published")
                .doesNotContain("Elm");
        assertThat(dry.err).contains("read 0/");
        assertThat(runtime.views().appliedSeq(space)).as("nothing published").isEqualTo(2);
        assertThat(run(concat(base, "--apply")).err).contains("--apply needs --reason");

        Run erased = run(concat(base, "--reason", "the user's request of 2026-11-27", "--apply", "--admin", "dpo"));

        assertThat(erased.status).as(erased.out + erased.err).isZero();
        assertThat(erased.out)
                .contains(
                        "ERASED space=ops.erase memory=" + id + " seq=3 request_id=erase:ops.erase:" + id,
                        "/v1/spaces/ops.erase/memories/" + id + "/erasure");
        assertThat(runtime.views().awaitApplied(space, 3, Duration.ofSeconds(30)))
                .isTrue();
        assertThat(runtime.views().memory(space, id).orElseThrow().getContent()).isEqualTo(ChainContent.ERASED);
        assertThat(runtime.views().memory(space, kept).orElseThrow().getContent())
                .isEqualTo("Bo likes chess");
        assertThat(runtime.views().audit(space, 2, 1).get(0).getActor())
                .isEqualTo(Requests.actor(ActorType.ADMIN, "dpo"));

        Run again = run(concat(base, "--reason", "again", "--apply"));
        assertThat(again.status).isZero();
        assertThat(again.out).contains("ALREADY ERASED at seq 3");
        assertThat(runtime.views().appliedSeq(space)).as("erased once").isEqualTo(3);

        Run unknown = run(List.of(
                "erase",
                "--bootstrap-servers",
                SharedKafka.bootstrapServers(),
                "--topic-prefix",
                prefix,
                "--space",
                space,
                "--memory",
                "m0000zzzabcd"));
        assertThat(unknown.status).isEqualTo(2);
        assertThat(unknown.err).contains("no memory m0000zzzabcd on the chain of space ops.erase");
    }

    private record Run(int status, String out, String err) {}

    private static Run run(List<String> args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status = new WorkerMain(WorkerMain::openRegistry)
                .run(
                        args.toArray(String[]::new),
                        new PrintStream(out, true, StandardCharsets.UTF_8),
                        new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Run(status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    private static List<String> concat(List<String> base, String... more) {
        return java.util.stream.Stream.concat(base.stream(), java.util.Arrays.stream(more))
                .toList();
    }

    private static MemoryOutcome write(MemoryPublisher publisher, MemoryChainRuntime runtime, MemoryRequest request)
            throws Exception {
        MemoryOutcome outcome = publisher.publish(request).get(60, TimeUnit.SECONDS);
        assertThat(outcome.getAccepted()).as(outcome.getMessage()).isTrue();
        assertThat(runtime.views().awaitApplied(request.getSpace(), outcome.getSeq(), Duration.ofSeconds(30)))
                .isTrue();
        return outcome;
    }
}
