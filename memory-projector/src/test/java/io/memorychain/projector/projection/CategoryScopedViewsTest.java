package io.memorychain.projector.projection;

import static io.memorychain.projector.ChainHarness.AGENT;
import static org.assertj.core.api.Assertions.assertThat;

import io.memorychain.avro.CreateMemory;
import io.memorychain.avro.Memory;
import io.memorychain.avro.MemoryState;
import io.memorychain.avro.Tier;
import io.memorychain.domain.core.CoreView;
import io.memorychain.events.Requests;
import io.memorychain.projector.ChainHarness;
import io.memorychain.projector.view.ListQuery;
import io.memorychain.projector.view.Page;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Views narrowed to an agent's allowed categories (docs/architecture.md §13). */
class CategoryScopedViewsTest {

    private static final String SPACE = "acme-assistant";
    private final ChainHarness h = new ChainHarness();

    @AfterEach
    void close() {
        h.close();
    }

    private String create(String category, Tier tier, String content) {
        return h.submit(Requests.create(
                        SPACE,
                        AGENT,
                        CreateMemory.newBuilder()
                                .setContent(content)
                                .setCategory(category)
                                .setTier(tier)
                                .build()))
                .getMemoryId();
    }

    @Test
    void listingWithAllowedCategoriesFiltersInsideTheScanSoPagesStayFull() {
        List<String> expected = new ArrayList<>();
        for (int i = 0; i < 9; i++) {
            String category = switch (i % 3) {
                case 0 -> "tasks";
                case 1 -> "tone";
                default -> null;
            };
            String id = create(category, Tier.WORKING, "memory " + i);
            if (!"tone".equals(category)) {
                expected.add(id);
            }
        }
        Set<String> allowed = Set.of("tasks", "goals");
        List<String> paged = new ArrayList<>();
        String after = null;
        int pages = 0;
        do {
            Page<Memory> page = h.views.list(SPACE, new ListQuery(null, null, null, after, 2, allowed));
            assertThat(page.items()).hasSizeLessThanOrEqualTo(2);
            if (page.next() != null) {
                assertThat(page.items()).hasSize(2);
            }
            page.items().forEach(m -> paged.add(m.getId()));
            after = page.next();
            pages++;
        } while (after != null && pages < 10);
        assertThat(paged).containsExactlyElementsOf(expected);
        assertThat(pages).isEqualTo(3);
        assertThat(h.views
                        .list(SPACE, new ListQuery(null, "tone", null, null, 100, allowed))
                        .items())
                .isEmpty();
        assertThat(h.views
                        .list(SPACE, new ListQuery(null, "tone", MemoryState.ACTIVE, null, 100))
                        .items())
                .hasSize(3);
    }

    @Test
    void theCoreViewCanRetainOnlyAllowedMemoriesAndKeepsBlocks() {
        h.submit(Requests.block(SPACE, AGENT, "persona", "I am a careful planner"));
        create("tasks", Tier.CORE, "Release every Friday");
        create("tone", Tier.CORE, "Always answer in rhymes");
        CoreView all = h.views.core(SPACE);
        assertThat(all.text()).contains("rhymes");
        CoreView scoped =
                all.retain(m -> m.getCategory() == null || m.getCategory().equals("tasks"));
        assertThat(scoped.text()).isEqualTo("""
                ## Who I Am
                I am a careful planner

                ## Core Memories
                - Release every Friday""");
        assertThat(scoped.memories()).extracting(Memory::getCategory).containsExactly(null, "tasks");
        assertThat(scoped.tokens()).isLessThan(all.tokens());
        assertThat(all.retain(m -> true)).isSameAs(all);
    }
}
