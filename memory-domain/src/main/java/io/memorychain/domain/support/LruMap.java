package io.memorychain.domain.support;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A map that holds at most {@code maxEntries}, dropping the least recently used first (access order). Not thread-safe:
 * its users lock around it or own it from one thread.
 */
public final class LruMap<K, V> extends LinkedHashMap<K, V> {

    private static final long serialVersionUID = 1L;

    private final int maxEntries;

    public LruMap(int maxEntries) {
        super(16, 0.75f, true);
        this.maxEntries = maxEntries;
    }

    @Override
    protected boolean removeEldestEntry(Map.Entry<K, V> eldest) {
        return size() > maxEntries;
    }
}
