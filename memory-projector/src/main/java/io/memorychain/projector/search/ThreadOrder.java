package io.memorychain.projector.search;

import io.memorychain.avro.Memory;
import io.memorychain.avro.MemoryState;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Map;
import java.util.NavigableMap;
import java.util.NavigableSet;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.locks.ReadWriteLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;

/**
 * The active memories of every thread of the index, in {@code created_at} order (docs/architecture.md §7, thread
 * context): what {@link MemoryIndex#threadNeighbours} answers from, in memory, instead of two sorted index searches per
 * memory. It holds what the index holds (the latest version of each (space, id) that the index was given), so it is a
 * function of the same events, rebuilt with the index; a version that is not ACTIVE or has no thread leaves it.
 *
 * <p>Ties are broken as the sorted searches did: among memories with the same {@code created_at}, the previous
 * neighbour is the greatest id and the next one the smallest, ids compared as the index sorts them (UTF-8 bytes, which
 * is code-point order). It holds two map entries per threaded active memory.
 *
 * <p>Thread-safe: any number of readers, writers from several threads (a rebuild indexes on several).
 */
final class ThreadOrder {

    /** Index sort order of ids: their UTF-8 bytes, i.e. their code points (String.compareTo is UTF-16 order). */
    static final Comparator<String> ID_ORDER = (a, b) -> {
        int i = 0;
        int j = 0;
        while (i < a.length() && j < b.length()) {
            int ca = a.codePointAt(i);
            int cb = b.codePointAt(j);
            if (ca != cb) {
                return Integer.compare(ca, cb);
            }
            i += Character.charCount(ca);
            j += Character.charCount(cb);
        }
        return Boolean.compare(i < a.length(), j < b.length());
    };

    private record Key(String space, String name) {}

    private record Position(String thread, long createdAt) {}

    private final ReadWriteLock lock = new ReentrantReadWriteLock();
    /** (space, thread) to created_at to ids. */
    private final Map<Key, NavigableMap<Long, NavigableSet<String>>> threads = new HashMap<>();
    /** (space, id) to where the memory sits, for the memories held. */
    private final Map<Key, Position> positions = new HashMap<>();

    /** Holds this version of the memory in place of any earlier one of its (space, id). */
    void put(Memory memory) {
        Key key = new Key(memory.getSpace(), memory.getId());
        lock.writeLock().lock();
        try {
            remove(key);
            if (memory.getThreadId() != null && memory.getState() == MemoryState.ACTIVE) {
                long at = memory.getCreatedAt().toEpochMilli();
                positions.put(key, new Position(memory.getThreadId(), at));
                threads.computeIfAbsent(new Key(memory.getSpace(), memory.getThreadId()), k -> new TreeMap<>())
                        .computeIfAbsent(at, t -> new TreeSet<>(ID_ORDER))
                        .add(memory.getId());
            }
        } finally {
            lock.writeLock().unlock();
        }
    }

    /** Forgets the memory (no-op when not held). */
    void remove(String space, String id) {
        lock.writeLock().lock();
        try {
            remove(new Key(space, id));
        } finally {
            lock.writeLock().unlock();
        }
    }

    private void remove(Key memory) {
        Position p = positions.remove(memory);
        if (p == null) {
            return;
        }
        Key thread = new Key(memory.space(), p.thread());
        NavigableMap<Long, NavigableSet<String>> order = threads.get(thread);
        NavigableSet<String> ids = order.get(p.createdAt());
        ids.remove(memory.name());
        if (ids.isEmpty()) {
            order.remove(p.createdAt());
            if (order.isEmpty()) {
                threads.remove(thread);
            }
        }
    }

    /** See {@link MemoryIndex#threadNeighbours}: one lookup per memory, under one read lock. */
    Map<String, ThreadNeighbours> neighbours(String space, Collection<Memory> memories) {
        Map<String, ThreadNeighbours> out = new HashMap<>();
        lock.readLock().lock();
        try {
            for (Memory m : memories) {
                if (m.getThreadId() == null || !space.equals(m.getSpace())) {
                    continue;
                }
                NavigableMap<Long, NavigableSet<String>> order = threads.get(new Key(space, m.getThreadId()));
                long at = m.getCreatedAt().toEpochMilli();
                Map.Entry<Long, NavigableSet<String>> before = order == null ? null : order.lowerEntry(at);
                Map.Entry<Long, NavigableSet<String>> after = order == null ? null : order.higherEntry(at);
                out.put(
                        m.getId(),
                        new ThreadNeighbours(
                                before == null ? null : before.getValue().last(),
                                after == null ? null : after.getValue().first()));
            }
        } finally {
            lock.readLock().unlock();
        }
        return out;
    }
}
