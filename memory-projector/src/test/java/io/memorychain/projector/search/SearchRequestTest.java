package io.memorychain.projector.search;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.memorychain.avro.MemoryState;
import java.time.Instant;
import java.util.EnumSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

class SearchRequestTest {

    @Test
    void defaultsAreTopTenHybridActiveOnlyEveryCategoryNoFilters() {
        SearchRequest r = SearchRequest.builder("s").text("x").build();
        assertThat(r.topK()).isEqualTo(10);
        assertThat(r.mode()).isEqualTo(SearchMode.HYBRID);
        assertThat(r.states()).containsExactly(MemoryState.ACTIVE);
        assertThat(r.allowedCategories()).isNull();
        assertThat(r.filters()).isEqualTo(SearchFilters.NONE);
    }

    @Test
    void includeSupersededAddsOnlySuperseded() {
        assertThat(SearchRequest.builder("s")
                        .text("x")
                        .includeSuperseded(true)
                        .build()
                        .states())
                .containsExactlyInAnyOrder(MemoryState.ACTIVE, MemoryState.SUPERSEDED);
    }

    @Test
    void emptyOrNullStatesMeanActiveOnly() {
        assertThat(new SearchRequest("s", "x", null, 5, SearchMode.BM25, null, null, Set.of()).states())
                .containsExactly(MemoryState.ACTIVE);
        assertThat(SearchRequest.builder("s")
                        .text("x")
                        .internalStates(null)
                        .build()
                        .states())
                .containsExactly(MemoryState.ACTIVE);
        assertThat(SearchRequest.builder("s")
                        .text("x")
                        .internalStates(EnumSet.of(MemoryState.SOFT_DELETED))
                        .build()
                        .states())
                .containsExactly(MemoryState.SOFT_DELETED);
    }

    @Test
    void invalidRequestsAreRejected() {
        assertThatThrownBy(() -> SearchRequest.builder(" ").text("x").build()).hasMessageContaining("space");
        assertThatThrownBy(() -> SearchRequest.builder("s").text("x").topK(0).build())
                .hasMessageContaining("top_k");
        assertThatThrownBy(() -> SearchRequest.builder("s")
                        .text("x")
                        .topK(SearchRequest.MAX_TOP_K + 1)
                        .build())
                .hasMessageContaining("top_k");
        assertThatThrownBy(() -> SearchRequest.builder("s")
                        .vector(new float[] {1})
                        .mode(SearchMode.BM25)
                        .build())
                .hasMessageContaining("text");
        assertThatThrownBy(() -> SearchRequest.builder("s")
                        .text("x")
                        .mode(SearchMode.VECTOR)
                        .build())
                .hasMessageContaining("vector");
        assertThatThrownBy(() -> SearchRequest.builder("s").text("  ").build()).hasMessageContaining("HYBRID");
    }

    @Test
    void invertedRangesAreRejected() {
        assertThatThrownBy(() -> SearchFilters.builder()
                        .importanceMin(4)
                        .importanceMax(2)
                        .build())
                .hasMessageContaining("importance");
        Instant t = Instant.parse("2025-07-01T00:00:00Z");
        assertThatThrownBy(() ->
                        SearchFilters.builder().updatedAfter(t).updatedBefore(t).build())
                .hasMessageContaining("updated");
    }
}
