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
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** {@code memory-worker rollback} on a real broker next to the real sequencer and projection: dry run, then apply. */
@Tag("integration")
@ExtendWith(SharedKafka.class)
@Timeout(value = 4, unit = TimeUnit.MINUTES)
class RollbackCommandIT {

    private static final Actor AGENT = Requests.actor(ActorType.AGENT, "planner");

    @TempDir
    Path dir;

    @Test
    void printsThePlanPublishesNothingOnADryRunThenAppliesIt() throws Exception {
        String prefix = SharedKafka.uniquePrefix();
        Topics topics = Topics.withPrefix(prefix);
        String space = "ops.rollback";
        try (SchemaRegistry registry = new KafkaTopicSchemaRegistry(SharedKafka.bootstrapServers(), topics.schemas(),
                (short) 1);
             MemoryChainRuntime runtime = MemoryChainRuntime.start(new MemoryChainRuntime.Settings(
                     SharedKafka.bootstrapServers(), topics, dir.resolve("runtime"), prefix + "app", 2, (short) 1,
                     WriteSettings.defaults()), registry, ChainKeys.generate(), null, Duration.ofSeconds(90));
             MemoryPublisher publisher = new MemoryPublisher(SharedKafka.bootstrapServers(), topics, registry)) {
            String id = write(publisher, runtime, Requests.create(space, AGENT, "the backup runs at 2am").build())
                    .getMemoryId();
            write(publisher, runtime, Requests.updateContent(space, AGENT, id, "the backup never runs").build());
            String late = write(publisher, runtime, Requests.create(space, AGENT, "backups are optional").build())
                    .getMemoryId();
            List<String> base = List.of("rollback", "--bootstrap-servers", SharedKafka.bootstrapServers(),
                    "--topic-prefix", prefix, "--space", space, "--to-seq", "1");

            Run dry = run(base);

            assertThat(dry.status).as(dry.err).isZero();
            assertThat(dry.out).contains("PLAN space=ops.rollback scope=space target_seq=1 head_seq=3",
                    "RESTORE " + id + " v2 active -> active \"the backup never runs\" -> \"the backup runs at 2am\" "
                            + "[MemoryUpdated]",
                    "DELETE  " + late, "2 memories, 0 edge(s); 3 event(s) replayed", "DRY RUN: nothing published");
            assertThat(dry.err).containsPattern("read 0/(\\d+) offsets\n(.*\n)*read (\\1)/\\1 offsets");
            assertThat(runtime.views().appliedSeq(space)).isEqualTo(3);

            Run applied = run(concat(base, "--reason", "wrong edits", "--apply", "--admin", "alice"));

            assertThat(applied.status).as(applied.out + applied.err).isZero();
            assertThat(applied.out).contains("APPLIED space=ops.rollback seq=6");
            assertThat(runtime.views().awaitApplied(space, 6, Duration.ofSeconds(30))).isTrue();
            assertThat(runtime.views().memory(space, id).orElseThrow().getContent()).isEqualTo("the backup runs at 2am");
            assertThat(runtime.views().audit(space, 3, 1).get(0).getActor()).isEqualTo(
                    Requests.actor(ActorType.ADMIN, "alice"));

            Run again = run(concat(base, "--reason", "again", "--apply"));
            assertThat(again.out).contains("0 memories, 0 edge(s)", "NOTHING TO ROLL BACK");
        }
    }

    private record Run(int status, String out, String err) {
    }

    private static Run run(List<String> args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status = new WorkerMain(WorkerMain::openRegistry).run(args.toArray(String[]::new),
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Run(status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    private static List<String> concat(List<String> base, String... more) {
        return java.util.stream.Stream.concat(base.stream(), java.util.Arrays.stream(more)).toList();
    }

    private static MemoryOutcome write(MemoryPublisher publisher, MemoryChainRuntime runtime, MemoryRequest request)
            throws Exception {
        MemoryOutcome outcome = publisher.publish(request).get(60, TimeUnit.SECONDS);
        assertThat(outcome.getAccepted()).as(outcome.getMessage()).isTrue();
        assertThat(runtime.views().awaitApplied(request.getSpace(), outcome.getSeq(), Duration.ofSeconds(30))).isTrue();
        return outcome;
    }
}
