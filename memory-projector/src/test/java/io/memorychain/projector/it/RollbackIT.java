package io.memorychain.projector.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.memorychain.avro.Actor;
import io.memorychain.avro.ActorType;
import io.memorychain.avro.CreateMemory;
import io.memorychain.avro.Memory;
import io.memorychain.avro.MemoryEvent;
import io.memorychain.avro.MemoryKind;
import io.memorychain.avro.MemoryOutcome;
import io.memorychain.avro.MemoryRequest;
import io.memorychain.avro.MemoryState;
import io.memorychain.avro.RefinementTrigger;
import io.memorychain.avro.RollbackApplied;
import io.memorychain.avro.Tier;
import io.memorychain.domain.core.CoreFormatter;
import io.memorychain.domain.decide.InMemoryWriteModel;
import io.memorychain.domain.decide.WriteModelEvolution;
import io.memorychain.domain.decide.WriteSettings;
import io.memorychain.domain.rollback.RollbackPlan;
import io.memorychain.domain.rollback.RollbackSpec;
import io.memorychain.events.Requests;
import io.memorychain.events.Topics;
import io.memorychain.events.chain.ChainKeys;
import io.memorychain.events.chain.KafkaChainReader;
import io.memorychain.events.chain.SignatureMode;
import io.memorychain.events.chain.SpaceChainReader;
import io.memorychain.events.chain.VerificationResult;
import io.memorychain.events.publish.MemoryPublisher;
import io.memorychain.events.registry.KafkaTopicSchemaRegistry;
import io.memorychain.events.registry.SchemaRegistry;
import io.memorychain.events.testing.SharedKafka;
import io.memorychain.projector.EventsTopic;
import io.memorychain.projector.MemoryChainRuntime;
import io.memorychain.projector.rollback.RollbackPlans;
import io.memorychain.projector.search.SearchMode;
import io.memorychain.projector.search.SearchRequest;
import io.memorychain.projector.view.ListQuery;
import io.memorychain.projector.view.MemoryViews;
import io.memorychain.projector.view.Page;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The time machine (docs/architecture.md §17) on a real broker with the real sequencer and projection: a refinement
 * session undone exactly, a whole space rolled back to a time, a plan made stale by a later write; the chain verifies
 * after each; a dry run publishes nothing.
 */
@Tag("integration")
@ExtendWith(SharedKafka.class)
@Timeout(value = 4, unit = TimeUnit.MINUTES)
class RollbackIT {

    private static final Actor AGENT = Requests.actor(ActorType.AGENT, "planner");
    private static final Actor ADMIN = Requests.actor(ActorType.ADMIN, "root");

    private static Topics topics;
    private static ChainKeys keys;
    private static SchemaRegistry registry;
    private static MemoryChainRuntime runtime;
    private static MemoryPublisher publisher;
    private static RollbackPlans plans;

    @BeforeAll
    static void start() throws Exception {
        String prefix = SharedKafka.uniquePrefix();
        topics = Topics.withPrefix(prefix);
        keys = ChainKeys.generate();
        Path state = Files.createTempDirectory("rollback");
        registry = new KafkaTopicSchemaRegistry(SharedKafka.bootstrapServers(), topics.schemas(), (short) 1);
        runtime = MemoryChainRuntime.start(
                new MemoryChainRuntime.Settings(
                        SharedKafka.bootstrapServers(),
                        topics,
                        state,
                        prefix + "app",
                        2,
                        (short) 1,
                        WriteSettings.defaults()),
                registry,
                keys,
                null,
                Duration.ofSeconds(60));
        publisher = new MemoryPublisher(SharedKafka.bootstrapServers(), topics, registry);
        plans = new RollbackPlans(new SpaceChainReader(consumerConfig(), topics.events(), registry));
    }

    @AfterAll
    static void stop() throws Exception {
        publisher.close();
        runtime.close();
        registry.close();
    }

    @Test
    void aRefinementSessionIsUndoneExactly() throws Exception {
        String space = "rollback-session";
        List<String> ids = new ArrayList<>();
        for (String content : List.of(
                "Ana likes tea",
                "Ana drinks green tea",
                "Ana plans every Monday",
                "Ana likes tea",
                "Ana lives in Porto")) {
            ids.add(write(Requests.create(
                            space,
                            AGENT,
                            CreateMemory.newBuilder()
                                    .setContent(content)
                                    .setTier(Tier.CORE)
                                    .build()))
                    .getMemoryId());
        }
        write(Requests.block(space, AGENT, "persona", "I am a careful planner"));
        write(Requests.link(space, AGENT, ids.get(0), ids.get(4), "related_to", 0.8));
        long beforeSession = head(space);

        write(Requests.startRefinement(space, ADMIN, RefinementTrigger.ADMIN, null));
        String session = runtime.views().openRefinement(space).orElseThrow().getSessionId();
        String merged = write(
                        Requests.consolidate(space, AGENT, ids.subList(0, 2), "Ana drinks green tea daily", "same")
                                .setSessionId(session))
                .getMemoryId();
        write(Requests.updateContent(space, AGENT, ids.get(2), "Ana plans on Mondays")
                .setSessionId(session));
        write(Requests.delete(space, AGENT, ids.get(4)).setSessionId(session));
        write(Requests.completeRefinement(space, AGENT, session, "compressed the core"));
        long headBefore = head(space);
        long endOffsetBefore = eventsEndOffset();

        RollbackPlan plan = plans.plan(space, RollbackSpec.session(session));

        assertThat(eventsEndOffset()).as("the dry run publishes nothing").isEqualTo(endOffsetBefore);
        assertThat(plan.targetSeq()).isEqualTo(beforeSession);
        assertThat(plan.headSeq()).isEqualTo(headBefore);
        assertThat(plan.memories())
                .extracting(RollbackPlan.MemoryChange::memoryId)
                .contains(merged, ids.get(0), ids.get(2), ids.get(3), ids.get(4));

        MemoryOutcome applied = write(Requests.request(space, ADMIN, plan.toRequest("the session lost facts")));

        List<MemoryEvent> chain = chain(space);
        assertThat(chain).hasSize(applied.getSeq().intValue());
        List<MemoryEvent> compensating = chain.subList((int) headBefore, chain.size());
        assertThat(compensating.get(0).getPayload()).isInstanceOfSatisfying(RollbackApplied.class, r -> {
            assertThat(r.getTargetSeq()).isEqualTo(beforeSession);
            assertThat(r.getScopeId()).isEqualTo(session);
            assertThat(r.getReason()).isEqualTo("the session lost facts");
        });
        assertThat(compensating)
                .hasSize(1 + plan.memories().size() + plan.edges().size())
                .allSatisfy(e -> assertThat(e.getRequestId()).isEqualTo(applied.getRequestId()));
        assertThat(visible(runtime.views(), space))
                .as("views equal a replay of the chain cut before the session")
                .isEqualTo(replayVisible(chain, beforeSession));
        assertThat(runtime.views().core(space).text()).isEqualTo(replayCore(chain, beforeSession));
        assertThat(runtime.views().relations(space, ids.get(0))).hasSize(1);
        assertThat(search(space, "daily"))
                .as("the merged memory left the search index")
                .doesNotContain(merged);
        assertThat(search(space, "Porto")).contains(ids.get(4));
        assertIntact(space, applied.getSeq());
    }

    @Test
    void aWholeSpaceRollsBackToATime() throws Exception {
        String space = "rollback-time";
        String first = write(Requests.create(space, AGENT, "the deploy runs on Fridays"))
                .getMemoryId();
        write(Requests.block(space, AGENT, "goals", "ship v1"));
        Instant cut = chain(space).get(1).getOccurredAt();
        String later = write(Requests.create(space, AGENT, "the deploy runs on Tuesdays"))
                .getMemoryId();
        write(Requests.updateContent(space, AGENT, first, "the deploy never runs"));
        write(Requests.block(space, AGENT, "goals", "ship v2"));
        write(Requests.link(space, AGENT, first, later, "related_to", 0.9));
        long expectedTarget = chain(space).stream()
                .filter(e -> !e.getOccurredAt().isAfter(cut))
                .mapToLong(MemoryEvent::getSeq)
                .max()
                .orElseThrow();

        RollbackPlan plan = plans.plan(space, RollbackSpec.spaceAt(cut));
        assertThat(plan.targetSeq()).isEqualTo(expectedTarget);
        MemoryOutcome applied = write(Requests.request(space, ADMIN, plan.toRequest("bad afternoon")));

        List<MemoryEvent> chain = chain(space);
        assertThat(visible(runtime.views(), space)).isEqualTo(replayVisible(chain, plan.targetSeq()));
        assertThat(runtime.views().core(space).text()).isEqualTo(replayCore(chain, plan.targetSeq()));
        assertThat(runtime.views().relations(space, first)).isEmpty();
        assertIntact(space, applied.getSeq());

        RollbackPlan again = plans.plan(space, RollbackSpec.spaceAt(cut));
        assertThat(again.isEmpty()).as("nothing left to undo").isTrue();
    }

    @Test
    void aStalePlanIsAVersionConflictAndChangesNothing() throws Exception {
        String space = "rollback-stale";
        String id = write(Requests.create(space, AGENT, "v1")).getMemoryId();
        write(Requests.updateContent(space, AGENT, id, "v2"));
        RollbackPlan plan = plans.plan(space, RollbackSpec.memory(id, 1));
        write(Requests.updateContent(space, AGENT, id, "v3"));
        long head = head(space);

        MemoryOutcome stale = publisher
                .publish(Requests.request(space, ADMIN, plan.toRequest("undo")).build())
                .get(60, TimeUnit.SECONDS);

        assertThat(stale.getAccepted()).isFalse();
        assertThat(stale.getCode()).isEqualTo("VERSION_CONFLICT");
        assertThat(head(space)).isEqualTo(head);
        assertThat(runtime.views().memory(space, id).orElseThrow().getContent()).isEqualTo("v3");
        assertIntact(space, head);
    }

    private static MemoryOutcome write(MemoryRequest.Builder request) throws Exception {
        MemoryOutcome outcome = publisher.publish(request.build()).get(60, TimeUnit.SECONDS);
        assertThat(outcome.getAccepted())
                .as("%s: %s", request.getOp().getClass().getSimpleName(), outcome.getMessage())
                .isTrue();
        assertThat(runtime.views().awaitApplied(request.getSpace(), outcome.getSeq(), Duration.ofSeconds(30)))
                .isTrue();
        return outcome;
    }

    private static long head(String space) {
        return runtime.views().appliedSeq(space);
    }

    private static List<MemoryEvent> chain(String space) {
        return EventsTopic.readAll(SharedKafka.bootstrapServers(), topics.events(), registry).stream()
                .filter(e -> e.getSpace().equals(space))
                .toList();
    }

    private static void assertIntact(String space, long events) {
        VerificationResult result = new KafkaChainReader(
                        consumerConfig(), topics.events(), registry, keys.publicRing(), SignatureMode.ALL)
                .verifySpace(space);
        assertThat(result.ok()).as(result.message()).isTrue();
        assertThat(result.events()).isEqualTo(events);
    }

    private static long eventsEndOffset() {
        try (KafkaConsumer<byte[], byte[]> consumer =
                new KafkaConsumer<>(consumerConfig(), new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            List<TopicPartition> partitions = consumer.partitionsFor(topics.events()).stream()
                    .map(i -> new TopicPartition(topics.events(), i.partition()))
                    .toList();
            return consumer.endOffsets(partitions).values().stream()
                    .mapToLong(Long::longValue)
                    .sum();
        }
    }

    private static Map<String, Object> consumerConfig() {
        return Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, SharedKafka.bootstrapServers());
    }

    private static List<String> search(String space, String text) {
        return runtime
                .views()
                .search(SearchRequest.builder(space)
                        .text(text)
                        .topK(10)
                        .mode(SearchMode.BM25)
                        .build())
                .stream()
                .map(h -> h.id())
                .toList();
    }

    /** Active memories, fields that do not depend on when they were written. */
    private static Map<String, String> visible(MemoryViews views, String space) {
        List<Memory> all = new ArrayList<>();
        String after = null;
        do {
            Page<Memory> page = views.list(space, new ListQuery(null, null, MemoryState.ACTIVE, after, 100));
            all.addAll(page.items());
            after = page.next();
        } while (after != null);
        return describe(all);
    }

    private static Map<String, String> replayVisible(List<MemoryEvent> chain, long seq) {
        return describe(replay(chain, seq).memories(chain.get(0).getSpace()).stream()
                .filter(m -> m.getState() == MemoryState.ACTIVE)
                .toList());
    }

    private static String replayCore(List<MemoryEvent> chain, long seq) {
        return CoreFormatter.format(replay(chain, seq).memories(chain.get(0).getSpace()).stream()
                        .filter(m -> m.getState() == MemoryState.ACTIVE
                                && (m.getKind() == MemoryKind.BLOCK || m.getTier() == Tier.CORE))
                        .toList())
                .text();
    }

    private static InMemoryWriteModel replay(List<MemoryEvent> chain, long seq) {
        InMemoryWriteModel model = new InMemoryWriteModel();
        chain.stream().filter(e -> e.getSeq() <= seq).forEach(e -> WriteModelEvolution.apply(e, model));
        return model;
    }

    private static Map<String, String> describe(List<Memory> memories) {
        Map<String, String> out = new TreeMap<>();
        for (Memory m : memories) {
            out.put(
                    m.getId(),
                    String.join(
                            "|",
                            m.getContent(),
                            String.valueOf(m.getKind()),
                            String.valueOf(m.getTier()),
                            String.valueOf(m.getBlockLabel()),
                            String.valueOf(m.getCategory()),
                            String.valueOf(m.getTags()),
                            String.valueOf(m.getImportance()),
                            String.valueOf(m.getState()),
                            String.valueOf(m.getSupersededBy()),
                            String.valueOf(m.getSupersedes()),
                            String.valueOf(m.getPinned()),
                            String.valueOf(m.getConstitutional()),
                            String.valueOf(m.getCreatedAt()),
                            String.valueOf(m.getDecayStatus())));
        }
        return out;
    }
}
