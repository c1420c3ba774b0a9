package io.memorychain.projector.search;

import static io.memorychain.projector.search.TestMemories.T0;
import static io.memorychain.projector.search.TestMemories.memory;
import static org.assertj.core.api.Assertions.assertThat;

import io.memorychain.avro.Memory;
import io.memorychain.avro.MemoryState;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Every restriction of a request, checked in each search mode against a small fixed fixture. */
class MemoryIndexFilterTest {

    private static final int DIMS = 8;
    private final MemoryIndex index = MemoryIndex.inMemory(IndexSettings.DEFAULTS.withDimensions(DIMS));
    private final Random random = new Random(3);
    private final float[] query = TestVectors.randomUnit(random, DIMS);

    @BeforeEach
    void fixture() {
        add(memory("s", "plain", "note plain"));
        add(memory("s", "alice", "note about alice").setUserId("alice").setRole("user"));
        add(memory("s", "bob", "note about bob").setUserId("bob").setRole("assistant"));
        add(memory("s", "planner", "note by planner")
                .setAgentId("planner")
                .setRunId("run-1")
                .setActorId("tool-x"));
        add(memory("s", "coder", "note by coder")
                .setAgentId("coder")
                .setRunId("run-2")
                .setActorId("tool-y"));
        add(memory("s", "task", "note task").setCategory("tasks").setImportance(5));
        add(memory("s", "project", "note project").setCategory("projects").setImportance(1));
        add(memory("s", "pref", "note preference")
                .setCategory("preferences")
                .setPinned(true)
                .setImportance(4));
        add(memory("s", "old", "note old")
                .setUpdatedAt(T0.minus(Duration.ofDays(30)))
                .setImportance(2));
        add(memory("s", "new", "note new").setUpdatedAt(T0.plus(Duration.ofDays(30))));
        add(memory("s", "superseded", "note superseded").setState(MemoryState.SUPERSEDED));
        add(memory("s", "deleted", "note deleted").setState(MemoryState.SOFT_DELETED));
        add(memory("s", "archived", "note archived").setState(MemoryState.ARCHIVED));
        add(memory("other", "alice", "note about alice elsewhere")
                .setUserId("alice")
                .setCategory("tasks"));
    }

    @AfterEach
    void close() {
        index.close();
    }

    private void add(Memory.Builder m) {
        index.upsert(m.build(), TestVectors.randomUnit(random, DIMS));
    }

    /** The ids found by each mode; asserts the three modes agree, and returns them. */
    private List<String> found(UnaryOperator<SearchRequest.Builder> request) {
        List<String> bm25 = ids(request.apply(base()).mode(SearchMode.BM25).build());
        for (SearchMode mode : List.of(SearchMode.VECTOR, SearchMode.HYBRID)) {
            assertThat(ids(request.apply(base()).mode(mode).build()))
                    .as(mode.name())
                    .containsExactlyInAnyOrderElementsOf(bm25);
        }
        return bm25;
    }

    private SearchRequest.Builder base() {
        return SearchRequest.builder("s").text("note").vector(query).topK(100);
    }

    private List<String> ids(SearchRequest request) {
        return index.search(request).stream().map(Hit::id).toList();
    }

    private List<String> filtered(UnaryOperator<SearchFilters.Builder> filters) {
        return found(r -> r.filters(filters.apply(SearchFilters.builder()).build()));
    }

    private static final List<String> ACTIVE =
            List.of("plain", "alice", "bob", "planner", "coder", "task", "project", "pref", "old", "new");

    @Test
    void onlyActiveMemoriesMatchByDefault() {
        assertThat(found(r -> r)).containsExactlyInAnyOrderElementsOf(ACTIVE);
    }

    @Test
    void supersededMemoriesMatchOnlyWhenIncluded() {
        assertThat(found(r -> r.includeSuperseded(true)))
                .contains("superseded")
                .hasSize(ACTIVE.size() + 1)
                .doesNotContain("deleted", "archived");
        assertThat(found(r -> r.includeSuperseded(false))).doesNotContain("superseded");
    }

    @Test
    void softDeletedMemoriesMatchOnlyWhenAnInternalCallerAsksForThem() {
        assertThat(found(r -> r.internalStates(EnumSet.of(MemoryState.SOFT_DELETED))))
                .containsExactly("deleted");
        assertThat(found(r -> r.internalStates(EnumSet.allOf(MemoryState.class))))
                .hasSize(ACTIVE.size() + 3);
    }

    @Test
    void scopeFiltersMatchExactly() {
        assertThat(filtered(f -> f.userId("alice"))).containsExactly("alice");
        assertThat(filtered(f -> f.agentId("planner"))).containsExactly("planner");
        assertThat(filtered(f -> f.runId("run-2"))).containsExactly("coder");
        assertThat(filtered(f -> f.actorId("tool-x"))).containsExactly("planner");
        assertThat(filtered(f -> f.role("assistant"))).containsExactly("bob");
        assertThat(filtered(f -> f.userId("alice").role("assistant"))).isEmpty();
        assertThat(filtered(f -> f.userId("nobody"))).isEmpty();
    }

    @Test
    void categoryAndPinnedFiltersMatchExactly() {
        assertThat(filtered(f -> f.category("tasks"))).containsExactly("task");
        assertThat(filtered(f -> f.category(SearchRequest.UNCATEGORIZED)))
                .hasSize(ACTIVE.size() - 3)
                .doesNotContain("task", "project", "pref");
        assertThat(filtered(f -> f.pinned(true))).containsExactly("pref");
        assertThat(filtered(f -> f.pinned(false))).hasSize(ACTIVE.size() - 1).doesNotContain("pref");
    }

    @Test
    void importanceRangeIsInclusive() {
        assertThat(filtered(f -> f.importanceMin(4))).containsExactlyInAnyOrder("task", "pref");
        assertThat(filtered(f -> f.importanceMax(2))).containsExactlyInAnyOrder("project", "old");
        assertThat(filtered(f -> f.importanceMin(2).importanceMax(4)))
                .hasSize(ACTIVE.size() - 2)
                .doesNotContain("task", "project");
        assertThat(filtered(f -> f.importanceMin(5).importanceMax(5))).containsExactly("task");
    }

    @Test
    void updatedRangeIncludesItsStartAndExcludesItsEnd() {
        assertThat(filtered(f -> f.updatedAfter(T0.plusSeconds(1)))).containsExactly("new");
        assertThat(filtered(f -> f.updatedBefore(T0))).containsExactly("old");
        assertThat(filtered(f -> f.updatedAfter(T0).updatedBefore(T0.plusMillis(1))))
                .hasSize(ACTIVE.size() - 2)
                .doesNotContain("old", "new");
        assertThat(filtered(f -> f.updatedAfter(T0.plusNanos(1)).updatedBefore(T0.plus(Duration.ofDays(31)))))
                .containsExactly("new");
    }

    @Test
    void allowlistAdmitsOnlyListedCategoriesAndDeniesUncategorizedUnlessListed() {
        assertThat(found(r -> r.allowedCategories(List.of("tasks", "projects"))))
                .containsExactlyInAnyOrder("task", "project");
        assertThat(found(r -> r.allowedCategories(List.of("tasks", SearchRequest.UNCATEGORIZED))))
                .hasSize(ACTIVE.size() - 2)
                .doesNotContain("project", "pref");
        assertThat(found(r -> r.allowedCategories(Set.of()))).isEmpty();
        assertThat(found(r -> r.allowedCategories(null))).containsExactlyInAnyOrderElementsOf(ACTIVE);
    }

    @Test
    void categoryFilterCannotWidenTheAllowlist() {
        assertThat(found(r -> r.allowedCategories(List.of("tasks"))
                        .filters(SearchFilters.builder().category("preferences").build())))
                .isEmpty();
    }

    @Test
    void filtersNeverReachIntoAnotherSpace() {
        assertThat(filtered(f -> f.userId("alice"))).containsExactly("alice");
        assertThat(found(r -> r.allowedCategories(List.of("tasks")))).containsExactly("task");
    }

    @Test
    void dormantMemoriesAreLeftOutInsideTheSearchOnlyWhenAsked() {
        add(memory("s", "dormant", "note dormant").setDecayStatus(io.memorychain.avro.DecayStatus.DORMANT));
        add(memory("s", "fading", "note fading").setDecayStatus(io.memorychain.avro.DecayStatus.FADING));
        add(memory("s", "vault", "note vault")
                .setDecayStatus(io.memorychain.avro.DecayStatus.DORMANT)
                .setPinned(true));

        assertThat(found(b -> b)).contains("dormant", "fading");
        assertThat(found(b -> b.excludeDormant(true)))
                .contains("fading", "vault")
                .doesNotContain("dormant")
                .hasSize(found(b -> b).size() - 1);
    }
}
