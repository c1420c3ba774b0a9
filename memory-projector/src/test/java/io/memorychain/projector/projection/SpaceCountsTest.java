package io.memorychain.projector.projection;

import static io.memorychain.projector.ChainHarness.AGENT;
import static org.assertj.core.api.Assertions.assertThat;

import io.memorychain.avro.CreateMemory;
import io.memorychain.avro.Tier;
import io.memorychain.events.Requests;
import io.memorychain.projector.ChainHarness;
import io.memorychain.projector.view.MemoryCounts;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class SpaceCountsTest {

    private static final String SPACE = "acme-health";
    private final ChainHarness h = new ChainHarness();

    @AfterEach
    void close() {
        h.close();
    }

    private String create(String content, String category, Tier tier) {
        return h.submit(Requests.create(
                        SPACE,
                        AGENT,
                        CreateMemory.newBuilder()
                                .setContent(content)
                                .setCategory(category)
                                .setTier(tier)
                                .setImportance(2)
                                .build()))
                .getMemoryId();
    }

    @Test
    void everyChangeMovesAMemoryFromOneCountToAnother() {
        String a = create("Ana prefers tea", "preferences", Tier.CORE);
        String b = create("Ana lives in Porto", "personal", Tier.WORKING);
        String c = create("Ana likes jazz", "preferences", Tier.WORKING);
        h.submit(Requests.delete(SPACE, AGENT, b));
        String merged = h.submit(
                        Requests.consolidate(SPACE, AGENT, List.of(a, c), "Ana prefers green tea and jazz", "merge"))
                .getMemoryId();
        h.submit(Requests.block(SPACE, AGENT, "persona", "I am careful"));

        MemoryCounts counts = h.views.counts(SPACE);

        assertThat(counts.countedFrom()).isEqualTo(1);
        assertThat(counts.complete()).isTrue();
        assertThat(counts.of("state"))
                .containsExactlyInAnyOrderEntriesOf(Map.of("active", 2L, "soft_deleted", 1L, "superseded", 2L));
        assertThat(counts.total()).isEqualTo(5);
        assertThat(counts.of("category")).containsEntry("personal", 1L);
        assertThat(counts.of("category").values().stream()
                        .mapToLong(Long::longValue)
                        .sum())
                .isEqualTo(5);
        assertThat(counts.of("tier"))
                .as("the persona block and the merge of a core memory are core too")
                .containsExactlyInAnyOrderEntriesOf(Map.of("core", 3L, "working", 2L));
        assertThat(counts.of("kind")).containsEntry("block", 1L);
        assertThat(counts.of("decay")).containsExactlyEntriesOf(Map.of("active", 5L));
        assertThat(h.views.memory(SPACE, merged)).isPresent();
        assertThat(h.views.counts("another-space")).isEqualTo(new MemoryCounts(Map.of(), 0));
    }
}
