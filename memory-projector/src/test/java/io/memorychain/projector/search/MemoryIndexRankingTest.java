package io.memorychain.projector.search;

import static io.memorychain.projector.search.TestMemories.active;
import static io.memorychain.projector.search.TestMemories.memory;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.memorychain.avro.MemoryKind;
import io.memorychain.avro.MemoryState;
import io.memorychain.avro.Tier;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class MemoryIndexRankingTest {

    private final Random random = new Random(17);
    private MemoryIndex index = MemoryIndex.inMemory(IndexSettings.DEFAULTS.withDimensions(32));

    @AfterEach
    void close() {
        index.close();
    }

    private List<String> bm25(String text, int topK) {
        return index
                .search(SearchRequest.builder("s")
                        .text(text)
                        .mode(SearchMode.BM25)
                        .topK(topK)
                        .build())
                .stream()
                .map(Hit::id)
                .toList();
    }

    private void fillers(int n) {
        Corpus corpus = new Corpus(new Random(1));
        for (int i = 0; i < n; i++) {
            index.upsert(
                    active("s", "filler" + i, "invoice " + corpus.sentence(15)), TestVectors.randomUnit(random, 32));
        }
    }

    @Test
    void exactIdentifiersAreFoundFirstByBm25() {
        fillers(100);
        index.upsert(active("s", "exact", "Invoice INV-2024-117 was paid by ACME in full"), null);
        index.upsert(active("s", "next", "Invoice INV-2024-118 is pending approval"), null);
        index.upsert(active("s", "year", "Reminder about INV-2023-117 from last year"), null);
        index.upsert(active("s", "parts", "inv 2024 report lists 117 invoices"), null);
        index.upsert(active("s", "v123", "Upgrade the broker to v1.2.3 on Friday"), null);
        index.upsert(active("s", "v124", "Upgrade the client to v1.2.4 next week"), null);
        index.upsert(active("s", "mail", "Escalations go to ops@acme.io, not sales@acme.io"), null);

        assertThat(bm25("INV-2024-117", 1)).containsExactly("exact");
        assertThat(bm25("inv-2024-117", 1)).containsExactly("exact");
        assertThat(bm25("what happened with invoice INV-2024-117?", 1)).containsExactly("exact");
        assertThat(bm25("v1.2.3", 1)).containsExactly("v123");
        assertThat(bm25("ops@acme.io", 1)).containsExactly("mail");
    }

    @Test
    void inflectedWordsMatchTheirStem() {
        index.upsert(active("s", "deploy", "Deployment of the billing service is frozen until Monday"), null);
        index.upsert(active("s", "pref", "The user's preference: replies in French"), null);
        index.upsert(active("s", "other", "The user went hiking on Sunday"), null);

        assertThat(bm25("when are we deploying billing?", 10)).containsExactly("deploy");
        assertThat(bm25("what language does the user prefer", 10)).first().isEqualTo("pref");
    }

    @Test
    void summaryAndTagsAreSearchable() {
        index.upsert(
                memory("s", "m1", "first body")
                        .setSummary("Quarterly numbers look solid")
                        .setTags(List.of("finance", "Q3-2025"))
                        .build(),
                null);
        index.upsert(active("s", "m2", "second body"), null);

        assertThat(bm25("quarterly", 10)).containsExactly("m1");
        assertThat(bm25("finance", 10)).containsExactly("m1");
        assertThat(bm25("Q3-2025", 10)).containsExactly("m1");
    }

    @Test
    void textWithoutSearchableTermsFindsNothingInsteadOfFailing() {
        index.upsert(active("s", "m1", "the and of"), null);
        assertThat(bm25("the of and ?!", 10)).isEmpty();
        assertThat(bm25("title:(x AND y) OR \"unbalanced", 10)).isEmpty();
    }

    @Test
    void vectorSearchReturnsTheNearestByCosineInOrder() {
        index.close();
        index = MemoryIndex.inMemory(IndexSettings.DEFAULTS); // 384 dimensions, like all-MiniLM-L6-v2
        float[] query = TestVectors.randomUnit(random, 384);
        List<float[]> vectors = new ArrayList<>();
        for (int i = 0; i < 500; i++) { // every 50th at cosine 0.9, 0.85, ... 0.45; the rest random (cosine ~0)
            float[] v = i % 50 == 0
                    ? TestVectors.near(query, 0.9 - i / 1000.0, random)
                    : TestVectors.randomUnit(random, 384);
            for (int d = 0; d < v.length; d++) {
                v[d] *= 1 + i % 3; // lengths vary: cosine must ignore them
            }
            vectors.add(v);
            index.upsert(active("s", "m" + i, "text"), v);
        }
        List<Integer> expected = IntStream.range(0, vectors.size())
                .boxed()
                .sorted(Comparator.comparingDouble(i -> -TestVectors.cosine(query, vectors.get(i))))
                .limit(10)
                .toList();

        List<Hit> hits = index.search(SearchRequest.builder("s")
                .vector(query)
                .mode(SearchMode.VECTOR)
                .topK(10)
                .build());

        assertThat(hits)
                .extracting(Hit::id)
                .containsExactlyElementsOf(expected.stream().map(i -> "m" + i).toList());
        assertThat(hits.get(0).id()).isEqualTo("m0");
        for (int i = 0; i < hits.size(); i++) {
            Hit hit = hits.get(i);
            assertThat(hit.score())
                    .isCloseTo((float) TestVectors.cosine(query, vectors.get(expected.get(i))), within(1e-4f));
            assertThat(hit.vector().rank()).isEqualTo(i + 1);
            assertThat(hit.bm25()).isNull();
        }
    }

    /**
     * Five topics, each with one memory that is good on both signals (the identifier once in a long text, cosine 0.8),
     * three short texts repeating the identifier with unrelated vectors (best for BM25), and three texts without it at
     * cosine 0.9 (best for kNN). Only the fusion puts the right memory first.
     */
    @Test
    void hybridFindsWhatNeitherSignalFindsAlone() {
        fillers(100);
        List<String> codes = List.of("ORD-4471", "TKT-3381", "PO-5120", "SKU-7734", "CASE-9902");
        Corpus corpus = new Corpus(new Random(2));
        List<float[]> topics = new ArrayList<>();
        for (int t = 0; t < codes.size(); t++) {
            String code = codes.get(t);
            float[] topic = TestVectors.randomUnit(random, 32);
            topics.add(topic);
            index.upsert(
                    active(
                            "s",
                            "target" + t,
                            "Customer wrote about " + code + ": it arrived damaged, " + corpus.sentence(25)),
                    TestVectors.near(topic, 0.8, random));
            for (int d = 0; d < 3; d++) {
                index.upsert(
                        active("s", "lexical" + t + d, code + " label " + code), TestVectors.near(topic, -0.5, random));
                index.upsert(
                        active("s", "semantic" + t + d, corpus.sentence(12)), TestVectors.near(topic, 0.9, random));
            }
        }
        int bm25First = 0;
        int vectorFirst = 0;
        int hybridFirst = 0;
        for (int t = 0; t < codes.size(); t++) {
            SearchRequest.Builder request = SearchRequest.builder("s")
                    .text(codes.get(t))
                    .vector(topics.get(t))
                    .topK(5);
            String target = "target" + t;
            bm25First += first(request.mode(SearchMode.BM25).build()).equals(target) ? 1 : 0;
            vectorFirst += first(request.mode(SearchMode.VECTOR).build()).equals(target) ? 1 : 0;
            List<Hit> hybrid = index.search(request.mode(SearchMode.HYBRID).build());
            hybridFirst += hybrid.get(0).id().equals(target) ? 1 : 0;

            Hit top = hybrid.get(0);
            assertThat(top.bm25().rank()).isEqualTo(4);
            assertThat(top.vector().rank()).isEqualTo(4);
            assertThat(top.score()).isCloseTo(2f / (60 + 4), within(1e-6f));
            assertThat(top.vector().score()).isCloseTo(0.8f, within(1e-3f));
            assertThat(top.bm25().score()).isPositive();
        }
        assertThat(bm25First).isZero();
        assertThat(vectorFirst).isZero();
        assertThat(hybridFirst).isEqualTo(codes.size());
    }

    private String first(SearchRequest request) {
        return index.search(request).get(0).id();
    }

    @Test
    void hitsCarryTheIndexedMetadataForReranking() {
        index.upsert(
                memory("s", "m1", "metadata check")
                        .setCategory("tasks")
                        .setImportance(5)
                        .setPinned(true)
                        .setVersion(4)
                        .setKind(MemoryKind.EPISODIC)
                        .build(),
                null);
        Hit hit = index.search(SearchRequest.builder("s").text("metadata").build())
                .get(0);
        assertThat(hit.meta())
                .isEqualTo(new MemoryMeta(
                        "s",
                        4,
                        MemoryState.ACTIVE,
                        MemoryKind.EPISODIC,
                        Tier.WORKING,
                        "tasks",
                        5,
                        true,
                        TestMemories.T0,
                        TestMemories.T0));
        assertThat(hit.bm25().rank()).isEqualTo(1);
        assertThat(hit.vector()).isNull();
        assertThat(hit.score()).isCloseTo(1f / 61, within(1e-6f));
    }
}
