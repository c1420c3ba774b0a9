package io.memorychain.projector.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.memorychain.avro.ActorType;
import io.memorychain.avro.CreateMemory;
import io.memorychain.avro.MemoryKind;
import io.memorychain.avro.MemoryOutcome;
import io.memorychain.avro.MemoryRequest;
import io.memorychain.domain.category.CategoryPolicy;
import io.memorychain.domain.decide.WriteSettings;
import io.memorychain.events.Requests;
import io.memorychain.events.Topics;
import io.memorychain.events.chain.ChainKeys;
import io.memorychain.events.publish.AccessPublisher;
import io.memorychain.events.publish.MemoryPublisher;
import io.memorychain.events.registry.KafkaTopicSchemaRegistry;
import io.memorychain.events.registry.SchemaRegistry;
import io.memorychain.events.testing.SharedKafka;
import io.memorychain.projector.MemoryChainRuntime;
import io.memorychain.projector.SharedEmbedder;
import io.memorychain.projector.linker.LinkerSettings;
import io.memorychain.projector.retrieval.DecayModel;
import io.memorychain.projector.retrieval.QueryRequest;
import io.memorychain.projector.retrieval.QueryResult;
import io.memorychain.projector.retrieval.QueryService;
import io.memorychain.projector.retrieval.RankingWeights;
import io.memorychain.projector.search.Hit;
import io.memorychain.projector.search.SearchMode;
import io.memorychain.projector.search.SearchRequest;
import io.memorychain.projector.view.MemoryViews;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Retrieval on real Kafka: the embedder publishes embeddings that the projection joins, queries record accesses that
 * become access stats, an instance restarted after a clean stop reuses its search index (vectors included, no rebuild),
 * one restarted after an unclean stop (SIGKILL) still answers right, and a fresh projection replaying the chain and the
 * derived topics answers the same queries the same way.
 */
@Tag("integration")
@ExtendWith(SharedKafka.class)
@Timeout(value = 4, unit = TimeUnit.MINUTES)
class RetrievalEndToEndIT {

    private static final String SPACE = "helpdesk";
    private static final String[] CONTENTS = {
        "The user adopted a kitten named Miso last spring",
        "Invoice INV-2024-117 was paid late by Globex",
        "The VPN drops every evening at 18:00 for the Lisbon office",
        "Quarterly revenue grew eleven percent",
        "Ana prefers window seats on long flights",
        "The user's cat Miso was adopted in spring and loves tuna treats"
    };

    private final List<String> firstIds = new ArrayList<>();

    @Test
    void embeddingsAccessStatsAndTheIndexSurviveRestartsAndReplays() throws Exception {
        String prefix = SharedKafka.uniquePrefix();
        Topics topics = Topics.withPrefix(prefix);
        Path state = Files.createTempDirectory("retrieval-it");
        MemoryChainRuntime.Settings settings = new MemoryChainRuntime.Settings(
                SharedKafka.bootstrapServers(),
                topics,
                state.resolve("live"),
                prefix + "app",
                3,
                (short) 1,
                WriteSettings.defaults());
        var actor = Requests.actor(ActorType.AGENT, "helper");
        List<String> ids = firstIds;
        List<String> before;
        try (SchemaRegistry registry =
                new KafkaTopicSchemaRegistry(SharedKafka.bootstrapServers(), topics.schemas(), (short) 1)) {
            try (MemoryChainRuntime runtime = MemoryChainRuntime.start(
                            settings,
                            registry,
                            ChainKeys.generate(),
                            SharedEmbedder.get(),
                            LinkerSettings.defaults(SharedEmbedder.get().modelId()),
                            Duration.ofSeconds(90));
                    MemoryPublisher publisher = new MemoryPublisher(SharedKafka.bootstrapServers(), topics, registry);
                    AccessPublisher accesses = new AccessPublisher(SharedKafka.bootstrapServers(), topics, registry)) {
                for (String content : CONTENTS) {
                    MemoryRequest request = Requests.create(
                                    SPACE,
                                    actor,
                                    CreateMemory.newBuilder()
                                            .setContent(content)
                                            .setKind(MemoryKind.SEMANTIC)
                                            .build())
                            .build();
                    MemoryOutcome o = publisher.publish(request).get(60, TimeUnit.SECONDS);
                    assertThat(o.getAccepted()).isTrue();
                    ids.add(o.getMemoryId());
                }
                MemoryViews views = runtime.views();
                Awaitility.await()
                        .atMost(Duration.ofSeconds(60))
                        .until(() -> ids.stream()
                                .allMatch(id -> views.embedding(SPACE, id).isPresent()));
                before = meaningSearch(views);
                assertThat(before.get(0)).isIn(ids.get(0), ids.get(5));
                Awaitility.await()
                        .atMost(Duration.ofSeconds(60))
                        .untilAsserted(() -> assertThat(views.relations(SPACE, ids.get(5)))
                                .as("the in-process linker linked the two cat memories")
                                .anySatisfy(r -> assertThat(List.of(r.getFromId(), r.getToId()))
                                        .contains(ids.get(0))));

                QueryService queries = new QueryService(
                        views,
                        SharedEmbedder.get(),
                        CategoryPolicy.unrestricted(),
                        DecayModel.standard(),
                        RankingWeights.DEFAULTS,
                        accesses::publish,
                        Clock.systemUTC());
                QueryResult pets = queries.query(
                        QueryRequest.of(SPACE, null, "when was the kitten adopted?")
                                .withTopK(1),
                        actor);
                assertThat(pets.items()).extracting(QueryResult.Item::id).containsExactly(ids.get(0));
                assertThat(pets.render()).as("a related bullet from the link").contains("tuna treats");
                Awaitility.await()
                        .atMost(Duration.ofSeconds(30))
                        .until(() -> views.access(SPACE, ids.get(0))
                                .map(a -> a.getCount() == 1)
                                .orElse(false));
            }

            // a memory written just before a clean stop: the index is committed with the stores' position and reused
            String last;
            try (MemoryChainRuntime runtime = MemoryChainRuntime.start(
                            settings, registry, ChainKeys.generate(), SharedEmbedder.get(), Duration.ofSeconds(90));
                    MemoryPublisher publisher = new MemoryPublisher(SharedKafka.bootstrapServers(), topics, registry)) {
                assertThat(runtime.searchIndexes().reuses())
                        .as("reused after a clean stop")
                        .isEqualTo(3);
                assertThat(runtime.searchIndexes().rebuilds()).isZero();
                last = publisher
                        .publish(Requests.create(
                                        SPACE,
                                        actor,
                                        CreateMemory.newBuilder()
                                                .setContent("The printer on floor three jams on glossy paper")
                                                .setKind(MemoryKind.SEMANTIC)
                                                .build())
                                .build())
                        .get(60, TimeUnit.SECONDS)
                        .getMemoryId();
                Awaitility.await()
                        .atMost(Duration.ofSeconds(60))
                        .until(() -> keywordSearch(runtime.views()).equals(List.of(last)));
            }
            try (MemoryChainRuntime restarted = MemoryChainRuntime.start(
                    settings, registry, ChainKeys.generate(), SharedEmbedder.get(), Duration.ofSeconds(90))) {
                assertThat(restarted.searchIndexes().reuses())
                        .as("no rebuild after a clean stop")
                        .isEqualTo(3);
                assertThat(restarted.searchIndexes().rebuilds()).isZero();
                assertThat(keywordSearch(restarted.views())).containsExactly(last);
                assertThat(meaningSearch(restarted.views()))
                        .as("the reused index, vectors included")
                        .isEqualTo(before);
            }

            // an unclean stop (SIGKILL of a runtime process, nothing committed or closed; it runs without a model, see
            // RuntimeProcess): the restart is still right
            Process killed = RuntimeProcess.start(prefix, settings.stateDir(), state.resolve("chain.key"));
            try (MemoryPublisher publisher = new MemoryPublisher(SharedKafka.bootstrapServers(), topics, registry)) {
                String unclean = publisher
                        .publish(Requests.create(
                                        SPACE,
                                        actor,
                                        CreateMemory.newBuilder()
                                                .setContent("The parking garage closes at midnight on Sundays")
                                                .setKind(MemoryKind.SEMANTIC)
                                                .build())
                                .build())
                        .get(60, TimeUnit.SECONDS)
                        .getMemoryId();
                killed.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
                try (MemoryChainRuntime restarted = MemoryChainRuntime.start(
                        settings, registry, ChainKeys.generate(), SharedEmbedder.get(), Duration.ofSeconds(90))) {
                    MemoryViews views = restarted.views();
                    Awaitility.await()
                            .atMost(Duration.ofSeconds(60))
                            .until(() -> views
                                    .search(SearchRequest.builder(SPACE)
                                            .text("parking garage midnight")
                                            .mode(SearchMode.BM25)
                                            .topK(3)
                                            .build())
                                    .stream()
                                    .map(Hit::id)
                                    .toList()
                                    .equals(List.of(unclean)));
                    assertThat(keywordSearch(views)).containsExactly(last);
                    assertThat(meaningSearch(views)).isEqualTo(before);
                    assertThat(restarted.searchIndexes().rebuilds())
                            .as("not reused: killed, and another model")
                            .isEqualTo(3);
                }
            } finally {
                killed.destroyForcibly();
            }

            MemoryChainRuntime.Settings replay = new MemoryChainRuntime.Settings(
                    SharedKafka.bootstrapServers(),
                    topics,
                    state.resolve("replay"),
                    prefix + "replay",
                    3,
                    (short) 1,
                    WriteSettings.defaults());
            try (MemoryChainRuntime fresh = MemoryChainRuntime.startProjection(
                    replay, registry, SharedEmbedder.get().modelId(), Duration.ofSeconds(90))) {
                MemoryViews views = fresh.views();
                long chainLength = CONTENTS.length + 3; // the memories, the linker's link, the two later memories
                Awaitility.await()
                        .atMost(Duration.ofSeconds(60))
                        .until(() -> views.appliedSeq(SPACE) == chainLength
                                && views.embedding(SPACE, last).isPresent()
                                && views.access(SPACE, ids.get(0)).isPresent());
                assertThat(meaningSearch(views)).isEqualTo(before);
                assertThat(views.access(SPACE, ids.get(0)).orElseThrow().getCount())
                        .isEqualTo(1);
            }
        }
    }

    private static List<String> keywordSearch(MemoryViews views) {
        return views
                .search(SearchRequest.builder(SPACE)
                        .text("printer jams glossy")
                        .mode(SearchMode.BM25)
                        .topK(3)
                        .build())
                .stream()
                .map(Hit::id)
                .toList();
    }

    /** The nearest memories to "pet cat" among the first ones (later ones are left out, so the answers compare). */
    private List<String> meaningSearch(MemoryViews views) {
        return views
                .search(SearchRequest.builder(SPACE)
                        .vector(SharedEmbedder.get().embed("pet cat"))
                        .mode(SearchMode.VECTOR)
                        .topK(20)
                        .build())
                .stream()
                .map(Hit::id)
                .filter(id -> firstIds.contains(id))
                .toList();
    }
}
