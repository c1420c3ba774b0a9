package io.memorychain.projector;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.memorychain.projector.search.IndexSettings;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The search indexes' RAM buffer: the defaults' 32 MiB unless the process sets {@code memory.search.ram-buffer-mib}. */
class SearchRamBufferSettingTest {

    @AfterEach
    void clear() {
        System.clearProperty(MemoryChainRuntime.SEARCH_RAM_BUFFER_MIB);
    }

    @Test
    void theDefaultsWhenUnset() {
        // the environment form (MEMORY_SEARCH_RAM_BUFFER_MIB) is what run.sh sets; a test JVM does not have it
        assertThat(System.getenv("MEMORY_SEARCH_RAM_BUFFER_MIB")).isNull();
        assertThat(MemoryChainRuntime.indexSettings()).isEqualTo(IndexSettings.DEFAULTS);
    }

    @Test
    void theProcessSettingChangesOnlyTheBuffer() {
        System.setProperty(MemoryChainRuntime.SEARCH_RAM_BUFFER_MIB, "8");
        assertThat(MemoryChainRuntime.indexSettings().ramBufferMb()).isEqualTo(8.0);
        assertThat(MemoryChainRuntime.indexSettings().withRamBufferMb(32)).isEqualTo(IndexSettings.DEFAULTS);
    }

    @Test
    void lessThanOneMibIsRefusedWithItsName() {
        System.setProperty(MemoryChainRuntime.SEARCH_RAM_BUFFER_MIB, "0.5");
        assertThatThrownBy(MemoryChainRuntime::indexSettings)
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("memory.search.ram-buffer-mib");
        System.setProperty(MemoryChainRuntime.SEARCH_RAM_BUFFER_MIB, "lots");
        assertThatThrownBy(MemoryChainRuntime::indexSettings)
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("memory.search.ram-buffer-mib")
                .hasMessageContaining("lots");
    }
}
