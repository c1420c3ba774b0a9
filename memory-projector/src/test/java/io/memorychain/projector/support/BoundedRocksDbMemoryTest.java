package io.memorychain.projector.support;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.rocksdb.BlockBasedTableConfig;
import org.rocksdb.Options;
import org.rocksdb.RocksDB;

/** The process-wide RocksDB budget: small memtables, index and filter blocks in the shared cache, sizes checked. */
class BoundedRocksDbMemoryTest {

    static {
        RocksDB.loadLibrary();
    }

    @Test
    void everyStoreGetsSmallMemtablesAndCachesItsIndexAndFilterBlocks() {
        BoundedRocksDbMemory setter = new BoundedRocksDbMemory();
        for (String store : new String[] {"view-memories", "view-history"}) {
            try (Options options = new Options()) {
                options.setTableFormatConfig(new BlockBasedTableConfig());
                setter.setConfig(store, options, Map.of(BoundedRocksDbMemory.BLOCK_CACHE_MIB_CONFIG, "8"));
                assertThat(options.writeBufferSize()).isEqualTo(2L * 1024 * 1024);
                assertThat(options.maxWriteBufferNumber()).isEqualTo(2);
                BlockBasedTableConfig table = (BlockBasedTableConfig) options.tableFormatConfig();
                assertThat(table.cacheIndexAndFilterBlocks()).isTrue();
                assertThat(table.pinTopLevelIndexAndFilter()).isTrue();
                setter.close(store, options);
            }
        }
    }

    @Test
    void sizesAreMebibytesOfAtLeastOne() {
        assertThat(BoundedRocksDbMemory.mib(Map.of("k", " 64 "), "k", 1)).isEqualTo(64L * 1024 * 1024);
        assertThat(BoundedRocksDbMemory.mib(Map.of(), "k", 48)).isEqualTo(48L * 1024 * 1024);
        assertThatThrownBy(() -> BoundedRocksDbMemory.mib(Map.of("k", "0"), "k", 1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("k must be at least 1 MiB");
    }
}
