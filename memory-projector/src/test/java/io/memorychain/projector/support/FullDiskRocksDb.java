package io.memorychain.projector.support;

import java.util.Map;
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
 * stores flush after a few writes. Installed through {@code StreamsProperties.ROCKSDB_CONFIG_SETTER}; test-only.
 */
public final class FullDiskRocksDb implements RocksDBConfigSetter {

    private static final long WRITE_BUFFER_BYTES = 64 * 1024;
    private static final Map<SstFileManager, String> LIVE = new ConcurrentHashMap<>(); // to its store's name
    private static volatile long limit; // 0: unlimited
    private static volatile String only; // null: every store

    private final BoundedRocksDbMemory bounded = new BoundedRocksDbMemory();

    /** The disk is full: every store's next flush fails. */
    public static void fill() {
        fill(null);
    }

    /** Only the stores named {@code storeName} (every task's) see a full disk. */
    public static void fillOnly(String storeName) {
        fill(storeName);
    }

    private static synchronized void fill(String storeName) {
        only = storeName;
        limit = 1;
        LIVE.forEach((m, store) -> m.setMaxAllowedSpaceUsage(affected(store) ? 1 : 0));
    }

    /** Space is free again: stores opened from now on (and the open ones) write normally. */
    public static synchronized void free() {
        limit = 0;
        only = null;
        LIVE.forEach((m, store) -> m.setMaxAllowedSpaceUsage(0));
    }

    private static boolean affected(String storeName) {
        return only == null || only.equals(storeName);
    }

    @Override
    public void setConfig(String storeName, Options options, Map<String, Object> configs) {
        bounded.setConfig(storeName, options, configs);
        options.setWriteBufferSize(WRITE_BUFFER_BYTES);
        try {
            SstFileManager files = new SstFileManager(Env.getDefault());
            files.setMaxAllowedSpaceUsage(affected(storeName) ? limit : 0);
            options.setSstFileManager(files);
            LIVE.put(files, storeName); // never closed: the store's RocksDB shares it until the JVM ends (test-only)
        } catch (RocksDBException e) {
            throw new IllegalStateException("Cannot create an SstFileManager for store " + storeName, e);
        }
    }

    @Override
    public void close(String storeName, Options options) {
        bounded.close(storeName, options);
    }
}
