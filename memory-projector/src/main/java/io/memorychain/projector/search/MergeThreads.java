package io.memorychain.projector.search;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The search index's own thread pools: the threads that build one merged HNSW graph together, and the thread of a
 * background {@link GraphBuild}; small daemon pools whose idle threads expire.
 */
final class MergeThreads {

    private static final AtomicInteger POOLS = new AtomicInteger();

    private MergeThreads() {}

    /** A pool of {@code threads} threads, or null for 1 (Lucene then merges on the merge thread alone). */
    static ExecutorService pool(int threads) {
        if (threads == 1) {
            return null;
        }
        return daemons("search-index-merge-" + POOLS.incrementAndGet() + "-", threads);
    }

    /** A pool of {@code threads} daemon threads named {@code prefix} + a number; an idle one ends after 30 s. */
    static ExecutorService daemons(String prefix, int threads) {
        AtomicInteger count = new AtomicInteger();
        ThreadFactory factory = r -> {
            Thread t = new Thread(r, prefix + count.incrementAndGet());
            t.setDaemon(true);
            return t;
        };
        ThreadPoolExecutor pool =
                new ThreadPoolExecutor(threads, threads, 30, TimeUnit.SECONDS, new LinkedBlockingQueue<>(), factory);
        pool.allowCoreThreadTimeOut(true);
        return pool;
    }

    static void shutdown(ExecutorService executor) {
        if (executor != null) {
            executor.shutdown();
        }
    }
}
