package io.memorychain.projector.search;

import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.store.AlreadyClosedException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Builds the HNSW graphs of an index's graphless segments ({@link GraphlessVectorsFormat}) in the background, by
 * merging the index into one segment, which the index's codec writes with a graph. Until a build ends, kNN searches of
 * those segments are exact. Builds run one at a time on a daemon thread of this index (only while one is pending); the
 * merge itself runs on Lucene's merge threads and, with {@link IndexSettings.Hnsw#mergeThreads()} above 1, on that many
 * graph workers.
 *
 * <p>Deletions that arrive during a build stay in the merged segment as deleted documents, so deletions that must leave
 * the files (an erasure, {@link MemoryIndex#expungeDeletes()}) {@link #expungeAfter() ask} to be expunged again when
 * the build ends.
 */
final class GraphBuild implements java.io.Closeable {

    private static final Logger log = LoggerFactory.getLogger(GraphBuild.class);
    private static final AtomicInteger BUILDERS = new AtomicInteger();

    private final IndexWriter writer;
    private final ExpungingMergePolicy policy;
    private final Runnable merged;
    private final ExecutorService thread;
    private final AtomicLong requested = new AtomicLong();
    private final AtomicLong finished = new AtomicLong();
    private volatile boolean expungeAfter;
    private volatile boolean closed;

    /** @param merged called after each build that merged, to reopen the searches onto the graphs */
    GraphBuild(IndexWriter writer, ExpungingMergePolicy policy, Runnable merged) {
        this.writer = writer;
        this.policy = policy;
        this.merged = merged;
        // one thread, and none idle between builds
        this.thread = MergeThreads.daemons("search-index-graphs-" + BUILDERS.incrementAndGet() + "-", 1);
    }

    /** Starts a build after any build in flight (whose segments may not include the latest graphless ones). */
    void start() {
        long ticket = requested.incrementAndGet();
        thread.execute(() -> build(ticket));
    }

    /** True while a build is queued or running. */
    boolean pending() {
        return finished.get() < requested.get();
    }

    /** Makes the build in flight, if any, expunge deleted documents when it ends. */
    void expungeAfter() {
        expungeAfter = true;
    }

    /** Waits until no build is pending; false when the timeout passed first. */
    boolean await(Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        synchronized (finished) {
            while (pending()) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    return false;
                }
                TimeUnit.NANOSECONDS.timedWait(finished, left);
            }
        }
        return true;
    }

    private void build(long ticket) {
        long started = System.nanoTime();
        try {
            if (ticket == requested.get()) { // a later request runs the same merge: skip the earlier ones
                log.info("search index: building the HNSW graphs of {} documents", writer.getDocStats().numDocs);
                policy.rewriteAll(true); // a lone graphless segment is rewritten too
                try {
                    writer.forceMerge(1, true);
                } finally {
                    policy.rewriteAll(false);
                }
                if (expungeAfter) {
                    expungeAfter = false;
                    writer.forceMergeDeletes(true);
                }
                merged.run();
                log.info("search index: HNSW graphs built in {} ms", (System.nanoTime() - started) / 1_000_000);
            }
        } catch (AlreadyClosedException e) {
            log.debug("search index closed during its graph build");
        } catch (IOException | RuntimeException e) {
            if (closed || stopped(e)) {
                log.info(
                        "search index: the HNSW graph build stopped after {} ms (index closed or cleared)",
                        (System.nanoTime() - started) / 1_000_000);
                return;
            }
            // searches stay exact on the graphless segments; a later rebuild or restart builds them again
            log.warn(
                    "search index: the HNSW graph build failed after {} ms: {}",
                    (System.nanoTime() - started) / 1_000_000,
                    e.toString());
        } finally {
            synchronized (finished) {
                finished.accumulateAndGet(ticket, Math::max);
                finished.notifyAll();
            }
        }
    }

    private static boolean stopped(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof org.apache.lucene.index.MergePolicy.MergeAbortedException) {
                return true;
            }
        }
        return e.getMessage() != null && e.getMessage().contains("[ABORTED]");
    }

    /**
     * Lets the thread end: a build in flight ends when the writer is closed (its merge is stopped, see
     * {@link VectorCodec#stopGraphs}), one queued finds the writer closed. Never interrupts the thread: an interrupt
     * during Lucene's file I/O closes the channel, here the write lock's, and the writer's close then failed with
     * "FileLock invalidated by an external force".
     */
    @Override
    public void close() {
        closed = true;
        thread.shutdown();
    }
}
