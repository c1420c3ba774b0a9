package io.memorychain.projector.retrieval;

import static org.assertj.core.api.Assertions.assertThat;

import io.memorychain.avro.Memory;
import io.memorychain.avro.MemoryKind;
import io.memorychain.avro.MemoryState;
import io.memorychain.avro.Tier;
import io.memorychain.projector.search.FilterParser;
import io.memorychain.projector.search.Hit;
import io.memorychain.projector.search.IndexSettings;
import io.memorychain.projector.search.MemoryIndex;
import io.memorychain.projector.search.SearchFilters;
import io.memorychain.projector.search.SearchMode;
import io.memorychain.projector.search.SearchRequest;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Filters with operators and AND / OR / NOT: translated into the Lucene search (so the top-k is taken among matching
 * memories only, in every mode) and evaluated by {@link FilterMatcher} on traversed memories, with the same result.
 */
class FilterExpressionTest {

    private static final int DIMS = 8;
    private static final Instant T0 = Instant.parse("2025-07-01T00:00:00Z");

    private final MemoryIndex index = MemoryIndex.inMemory(IndexSettings.DEFAULTS.withDimensions(DIMS));
    private final Random random = new Random(5);
    private final float[] query = unit();
    private final Map<String, Memory> memories = new LinkedHashMap<>();

    @BeforeEach
    void fixture() {
        add(memory("trip", 5, "travel", MemoryKind.SEMANTIC, 0).setTags(List.of("travel", "lisbon")));
        add(memory("work-high", 4, "work", MemoryKind.SEMANTIC, 1)
                .setTags(List.of("q3"))
                .setUserId("ana"));
        add(memory("family-ep", 4, "family", MemoryKind.EPISODIC, 2).setThreadId("t-1"));
        add(memory("family-low", 2, "family", MemoryKind.SEMANTIC, 3).setUserId("bob"));
        add(memory("tagged-low", 1, null, MemoryKind.SEMANTIC, 4)
                .setTags(List.of("travel"))
                .setPinned(true));
        add(memory("work-ep", 5, "work", MemoryKind.EPISODIC, 5)
                .setThreadId("t-2")
                .setUserId("ana"));
        add(memory("plain", 3, null, MemoryKind.PROCEDURAL, 6));
    }

    @AfterEach
    void close() {
        index.close();
    }

    private Memory.Builder memory(String id, int importance, String category, MemoryKind kind, int day) {
        Instant at = T0.plus(Duration.ofDays(day));
        return Memory.newBuilder()
                .setId(id)
                .setSpace("s")
                .setKind(kind)
                .setTier(Tier.WORKING)
                .setContent("note " + id)
                .setTags(List.of())
                .setImportance(importance)
                .setCategory(category)
                .setCreatedAt(at)
                .setUpdatedAt(at.plus(Duration.ofDays(10)))
                .setVersion(1)
                .setState(MemoryState.ACTIVE)
                .setContentHash("0".repeat(64));
    }

    private void add(Memory.Builder builder) {
        Memory m = builder.build();
        memories.put(m.getId(), m);
        index.upsert(m, unit());
    }

    private float[] unit() {
        float[] v = new float[DIMS];
        double norm = 0;
        for (int i = 0; i < DIMS; i++) {
            v[i] = (float) random.nextGaussian();
            norm += v[i] * v[i];
        }
        for (int i = 0; i < DIMS; i++) {
            v[i] /= (float) Math.sqrt(norm);
        }
        return v;
    }

    /** The ids the search finds in each mode (asserted equal) and the ids FilterMatcher admits (asserted equal). */
    private List<String> found(Object tree) {
        SearchFilters filters = FilterParser.parse(tree, "filters");
        List<String> bm25 = search(filters, SearchMode.BM25, 100);
        for (SearchMode mode : List.of(SearchMode.VECTOR, SearchMode.HYBRID)) {
            assertThat(search(filters, mode, 100)).as(mode.name()).containsExactlyInAnyOrderElementsOf(bm25);
        }
        List<String> matched = new ArrayList<>();
        memories.values().stream()
                .filter(m -> FilterMatcher.matches(filters, m))
                .forEach(m -> matched.add(m.getId()));
        assertThat(bm25).as("search vs FilterMatcher").containsExactlyInAnyOrderElementsOf(matched);
        return bm25;
    }

    private List<String> search(SearchFilters filters, SearchMode mode, int topK) {
        return index
                .search(SearchRequest.builder("s")
                        .text("note")
                        .vector(query)
                        .mode(mode)
                        .topK(topK)
                        .filters(filters)
                        .build())
                .stream()
                .map(Hit::id)
                .toList();
    }

    @Test
    void theIssueExampleKeepsImportantTravelOrWorkOrFamilyMemoriesThatAreNotEpisodic() {
        Object tree = Map.of(
                "AND",
                List.of(
                        Map.of("importance", Map.of("gte", 4)),
                        Map.of(
                                "OR",
                                List.of(
                                        Map.of("tags", Map.of("contains", "travel")),
                                        Map.of("category", Map.of("in", List.of("work", "family"))))),
                        Map.of("NOT", Map.of("kind", "episodic"))));

        assertThat(found(tree)).containsExactlyInAnyOrder("trip", "work-high");
    }

    @Test
    void theTopKIsTakenAmongMatchingMemoriesOnly() {
        SearchFilters filters = FilterParser.parse(Map.of("tags", "travel"), "filters");

        for (SearchMode mode : SearchMode.values()) {
            assertThat(search(filters, mode, 2)).as(mode.name()).containsExactlyInAnyOrder("trip", "tagged-low");
        }
    }

    @Test
    void comparisonsOnNumbersAndTimes() {
        assertThat(found(Map.of("importance", Map.of("gt", 3, "lt", 5))))
                .containsExactlyInAnyOrder("work-high", "family-ep");
        assertThat(found(Map.of("importance", Map.of("in", List.of(1, 2)))))
                .containsExactlyInAnyOrder("family-low", "tagged-low");
        assertThat(found(Map.of("created_at", Map.of("gte", "2025-07-03", "lt", "2025-07-05"))))
                .containsExactlyInAnyOrder("family-ep", "family-low");
        assertThat(found(Map.of("created_at", Map.of("lte", "2025-07-02T00:00:00Z"))))
                .containsExactlyInAnyOrder("trip", "work-high");
        assertThat(found(Map.of("created_at", Map.of("gt", "2025-07-06T00:00:00.000500Z"))))
                .containsExactlyInAnyOrder("plain");
        assertThat(found(Map.of("created_at", Map.of("eq", "2025-07-06T00:00:00Z"))))
                .containsExactly("work-ep");
        assertThat(found(Map.of("updated_at", Map.of("lt", "2025-07-12")))).containsExactly("trip");
    }

    @Test
    void textFieldsAndMissingValues() {
        assertThat(found(Map.of("user_id", Map.of("in", List.of("ana", "bob")))))
                .containsExactlyInAnyOrder("work-high", "family-low", "work-ep");
        // a memory without a user id matches no condition on it, so NOT admits it
        assertThat(found(Map.of("NOT", Map.of("user_id", "ana"))))
                .containsExactlyInAnyOrder("trip", "family-ep", "family-low", "tagged-low", "plain");
        assertThat(found(Map.of("thread_id", "t-1"))).containsExactly("family-ep");
        assertThat(found(Map.of("kind", Map.of("in", List.of("procedural", "EPISODIC")))))
                .containsExactlyInAnyOrder("family-ep", "work-ep", "plain");
        assertThat(found(Map.of("tags", Map.of("in", List.of("q3", "lisbon")))))
                .containsExactlyInAnyOrder("trip", "work-high");
        assertThat(found(Map.of("NOT", Map.of("category", Map.of("in", List.of("work", "family"))))))
                .containsExactlyInAnyOrder("trip", "tagged-low", "plain");
        assertThat(found(Map.of("pinned", true, "tags", "travel"))).containsExactly("tagged-low");
    }

    @Test
    void nestedGroupsAndTheFlatFormsCombine() {
        Object tree = Map.of(
                "importance_min",
                2,
                "OR",
                List.of(
                        Map.of("AND", List.of(Map.of("category", "family"), Map.of("NOT", Map.of("kind", "episodic")))),
                        Map.of(
                                "NOT",
                                Map.of(
                                        "OR",
                                        List.of(
                                                Map.of("category", Map.of("in", List.of("work", "family"))),
                                                Map.of("tags", "travel"))))));

        assertThat(found(tree)).containsExactlyInAnyOrder("family-low", "plain");
    }
}
