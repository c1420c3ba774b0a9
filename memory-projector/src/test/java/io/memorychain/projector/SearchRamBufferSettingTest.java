package io.memorychain.projector;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.memorychain.projector.search.IndexSettings;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The search indexes' RAM buffer: the defaults' 32 MiB unless the process sets {@code memory.search.ram-buffer-mib}.
 */
class SearchRamBufferSettingTest {

    @AfterEach
    void clear() {
        System.clearProperty(StreamsProperties.SEARCH_RAM_BUFFER_MIB);
    }

    @Test
    void theDefaultsWhenUnset() {
        // the environment form (MEMORY_SEARCH_RAM_BUFFER_MIB) is what run.sh sets; a test JVM does not have it
        assertThat(System.getenv("MEMORY_SEARCH_RAM_BUFFER_MIB")).isNull();
        assertThat(StreamsProperties.indexSettings()).isEqualTo(IndexSettings.DEFAULTS);
    }

    @Test
    void theProcessSettingChangesOnlyTheBuffer() {
        System.setProperty(StreamsProperties.SEARCH_RAM_BUFFER_MIB, "8");
        assertThat(StreamsProperties.indexSettings().ramBufferMb()).isEqualTo(8.0);
        assertThat(StreamsProperties.indexSettings().withRamBufferMb(32)).isEqualTo(IndexSettings.DEFAULTS);
    }

    @Test
    void lessThanOneMibIsRefusedWithItsName() {
        System.setProperty(StreamsProperties.SEARCH_RAM_BUFFER_MIB, "0.5");
        assertThatThrownBy(StreamsProperties::indexSettings)
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("memory.search.ram-buffer-mib");
        System.setProperty(StreamsProperties.SEARCH_RAM_BUFFER_MIB, "lots");
        assertThatThrownBy(StreamsProperties::indexSettings)
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("memory.search.ram-buffer-mib")
                .hasMessageContaining("lots");
    }
}
