package io.memorychain.projector.search;

import java.io.Closeable;
import java.io.IOException;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.SearcherManager;

/**
 * Near-real-time searchers with read-your-writes: every completed write bumps a counter, and a searcher is acquired
 * only after the reader has been reopened past the writes completed before the acquire. Reopening is lazy (at most once
 * per burst of writes, by the first reader that needs it), so a stream of writes without reads costs no reopen. While
 * {@link #hold() held} (during a rebuild) readers keep the last opened snapshot.
 */
final class FreshSearchers implements Closeable {

    private final SearcherManager manager;
    private final AtomicLong written = new AtomicLong();
    private final Object reopen = new Object();
    private volatile long visible;
    private volatile boolean held;

    FreshSearchers(IndexWriter writer) throws IOException {
        this.manager = new SearcherManager(writer, null);
    }

    /** Call after each completed write. */
    void written() {
        written.incrementAndGet();
    }

    /** A searcher that sees every write completed before this call (unless held). Release it. */
    IndexSearcher acquire() throws IOException {
        if (!held && visible < written.get()) {
            refresh();
        }
        return manager.acquire();
    }

    void release(IndexSearcher searcher) throws IOException {
        manager.release(searcher);
    }

    /** Reopens the reader past every completed write (no-op while held or when nothing changed). */
    void refresh() throws IOException {
        synchronized (reopen) {
            long target = written.get();
            if (held || visible >= target) {
                return;
            }
            manager.maybeRefreshBlocking();
            visible = target;
        }
    }

    /**
     * Makes every completed write visible, then freezes what readers see until {@link #release()}. Waits for a reopen
     * in flight, which must not see the writes that follow.
     */
    void hold() throws IOException {
        synchronized (reopen) {
            refresh();
            held = true;
        }
    }

    /** Unfreezes and reopens, so the next search sees everything written meanwhile. */
    void release() throws IOException {
        held = false;
        refresh();
    }

    @Override
    public void close() throws IOException {
        manager.close();
    }
}
