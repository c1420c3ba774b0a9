package io.memorychain.projector.projection;

import static io.memorychain.projector.ChainHarness.AGENT;
import static org.assertj.core.api.Assertions.assertThat;

import io.memorychain.avro.MemoryAccess;
import io.memorychain.avro.MemoryEmbedding;
import io.memorychain.avro.MemoryEvent;
import io.memorychain.avro.view.AccessStats;
import io.memorychain.events.Requests;
import io.memorychain.projector.ChainHarness;
import io.memorychain.projector.SharedEmbedder;
import io.memorychain.projector.search.Hit;
import io.memorychain.projector.search.SearchMode;
import io.memorychain.projector.search.SearchRequest;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class EmbeddingJoinTest {

    private static final String SPACE = "emb";
    private final ChainHarness h = new ChainHarness(SharedEmbedder.get());

    @AfterEach
    void close() {
        h.close();
    }

    private List<Hit> byMeaning(String query) {
        return h.views.search(SearchRequest.builder(SPACE)
                .vector(h.embedder.embed(query))
                .mode(SearchMode.VECTOR)
                .topK(3)
                .build());
    }

    @Test
    void everyNewContentIsEmbeddedOnceAndSearchableByMeaning() {
        String cat = h.submit(Requests.create(SPACE, AGENT, "The user adopted a kitten named Miso"))
                .getMemoryId();
        h.submit(Requests.create(SPACE, AGENT, "Quarterly revenue grew eleven percent"));
        assertThat(byMeaning("pet cat").get(0).id()).isEqualTo(cat);
        float kittenScore = byMeaning("pet cat").get(0).vector().score();
        assertThat(h.views.embedding(SPACE, cat))
                .get()
                .extracting(MemoryEmbedding::getModelId)
                .isEqualTo(h.embedder.modelId());

        h.submit(Requests.updateContent(SPACE, AGENT, cat, "The user sold the old bicycle"));
        assertThat(byMeaning("cycling gear sold").get(0).id()).isEqualTo(cat);
        assertThat(byMeaning("pet cat"))
                .filteredOn(hit -> hit.id().equals(cat))
                .singleElement()
                .satisfies(hit -> assertThat(hit.vector().score())
                        .as("the old content's vector was replaced")
                        .isLessThan(kittenScore));
    }

    @Test
    void anEmbeddingOfAnotherModelOrOfOldContentIsNotUsed() {
        String id = h.submit(Requests.create(SPACE, AGENT, "Deploys happen on Tuesdays"))
                .getMemoryId();
        MemoryEmbedding current = h.views.embedding(SPACE, id).orElseThrow();
        MemoryEmbedding foreign = MemoryEmbedding.newBuilder(current)
                .setModelId("other-model@1")
                .setSeq(current.getSeq() + 5)
                .build();
        h.pipeEmbedding(foreign);
        assertThat(h.views.embedding(SPACE, id)).contains(current);
        MemoryEmbedding stale = MemoryEmbedding.newBuilder(current)
                .setSeq(current.getSeq() - 1)
                .setVector(Collections.nCopies(current.getVector().size(), 0.05f))
                .build();
        h.pipeEmbedding(stale);
        assertThat(h.views.embedding(SPACE, id))
                .as("an older version never replaces a newer one")
                .contains(current);
    }

    @Test
    void anEmbeddingThatArrivesBeforeItsEventIsJoinedWhenTheEventIsProjected() {
        try (ChainHarness source = new ChainHarness(SharedEmbedder.get());
                ChainHarness replay = new ChainHarness(SharedEmbedder.get())) {
            String id = source.submit(Requests.create(SPACE, AGENT, "The office wifi password rotates monthly"))
                    .getMemoryId();
            replay.pipeEmbedding(source.views.embedding(SPACE, id).orElseThrow());
            for (MemoryEvent e : source.chain()) {
                replay.replayIntoProjection(e);
            }
            assertThat(replay.views.embedding(SPACE, id).equals(source.views.embedding(SPACE, id)))
                    .isTrue();
            assertThat(replay.views.search(SearchRequest.builder(SPACE)
                            .vector(h.embedder.embed("wireless network"))
                            .mode(SearchMode.VECTOR)
                            .topK(1)
                            .build()))
                    .extracting(Hit::id)
                    .containsExactly(id);
        }
    }

    @Test
    void aBadVectorGoesToTheDeadLetterTopicAndIsNotStored() {
        String id = h.submit(Requests.create(SPACE, AGENT, "x")).getMemoryId();
        MemoryEmbedding good = h.views.embedding(SPACE, id).orElseThrow();
        List<Float> shortVector = new ArrayList<>(good.getVector().subList(0, 10));
        h.pipeEmbedding(MemoryEmbedding.newBuilder(good)
                .setSeq(good.getSeq() + 1)
                .setVector(shortVector)
                .build());
        assertThat(h.projectionDeadLetters()).hasSize(1);
        assertThat(h.views.embedding(SPACE, id)).contains(good);
    }

    @Test
    void accessRecordsAggregateIntoCountAndLatestTime() {
        String id = h.submit(Requests.create(SPACE, AGENT, "y")).getMemoryId();
        Instant t1 = Instant.parse("2026-03-01T10:00:00Z");
        Instant t0 = Instant.parse("2026-02-01T10:00:00Z");
        h.recordAccess(new MemoryAccess(SPACE, AGENT, List.of(id), t1));
        h.recordAccess(new MemoryAccess(SPACE, AGENT, List.of(id), t0));
        assertThat(h.views.access(SPACE, id)).contains(new AccessStats(2L, t1));
        assertThat(h.views.access(SPACE, "m0000000none")).isEmpty();
    }
}
