package io.memorychain.projector.search;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class IndexSettingsTest {

    @Test
    void theOriginalFiveSettingsKeepTheirMeaningAndGetTheDefaultGraphAndRebuildSettings() {
        IndexSettings s = new IndexSettings(384, 60, 4, 50, 32);
        assertThat(s).isEqualTo(IndexSettings.DEFAULTS);
        assertThat(s.hnsw()).isEqualTo(IndexSettings.Hnsw.DEFAULTS);
        assertThat(s.rebuild()).isEqualTo(IndexSettings.Rebuild.DEFAULTS);
        IndexSettings small = s.withDimensions(16);
        assertThat(small.dimensions()).isEqualTo(16);
        assertThat(small.hnsw()).isEqualTo(s.hnsw());
        assertThat(small.rebuild()).isEqualTo(s.rebuild());
    }

    @Test
    void graphAndRebuildSettingsAreValidated() {
        assertThatThrownBy(() -> new IndexSettings.Hnsw(1, 50, false, 1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new IndexSettings.Hnsw(16, 0, false, 1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new IndexSettings.Hnsw(16, 50, false, 0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new IndexSettings.Rebuild(0, 512, 0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new IndexSettings.Rebuild(2, 0, 0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new IndexSettings.Rebuild(2, 512, -1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> IndexSettings.DEFAULTS.withHnsw(null)).isInstanceOf(IllegalArgumentException.class);
    }
}
