package io.memorychain.projector.support;

import java.util.Map;
import org.apache.kafka.streams.state.RocksDBConfigSetter;
import org.rocksdb.BlockBasedTableConfig;
import org.rocksdb.Cache;
import org.rocksdb.LRUCache;
import org.rocksdb.Options;
import org.rocksdb.WriteBufferManager;

/**
 * One memory budget for every RocksDB store of every Memory Chain Streams application in the process
 * (docs/architecture.md §6, "Memory"): Kafka Streams' default gives each store instance its own 50 MiB block cache and
 * up to three 16 MiB memtables, and a service holds over a hundred store instances (some 38 stores, times the
 * partitions), so its native memory grew with the number of stores rather than with the data. Here all stores share one
 * LRU block cache of {@value #BLOCK_CACHE_MIB_CONFIG} MiB, whose part {@value #MEMTABLE_MIB_CONFIG} MiB bounds all
 * memtables together (a {@link WriteBufferManager} charged to the cache: a store flushes early when the total is
 * reached), index and filter blocks are cached in it too, and a store's memtables are small (so is the first arena
 * block each one allocates). This follows the bounded-memory configuration of the Kafka Streams documentation.
 *
 * <p>The sizes come from the Streams configuration (keys {@value #BLOCK_CACHE_MIB_CONFIG} and
 * {@value #MEMTABLE_MIB_CONFIG}); the first store opened in the process fixes them, since the cache is shared.
 */
public final class BoundedRocksDbMemory implements RocksDBConfigSetter {

    /** Streams configuration key: the shared block cache, MiB (memtables included). */
    public static final String BLOCK_CACHE_MIB_CONFIG = "memory.rocksdb.block-cache-mib";
    /** Streams configuration key: all memtables together, MiB (charged to the block cache). */
    public static final String MEMTABLE_MIB_CONFIG = "memory.rocksdb.memtable-mib";

    public static final int DEFAULT_BLOCK_CACHE_MIB = 48;
    public static final int DEFAULT_MEMTABLE_MIB = 16;
    /** One store's memtable: RocksDB allocates an eighth of it as the first arena block. */
    private static final long WRITE_BUFFER_BYTES = 2L * 1024 * 1024;

    private static final double INDEX_FILTER_BLOCK_RATIO = 0.1;
    /**
     * Every SST file is rewritten by a compaction at least this often (docs/architecture.md §12, erasure): an erased or
     * purged memory's old values, which a store keeps in older files until a compaction reaches them, are gone from the
     * state directories within a day.
     */
    public static final long PERIODIC_COMPACTION_SECONDS = 24L * 3600;

    private static Cache cache;
    private static WriteBufferManager writeBuffers;

    private static synchronized void init(Map<String, Object> configs) {
        if (cache == null) {
            long cacheBytes = mib(configs, BLOCK_CACHE_MIB_CONFIG, DEFAULT_BLOCK_CACHE_MIB);
            long memtableBytes = Math.min(cacheBytes / 2, mib(configs, MEMTABLE_MIB_CONFIG, DEFAULT_MEMTABLE_MIB));
            cache = new LRUCache(cacheBytes, -1, false, INDEX_FILTER_BLOCK_RATIO);
            writeBuffers = new WriteBufferManager(memtableBytes, cache);
        }
    }

    static long mib(Map<String, Object> configs, String key, int fallback) {
        Object value = configs.get(key);
        long mib = value == null ? fallback : Long.parseLong(value.toString().trim());
        if (mib < 1) {
            throw new IllegalArgumentException(key + " must be at least 1 MiB, was " + value);
        }
        return mib * 1024 * 1024;
    }

    @Override
    public void setConfig(String storeName, Options options, Map<String, Object> configs) {
        init(configs);
        BlockBasedTableConfig table = (BlockBasedTableConfig) options.tableFormatConfig();
        table.setBlockCache(cache);
        table.setCacheIndexAndFilterBlocks(true);
        table.setCacheIndexAndFilterBlocksWithHighPriority(true);
        table.setPinTopLevelIndexAndFilter(true);
        options.setTableFormatConfig(table);
        options.setWriteBufferManager(writeBuffers);
        options.setWriteBufferSize(WRITE_BUFFER_BYTES);
        options.setMaxWriteBufferNumber(2);
        options.setPeriodicCompactionSeconds(PERIODIC_COMPACTION_SECONDS);
    }

    @Override
    public void close(String storeName, Options options) {
        // the cache and the write buffer manager are shared by every store of the process: never closed per store
    }
}
