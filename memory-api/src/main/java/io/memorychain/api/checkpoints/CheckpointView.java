package io.memorychain.api.checkpoints;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.rocksdb.Options;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;
import org.rocksdb.Snapshot;
import org.rocksdb.WriteBatch;
import org.rocksdb.WriteOptions;

/**
 * The checkpoints of the topic in a local RocksDB, built by one consumer thread ({@link #apply}) and read by request
 * threads: per thread, newest first, by a forward scan of its prefix (layout: {@link CheckpointKeys}). Values are the
 * topic's record values as written. The directory is emptied at open: the view is rebuilt from the topic at each start,
 * so it always is what the topic says.
 */
final class CheckpointView implements AutoCloseable {

    static {
        RocksDB.loadLibrary();
    }

    private final Options options;
    private final RocksDB db;
    private final WriteOptions writeOptions;

    CheckpointView(Path dir) {
        deleteRecursively(dir);
        try {
            Files.createDirectories(dir);
            options = new Options().setCreateIfMissing(true);
            db = RocksDB.open(options, dir.toString());
            writeOptions = new WriteOptions().setDisableWAL(true);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot create the checkpoint view at " + dir, e);
        } catch (RocksDBException e) {
            throw new IllegalStateException("Cannot open the checkpoint view at " + dir + ": " + e.getMessage(), e);
        }
    }

    /**
     * One record of the topic: a value saves (replacing the id's earlier entry), null deletes.
     *
     * @param position the value's position (ignored for a delete)
     */
    void apply(Checkpoint.ThreadRef thread, String id, long position, byte[] value) throws RocksDBException {
        byte[] index = CheckpointKeys.index(thread, id);
        byte[] previous = db.get(index);
        try (WriteBatch batch = new WriteBatch()) {
            if (previous != null) {
                batch.delete(CheckpointKeys.data(thread, CheckpointKeys.longOf(previous), id));
            }
            if (value == null) {
                batch.delete(index);
            } else {
                batch.put(index, CheckpointKeys.longBytes(position));
                batch.put(CheckpointKeys.data(thread, position, id), value);
            }
            db.write(writeOptions, batch);
        }
    }

    /** The position of a checkpoint id, if the view has it. */
    Optional<Long> position(Checkpoint.ThreadRef thread, String id) {
        try {
            byte[] position = db.get(CheckpointKeys.index(thread, id));
            return Optional.ofNullable(position).map(CheckpointKeys::longOf);
        } catch (RocksDBException e) {
            throw new IllegalStateException("Cannot read the checkpoint view: " + e.getMessage(), e);
        }
    }

    Optional<byte[]> get(Checkpoint.ThreadRef thread, String id) {
        try (Snapshot snapshot = db.getSnapshot();
                ReadOptions read = new ReadOptions().setSnapshot(snapshot)) {
            try {
                byte[] position = db.get(read, CheckpointKeys.index(thread, id));
                return position == null
                        ? Optional.empty()
                        : Optional.ofNullable(
                                db.get(read, CheckpointKeys.data(thread, CheckpointKeys.longOf(position), id)));
            } finally {
                db.releaseSnapshot(snapshot);
            }
        } catch (RocksDBException e) {
            throw new IllegalStateException("Cannot read the checkpoint view: " + e.getMessage(), e);
        }
    }

    /** Values of the thread newest first, older than {@code before} (null: from the newest), at most {@code limit}. */
    List<byte[]> list(Checkpoint.ThreadRef thread, Long before, int limit) {
        byte[] prefix = CheckpointKeys.scanPrefix(CheckpointKeys.DATA, thread);
        byte[] start = before == null ? prefix : CheckpointKeys.dataFrom(thread, before - 1);
        List<byte[]> out = new ArrayList<>();
        try (ReadOptions read = new ReadOptions();
                RocksIterator it = db.newIterator(read)) {
            for (it.seek(start);
                    it.isValid() && out.size() < limit && CheckpointKeys.startsWith(it.key(), prefix);
                    it.next()) {
                out.add(it.value());
            }
        }
        return out;
    }

    /** The ids of the thread's checkpoints. */
    List<String> ids(Checkpoint.ThreadRef thread) {
        byte[] prefix = CheckpointKeys.scanPrefix(CheckpointKeys.INDEX, thread);
        List<String> out = new ArrayList<>();
        try (ReadOptions read = new ReadOptions();
                RocksIterator it = db.newIterator(read)) {
            for (it.seek(prefix); it.isValid() && CheckpointKeys.startsWith(it.key(), prefix); it.next()) {
                out.add(CheckpointKeys.idOfIndex(it.key(), prefix.length));
            }
        }
        return out;
    }

    @Override
    public void close() {
        db.close();
        writeOptions.close();
        options.close();
    }

    private static void deleteRecursively(Path dir) {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot empty the checkpoint view at " + dir, e);
        }
    }
}
