package io.memorychain.projector.refinement;

import static io.memorychain.projector.ChainHarness.ADMIN;
import static io.memorychain.projector.ChainHarness.AGENT;
import static org.assertj.core.api.Assertions.assertThat;

import io.memorychain.avro.ActorType;
import io.memorychain.avro.CreateMemory;
import io.memorychain.avro.MemoryEvent;
import io.memorychain.avro.MemoryOutcome;
import io.memorychain.avro.MemoryRequest;
import io.memorychain.avro.RefinementTrigger;
import io.memorychain.avro.StartRefinement;
import io.memorychain.avro.Tier;
import io.memorychain.events.Requests;
import io.memorychain.events.serde.AvroWireSerde;
import io.memorychain.projector.ChainHarness;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.UUID;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The refinement trigger on TopologyTestDriver, fed with the chain of the real sequencer ({@link ChainHarness}); its
 * requests are submitted back to that sequencer. Time is the harness clock; the schedule's punctuation is driven with
 * {@code advanceWallClockTime}, never by sleeping.
 */
class RefinementTriggerTopologyTest {

    private static final String SPACE = "acme-planner";
    private static final RefinementTriggerSettings SETTINGS =
            new RefinementTriggerSettings(60, 30, Duration.ofDays(7), Duration.ofMinutes(1), Duration.ofMinutes(10));

    private final ChainHarness h = new ChainHarness();
    private final List<String> triggered = new ArrayList<>();
    private final TopologyTestDriver driver = new TopologyTestDriver(
            RefinementTriggerTopology.build(
                    h.topics,
                    h.registry,
                    SETTINGS,
                    h.clock,
                    (space, trigger, id) -> triggered.add(space + " " + trigger)),
            props());
    private final TestInputTopic<byte[], byte[]> eventsIn =
            driver.createInputTopic(h.topics.events(), new ByteArraySerializer(), new ByteArraySerializer());
    private final TestOutputTopic<String, MemoryRequest> requestsOut = driver.createOutputTopic(
            h.topics.requests(), new StringDeserializer(), AvroWireSerde.forValues(h.registry, MemoryRequest.class));
    private final AvroWireSerde<MemoryEvent> eventSerde = AvroWireSerde.forValues(h.registry, MemoryEvent.class);
    private int piped;

    @AfterEach
    void close() {
        driver.close();
        h.close();
    }

    private static Properties props() {
        Properties p = new Properties();
        p.put(StreamsConfig.APPLICATION_ID_CONFIG, "trigger-" + UUID.randomUUID());
        p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
        java.nio.file.Path shm = java.nio.file.Path.of("/dev/shm");
        if (java.nio.file.Files.isDirectory(shm) && java.nio.file.Files.isWritable(shm)) {
            p.put(
                    StreamsConfig.STATE_DIR_CONFIG,
                    shm.resolve("memory-chain-trigger-test").toString());
        }
        return p;
    }

    /** Pipes the chain's new events into the trigger; returns the requests it published. */
    private List<MemoryRequest> sync() {
        List<MemoryEvent> chain = h.chain();
        for (; piped < chain.size(); piped++) {
            MemoryEvent e = chain.get(piped);
            eventsIn.pipeInput(
                    e.getSpace().getBytes(StandardCharsets.UTF_8), eventSerde.serialize(h.topics.events(), e));
        }
        return requestsOut.readValuesToList();
    }

    /** Pipes the new events, then lets the minutes pass; the requests published meanwhile. */
    private List<MemoryRequest> afterMinutes(long minutes) {
        List<MemoryRequest> published = new ArrayList<>(sync());
        h.advance(Duration.ofMinutes(minutes));
        driver.advanceWallClockTime(Duration.ofMinutes(minutes));
        published.addAll(sync());
        return published;
    }

    private void core(String space, String content) {
        MemoryOutcome o = h.submit(Requests.create(
                space,
                AGENT,
                CreateMemory.newBuilder().setContent(content).setTier(Tier.CORE).build()));
        assertThat(o.getAccepted()).as(o.getMessage()).isTrue();
    }

    private static String words(int n, String word) {
        return (word + " ").repeat(n).strip();
    }

    private String accept(MemoryRequest start) {
        MemoryOutcome o = h.submit(start);
        assertThat(o.getAccepted()).as(o.getMessage()).isTrue();
        return h.views.openRefinement(start.getSpace()).orElseThrow().getSessionId();
    }

    private void complete(String space, String session) {
        assertThat(h.submit(Requests.completeRefinement(space, AGENT, session, "done"))
                        .getAccepted())
                .isTrue();
    }

    @Test
    void startsATokenBudgetSessionWhenCoreMemoryGoesOverTheThreshold() {
        core(SPACE, words(20, "tea"));
        h.submit(Requests.create(SPACE, AGENT, words(200, "working")));
        assertThat(sync())
                .as("under the threshold; working memories do not count")
                .isEmpty();

        core(SPACE, words(50, "coffee"));
        List<MemoryRequest> published = sync();

        assertThat(published).singleElement().satisfies(r -> {
            assertThat(r.getActor()).isEqualTo(Requests.actor(ActorType.WORKER, "refinement"));
            assertThat(r.getRequestId()).isEqualTo("refine:budget:" + SPACE + ":3");
            StartRefinement op = (StartRefinement) r.getOp();
            assertThat(op.getTrigger()).isEqualTo(RefinementTrigger.TOKEN_BUDGET);
            assertThat(op.getTargetTokens()).isEqualTo(30);
            assertThat(op.getReason()).contains("over the threshold of 60");
        });
        assertThat(triggered).containsExactly(SPACE + " TOKEN_BUDGET");
        String session = accept(published.get(0));
        assertThat(h.views.openRefinement(SPACE).orElseThrow().getTrigger()).isEqualTo(RefinementTrigger.TOKEN_BUDGET);

        core(SPACE, words(30, "juice"));
        assertThat(sync()).as("a session is open").isEmpty();
        complete(SPACE, session);
        assertThat(sync())
                .as("a completed session is not restarted until core memory changes")
                .isEmpty();
        core(SPACE, words(5, "water"));
        assertThat(sync())
                .singleElement()
                .extracting(r -> ((StartRefinement) r.getOp()).getTrigger())
                .isEqualTo(RefinementTrigger.TOKEN_BUDGET);
    }

    @Test
    void anUnansweredStartIsNotRepeatedUntilItTimesOut() {
        core(SPACE, words(80, "tea"));
        assertThat(sync()).hasSize(1);
        core(SPACE, words(10, "coffee"));
        assertThat(sync()).as("the first start is pending").isEmpty();

        assertThat(afterMinutes(11)).isEmpty();
        core(SPACE, words(10, "juice"));
        assertThat(sync())
                .singleElement()
                .extracting(MemoryRequest::getRequestId)
                .isEqualTo("refine:budget:" + SPACE + ":3");
    }

    @Test
    void aSessionStartedByAnAdminIsNotStartedAgainByTheBudget() {
        core(SPACE, words(10, "tea"));
        core(SPACE, words(10, "tea"));
        sync();
        assertThat(h.submit(Requests.startRefinement(SPACE, ADMIN, RefinementTrigger.ADMIN, null))
                        .getAccepted())
                .isTrue();
        core(SPACE, words(80, "coffee"));
        assertThat(sync())
                .as("the duplicate cleanup and the later edit happen in an open session")
                .isEmpty();
    }

    @Test
    void startsAScheduledSessionAWeekAfterTheLastOne() {
        core(SPACE, "Likes tea");
        h.submit(Requests.create("working-only", AGENT, "nothing in core"));
        assertThat(sync()).isEmpty();
        assertThat(afterMinutes(Duration.ofDays(7).toMinutes() - 1))
                .as("six days and 23:59 after the first event")
                .isEmpty();

        List<MemoryRequest> due = afterMinutes(1);
        assertThat(due).as("only the space with core memories").singleElement().satisfies(r -> {
            assertThat(r.getSpace()).isEqualTo(SPACE);
            assertThat(((StartRefinement) r.getOp()).getTrigger()).isEqualTo(RefinementTrigger.SCHEDULE);
            assertThat(r.getRequestId()).startsWith("refine:schedule:" + SPACE + ":");
        });
        String session = accept(due.get(0));
        assertThat(afterMinutes(60)).as("open").isEmpty();
        complete(SPACE, session);
        assertThat(afterMinutes(Duration.ofDays(6).toMinutes()))
                .as("six days after the start")
                .isEmpty();
        List<MemoryRequest> next = afterMinutes(Duration.ofDays(1).toMinutes() - 60);
        assertThat(next)
                .singleElement()
                .satisfies(r ->
                        assertThat(r.getRequestId()).isNotEqualTo(due.get(0).getRequestId()));
    }

    @Test
    void aReplayedEventIsIgnored() {
        core(SPACE, words(10, "tea"));
        String session = accept(Requests.startRefinement(SPACE, ADMIN, RefinementTrigger.ADMIN, null)
                .build());
        complete(SPACE, session);
        assertThat(sync()).isEmpty();
        MemoryEvent started = h.chain().stream()
                .filter(e -> e.getPayload() instanceof io.memorychain.avro.RefinementStarted)
                .findFirst()
                .orElseThrow();
        eventsIn.pipeInput(SPACE.getBytes(StandardCharsets.UTF_8), eventSerde.serialize(h.topics.events(), started));

        core(SPACE, words(80, "coffee"));
        assertThat(sync())
                .as("the replayed start did not reopen the completed session")
                .singleElement()
                .extracting(r -> ((StartRefinement) r.getOp()).getTrigger())
                .isEqualTo(RefinementTrigger.TOKEN_BUDGET);
    }
}
