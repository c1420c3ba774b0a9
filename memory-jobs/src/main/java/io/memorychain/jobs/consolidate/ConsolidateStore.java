package io.memorychain.jobs.consolidate;

import io.memorychain.avro.Memory;
import io.memorychain.avro.view.AccessStats;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.rocksdb.BlockBasedTableConfig;
import org.rocksdb.LRUCache;
import org.rocksdb.Options;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;
import org.rocksdb.WriteOptions;

/**
 * Where the consolidation job keeps its copy of every memory and vector: a RocksDB database of its own on local disk,
 * not the heap (a million memories with their vectors are ~4 GiB). It is scratch state: the job rebuilds it from the
 * chain on every start and assignment ({@link #clear()}), so the database is emptied when opened, written without a
 * write-ahead log, and deleted when closed. Memories are kept as they are on the chain (texts still encrypted: the job
 * decrypts only what a run plans with), each with the seq of the event that introduced its current content; vectors are
 * kept per (memory, content hash) with the seq they embedded and whether their record was live; and the read counts of
 * each memory ({@code memory.access.v1}); and the event records a space's pending run holds back (however long the
 * embedder keeps it waiting), until it is planned.
 *
 * <p>One process at a time: the store holds a lock on {@code <dir>.lock} beside its directory while open, so a second
 * job given the same directory fails at once, naming it, instead of emptying the first one's files.
 *
 * <p>Native memory: one 4 MiB block cache and at most two 2 MiB memtables (what the cache misses is read through the
 * operating system's page cache). Used from the job's thread only.
 */
final class ConsolidateStore implements AutoCloseable {

    /** A memory as stored: its snapshot on the chain and the seq of the event that introduced its content. */
    record Stored(Memory memory, long contentSeq) {}

    /** A vector as stored. */
    record Vector(long seq, float[] values, boolean live) {}

    /** An event record held back behind its space's pending run, and whether the record was live. */
    record Held(byte[] record, boolean live) {}

    private static final byte MEMORY = 'm';
    private static final byte VECTOR = 'v';
    private static final byte HELD = 'h';
    private static final byte ACCESS = 'a';
    private static final long CACHE_BYTES = 4L * 1024 * 1024;
    private static final long WRITE_BUFFER_BYTES = 2L * 1024 * 1024;

    static {
        RocksDB.loadLibrary();
    }

    private final Path dir;
    /** Holds the lock on {@code <dir>.lock} while open. */
    private final FileChannel lockFile;

    private final LRUCache cache = new LRUCache(CACHE_BYTES);
    private final Options options = new Options()
            .setCreateIfMissing(true)
            .setWriteBufferSize(WRITE_BUFFER_BYTES)
            .setMaxWriteBufferNumber(2)
            .setTableFormatConfig(new BlockBasedTableConfig().setBlockCache(cache));
    private final WriteOptions writes = new WriteOptions().setDisableWAL(true);
    private RocksDB db;

    private ConsolidateStore(Path dir, FileChannel lockFile) {
        this.dir = dir;
        this.lockFile = lockFile;
    }

    /**
     * Opens an empty store in {@code dir}, deleting whatever an earlier run left there; fails when another open store
     * (in this process or another) uses the directory.
     */
    static ConsolidateStore open(Path dir) {
        Path absolute = Objects.requireNonNull(dir, "dir").toAbsolutePath().normalize();
        Path lockPath = absolute.resolveSibling(absolute.getFileName() + ".lock");
        FileChannel channel = null;
        try {
            Files.createDirectories(absolute.getParent());
            channel = FileChannel.open(lockPath, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
            if (tryLock(channel) == null) {
                throw new IllegalStateException("consolidate: its state directory " + absolute + " is in use by "
                        + "another consolidation job (" + lockPath + " is locked); give each job its own --state-dir");
            }
            ConsolidateStore store = new ConsolidateStore(absolute, channel);
            store.reopen();
            return store;
        } catch (IOException e) {
            closeQuietly(channel);
            throw new UncheckedIOException("consolidate: cannot lock its state directory with " + lockPath, e);
        } catch (RuntimeException e) {
            closeQuietly(channel);
            throw e;
        }
    }

    /** The lock, or null when another holder has it (a channel of this process counts as another holder). */
    private static FileLock tryLock(FileChannel channel) throws IOException {
        try {
            return channel.tryLock();
        } catch (OverlappingFileLockException e) {
            return null;
        }
    }

    private static void closeQuietly(FileChannel channel) {
        if (channel != null) {
            try {
                channel.close(); // releases its lock
            } catch (IOException ignored) {
                // nothing left to release
            }
        }
    }

    /** Forgets everything (the job's reset). */
    void clear() {
        reopen();
    }

    private void reopen() {
        if (db != null) {
            db.close();
        }
        delete(dir);
        try {
            Files.createDirectories(dir);
            db = RocksDB.open(options, dir.toString());
        } catch (IOException e) {
            throw new UncheckedIOException("consolidate: cannot create its state directory " + dir, e);
        } catch (RocksDBException e) {
            throw new IllegalStateException("consolidate: cannot open its state in " + dir + ": " + e.getMessage(), e);
        }
    }

    Stored memory(String space, String id) {
        byte[] value = get(key(MEMORY, space, id));
        return value == null ? null : stored(value);
    }

    private static Stored stored(byte[] value) {
        ByteBuffer buffer = ByteBuffer.wrap(value);
        long contentSeq = buffer.getLong();
        try {
            return new Stored(Memory.fromByteBuffer(buffer.slice()), contentSeq);
        } catch (IOException e) {
            throw new UncheckedIOException("consolidate: unreadable memory in its own state", e);
        }
    }

    void put(String space, Memory memory, long contentSeq) {
        ByteBuffer encoded;
        try {
            encoded = memory.toByteBuffer();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        ByteBuffer value = ByteBuffer.allocate(Long.BYTES + encoded.remaining());
        value.putLong(contentSeq).put(encoded);
        put(key(MEMORY, space, memory.getId()), value.array());
    }

    /** Every memory of the space, in key order. */
    void forEachMemory(String space, Consumer<Stored> action) {
        forEachWithPrefix(prefix(MEMORY, space), (key, value) -> action.accept(stored(value)));
    }

    Vector vector(String space, String id, String contentHash) {
        byte[] value = get(vectorKey(space, id, contentHash));
        return value == null ? null : decode(value);
    }

    /** Stores the vector; true when the memory had none of that content hash. */
    boolean put(String space, String id, String contentHash, Vector vector) {
        byte[] key = vectorKey(space, id, contentHash);
        boolean added = get(key) == null;
        ByteBuffer value = ByteBuffer.allocate(Long.BYTES + 1 + Float.BYTES * vector.values().length);
        value.putLong(vector.seq()).put((byte) (vector.live() ? 1 : 0));
        value.asFloatBuffer().put(vector.values());
        put(key, value.array());
        return added;
    }

    /** Deletes the memory's vectors that embedded a seq below {@code seq}; returns how many. */
    int removeVectorsBefore(String space, String id, long seq) {
        List<byte[]> stale = new ArrayList<>(2);
        forEachWithPrefix(vectorPrefix(space, id), (key, value) -> {
            if (ByteBuffer.wrap(value).getLong() < seq) {
                stale.add(key);
            }
        });
        stale.forEach(this::remove);
        return stale.size();
    }

    /** The memory's read counts from {@code memory.access.v1}; null when it was never read. */
    AccessStats access(String space, String id) {
        byte[] value = get(key(ACCESS, space, id));
        if (value == null) {
            return null;
        }
        try {
            return AccessStats.fromByteBuffer(ByteBuffer.wrap(value));
        } catch (IOException e) {
            throw new UncheckedIOException("consolidate: unreadable access stats in its own state", e);
        }
    }

    void putAccess(String space, String id, AccessStats stats) {
        try {
            ByteBuffer encoded = stats.toByteBuffer();
            byte[] value = new byte[encoded.remaining()];
            encoded.get(value);
            put(key(ACCESS, space, id), value);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Keeps an event record of the space at {@code position} of its held events (the caller numbers them). */
    void hold(String space, long position, byte[] record, boolean live) {
        byte[] value = new byte[1 + record.length];
        value[0] = (byte) (live ? 1 : 0);
        System.arraycopy(record, 0, value, 1, record.length);
        put(heldKey(space, position), value);
    }

    /** Takes the space's event record held at {@code position} out of the store; null if there is none. */
    Held release(String space, long position) {
        byte[] key = heldKey(space, position);
        byte[] value = get(key);
        if (value == null) {
            return null;
        }
        remove(key);
        return new Held(Arrays.copyOfRange(value, 1, value.length), value[0] == 1);
    }

    /** Every key under {@code prefix} with its value, in key order. */
    private void forEachWithPrefix(byte[] prefix, BiConsumer<byte[], byte[]> action) {
        try (RocksIterator it = db.newIterator()) {
            for (it.seek(prefix); it.isValid() && startsWith(it.key(), prefix); it.next()) {
                action.accept(it.key(), it.value());
            }
        }
    }

    private static Vector decode(byte[] value) {
        ByteBuffer buffer = ByteBuffer.wrap(value);
        long seq = buffer.getLong();
        boolean live = buffer.get() == 1;
        float[] values = new float[buffer.remaining() / Float.BYTES];
        buffer.asFloatBuffer().get(values);
        return new Vector(seq, values, live);
    }

    private byte[] get(byte[] key) {
        try {
            return db.get(key);
        } catch (RocksDBException e) {
            throw failure("read", e);
        }
    }

    private void put(byte[] key, byte[] value) {
        try {
            db.put(writes, key, value);
        } catch (RocksDBException e) {
            throw failure("write", e);
        }
    }

    private void remove(byte[] key) {
        try {
            db.delete(writes, key);
        } catch (RocksDBException e) {
            throw failure("delete", e);
        }
    }

    private IllegalStateException failure(String what, RocksDBException e) {
        return new IllegalStateException(
                "consolidate: cannot " + what + " its state in " + dir + ": " + e.getMessage(), e);
    }

    /** {@code type, len(space), space}: length-prefixed, so one space's keys never prefix another's. */
    private static byte[] prefix(byte type, String space) {
        return concat(new byte[] {type}, part(space));
    }

    private static byte[] key(byte type, String space, String id) {
        return concat(prefix(type, space), part(id));
    }

    private static byte[] vectorPrefix(String space, String id) {
        return key(VECTOR, space, id);
    }

    private static byte[] vectorKey(String space, String id, String contentHash) {
        return concat(vectorPrefix(space, id), part(contentHash));
    }

    private static byte[] heldKey(String space, long position) {
        return concat(
                prefix(HELD, space),
                ByteBuffer.allocate(Long.BYTES).putLong(position).array());
    }

    private static byte[] part(String text) {
        byte[] utf8 = text.getBytes(StandardCharsets.UTF_8);
        return ByteBuffer.allocate(Integer.BYTES + utf8.length)
                .putInt(utf8.length)
                .put(utf8)
                .array();
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] all = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, all, a.length, b.length);
        return all;
    }

    private static boolean startsWith(byte[] key, byte[] prefix) {
        return key.length >= prefix.length && Arrays.equals(key, 0, prefix.length, prefix, 0, prefix.length);
    }

    private static void delete(Path dir) {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("consolidate: cannot empty its state directory " + dir, e);
        }
    }

    @Override
    public void close() {
        if (db != null) {
            db.close();
            db = null;
        }
        writes.close();
        options.close();
        cache.close();
        delete(dir);
        closeQuietly(
                lockFile); // releases the lock; the file stays: deleting it could let two later jobs lock two files
    }
}
