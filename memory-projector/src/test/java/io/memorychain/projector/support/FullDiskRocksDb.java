package io.memorychain.projector.support;

import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.kafka.streams.state.RocksDBConfigSetter;
import org.rocksdb.Env;
import org.rocksdb.Options;
import org.rocksdb.RocksDBException;
import org.rocksdb.SstFileManager;

/**
 * Fault injection for the fault suite (docs/architecture.md §19, "Faults"): {@link BoundedRocksDbMemory}'s settings
 * plus, on every store, RocksDB's own disk-space accounting (an {@link SstFileManager}) whose limit {@link #fill()}
 * drops to one byte at run time. RocksDB then fails the next flush with {@code IO error: Max allowed space was reached}
 * and puts the store in read-only mode, so its next write fails, as on a full disk. Small memtables (64 KiB) make
 * stores flush after a few writes. Installed through {@code MemoryChainRuntime.ROCKSDB_CONFIG_SETTER}; test-only.
 */
public final class FullDiskRocksDb implements RocksDBConfigSetter {

    private static final long WRITE_BUFFER_BYTES = 64 * 1024;
    private static final Set<SstFileManager> LIVE = ConcurrentHashMap.newKeySet();
    private static volatile long limit; // 0: unlimited

    private final BoundedRocksDbMemory bounded = new BoundedRocksDbMemory();

    /** The disk is full: every store's next flush fails. */
    public static void fill() {
        limit = 1;
        LIVE.forEach(m -> m.setMaxAllowedSpaceUsage(1));
    }

    /** Space is free again: stores opened from now on (and the open ones) write normally. */
    public static void free() {
        limit = 0;
        LIVE.forEach(m -> m.setMaxAllowedSpaceUsage(0));
    }

    @Override
    public void setConfig(String storeName, Options options, Map<String, Object> configs) {
        bounded.setConfig(storeName, options, configs);
        options.setWriteBufferSize(WRITE_BUFFER_BYTES);
        try {
            SstFileManager files = new SstFileManager(Env.getDefault());
            files.setMaxAllowedSpaceUsage(limit);
            options.setSstFileManager(files);
            LIVE.add(files); // never closed: the store's RocksDB shares it until the JVM ends (test-only)
        } catch (RocksDBException e) {
            throw new IllegalStateException("Cannot create an SstFileManager for store " + storeName, e);
        }
    }

    @Override
    public void close(String storeName, Options options) {
        bounded.close(storeName, options);
    }
}
