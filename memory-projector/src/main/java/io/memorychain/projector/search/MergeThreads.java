package io.memorychain.projector.search;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/** The threads that build one merged HNSW graph together: a small daemon pool whose idle threads expire. */
final class MergeThreads {

    private static final AtomicInteger POOLS = new AtomicInteger();

    private MergeThreads() {
    }

    /** A pool of {@code threads} threads, or null for 1 (Lucene then merges on the merge thread alone). */
    static ExecutorService pool(int threads) {
        if (threads == 1) {
            return null;
        }
        String prefix = "search-index-merge-" + POOLS.incrementAndGet() + "-";
        AtomicInteger count = new AtomicInteger();
        ThreadFactory factory = r -> {
            Thread t = new Thread(r, prefix + count.incrementAndGet());
            t.setDaemon(true);
            return t;
        };
        ThreadPoolExecutor pool = new ThreadPoolExecutor(threads, threads, 30, TimeUnit.SECONDS,
                new LinkedBlockingQueue<>(), factory);
        pool.allowCoreThreadTimeOut(true);
        return pool;
    }

    static void shutdown(ExecutorService executor) {
        if (executor != null) {
            executor.shutdown();
        }
    }
}
