package io.memorychain.projector.search;

import static io.memorychain.projector.search.TestMemories.memory;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * 1,000 memories where the 50 best keyword and vector matches all belong to another user and to a category the agent
 * may not read. A filter applied after the top-k cut would return nothing; applied inside the search it returns the
 * requested number of allowed memories.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class FilterInsideSearchTest {

    private static final int DIMS = 32;
    private static final int BLOCKED = 50;
    private static final int TOTAL = 1_000;
    private static final String QUERY = "invoice refund";

    private final MemoryIndex index = MemoryIndex.inMemory(IndexSettings.DEFAULTS.withDimensions(DIMS));
    private final Random random = new Random(42);
    private final float[] query = TestVectors.randomUnit(random, DIMS);
    private Set<String> blocked;

    @BeforeAll
    void fill() {
        Corpus corpus = new Corpus(new Random(5));
        for (int i = 0; i < TOTAL; i++) {
            String id = String.format("m%04d", i);
            if (i % (TOTAL / BLOCKED) == 0) { // short, exact text match and a vector at cosine 0.95
                index.upsert(
                        memory("s", id, QUERY)
                                .setUserId("mallory")
                                .setCategory("secrets")
                                .build(),
                        TestVectors.near(query, 0.95, random));
            } else { // one keyword in a long text and a vector at cosine 0.5
                String text = "invoice "
                        + corpus.sentence(20).replace("invoice", "memo").replace("refund", "memo");
                index.upsert(
                        memory("s", id, text)
                                .setUserId("alice")
                                .setCategory("tasks")
                                .build(),
                        TestVectors.near(query, 0.5, random));
            }
        }
        blocked = IntStream.range(0, TOTAL)
                .filter(i -> i % (TOTAL / BLOCKED) == 0)
                .mapToObj(i -> String.format("m%04d", i))
                .collect(Collectors.toSet());
    }

    @AfterAll
    void close() {
        index.close();
    }

    private SearchRequest.Builder request(SearchMode mode, int topK) {
        return SearchRequest.builder("s").text(QUERY).vector(query).mode(mode).topK(topK);
    }

    private List<String> ids(SearchRequest request) {
        return index.search(request).stream().map(Hit::id).toList();
    }

    @ParameterizedTest
    @EnumSource(SearchMode.class)
    void withoutRestrictionTheBestFiftyMatchesAreExactlyTheBlockedMemories(SearchMode mode) {
        assertThat(ids(request(mode, BLOCKED).build())).containsExactlyInAnyOrderElementsOf(blocked);
    }

    @ParameterizedTest
    @EnumSource(SearchMode.class)
    void scopeFilterStillReturnsTopKAllowedMemories(SearchMode mode) {
        for (int topK : List.of(10, BLOCKED)) {
            List<Hit> hits = index.search(request(mode, topK)
                    .filters(SearchFilters.builder().userId("alice").build())
                    .build());
            assertThat(hits).hasSize(topK).extracting(Hit::id).doesNotContainAnyElementsOf(blocked);
        }
    }

    @ParameterizedTest
    @EnumSource(SearchMode.class)
    void categoryAllowlistStillReturnsTopKAllowedMemories(SearchMode mode) {
        for (int topK : List.of(10, BLOCKED)) {
            List<Hit> hits = index.search(
                    request(mode, topK).allowedCategories(List.of("tasks")).build());
            assertThat(hits).hasSize(topK).extracting(Hit::id).doesNotContainAnyElementsOf(blocked);
            assertThat(hits).allSatisfy(h -> assertThat(h.meta().category()).isEqualTo("tasks"));
        }
    }
}
