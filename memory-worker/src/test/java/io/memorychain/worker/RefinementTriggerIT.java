package io.memorychain.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.memorychain.avro.Actor;
import io.memorychain.avro.ActorType;
import io.memorychain.avro.CreateMemory;
import io.memorychain.avro.MemoryOutcome;
import io.memorychain.avro.RefinementTrigger;
import io.memorychain.avro.Tier;
import io.memorychain.avro.view.RefinementSession;
import io.memorychain.domain.decide.WriteSettings;
import io.memorychain.events.Requests;
import io.memorychain.events.Topics;
import io.memorychain.events.chain.ChainKeys;
import io.memorychain.events.publish.MemoryPublisher;
import io.memorychain.events.registry.KafkaTopicSchemaRegistry;
import io.memorychain.events.registry.SchemaRegistry;
import io.memorychain.events.testing.SharedKafka;
import io.memorychain.projector.MemoryChainRuntime;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.streams.KafkaStreams;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The {@code refine} job's Streams application next to the real sequencer and projection on a real broker: a space
 * whose core memory goes over the threshold gets a TOKEN_BUDGET session, a small space gets a SCHEDULE session once the
 * job's clock (injected, moved forward: no sleeping) is a week past its first event.
 */
@Tag("integration")
@ExtendWith(SharedKafka.class)
@Timeout(value = 4, unit = TimeUnit.MINUTES)
class RefinementTriggerIT {

    private static final Actor AGENT = Requests.actor(ActorType.AGENT, "planner");

    @TempDir
    Path dir;

    @Test
    void startsABudgetSessionOverTheThresholdAndAScheduledOneAWeekLater() throws Exception {
        String prefix = SharedKafka.uniquePrefix();
        Topics topics = Topics.withPrefix(prefix);
        MovableClock clock = new MovableClock();
        List<String> triggered = new CopyOnWriteArrayList<>();
        RefineCommand.Options options = RefineCommand.parse(List.of(
                "--bootstrap-servers",
                SharedKafka.bootstrapServers(),
                "--topic-prefix",
                prefix,
                "--application-id",
                prefix + "refine",
                "--state-dir",
                dir.resolve("trigger").toString(),
                "--threshold-tokens",
                "30",
                "--target-tokens",
                "20",
                "--check-interval",
                "PT0.2S"));
        try (SchemaRegistry registry =
                        new KafkaTopicSchemaRegistry(SharedKafka.bootstrapServers(), topics.schemas(), (short) 1);
                MemoryChainRuntime runtime = MemoryChainRuntime.start(
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
                        Duration.ofSeconds(90));
                MemoryPublisher publisher = new MemoryPublisher(SharedKafka.bootstrapServers(), topics, registry);
                KafkaStreams trigger = RefineCommand.streams(
                        options, registry, clock, (space, t, id) -> triggered.add(space + " " + t))) {
            trigger.start();
            String big = "tenant.big";
            String small = "tenant.small";
            core(publisher, small, "Prefers tea");
            core(publisher, big, "Walks daily");
            core(
                    publisher,
                    big,
                    "The user keeps a detailed diary of every walk, every route and every weather change; "
                            + "the user also logs each coffee, each bakery visited and each train taken, with times");

            RefinementSession budget = await().atMost(Duration.ofSeconds(90))
                    .until(() -> runtime.views().openRefinement(big).orElse(null), s -> s != null);
            assertThat(budget.getTrigger()).isEqualTo(RefinementTrigger.TOKEN_BUDGET);
            assertThat(budget.getTargetTokens()).isEqualTo(20);
            assertThat(budget.getCoreTokens()).isGreaterThan(30);
            assertThat(budget.getStartedBy()).isEqualTo(Requests.actor(ActorType.WORKER, "refinement"));
            assertThat(runtime.views().openRefinement(small))
                    .as("under the threshold")
                    .isEmpty();

            clock.advance(Duration.ofDays(7).plusMinutes(1));
            RefinementSession scheduled = await().atMost(Duration.ofSeconds(90))
                    .until(() -> runtime.views().openRefinement(small).orElse(null), s -> s != null);
            assertThat(scheduled.getTrigger()).isEqualTo(RefinementTrigger.SCHEDULE);
            assertThat(scheduled.getLedgerSize()).isEqualTo(1);
            assertThat(triggered).containsExactly(big + " TOKEN_BUDGET", small + " SCHEDULE");
            assertThat(runtime.views().refinements(big))
                    .as("no second session while the first is open")
                    .hasSize(1);
        }
    }

    private static void core(MemoryPublisher publisher, String space, String content) throws Exception {
        MemoryOutcome o = publisher
                .publish(Requests.create(
                                space,
                                AGENT,
                                CreateMemory.newBuilder()
                                        .setContent(content)
                                        .setTier(Tier.CORE)
                                        .build())
                        .build())
                .get(60, TimeUnit.SECONDS);
        assertThat(o.getAccepted()).as("%s", o).isTrue();
    }
}
