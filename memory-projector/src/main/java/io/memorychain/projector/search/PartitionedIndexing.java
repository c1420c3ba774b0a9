package io.memorychain.projector.search;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.LongConsumer;

/**
 * Feeds the entries of one iterator to several indexing threads. The iterator is only used by the calling thread (a
 * store scan may not be thread-safe); each entry goes to the thread chosen by its key, so the entries for one key are
 * indexed by one thread in iteration order and a later entry replaces an earlier one as it would single-threaded. The
 * first failure (of the iterator or of any thread) stops the feeding, lets every thread finish the entry in hand, and
 * is rethrown.
 */
final class PartitionedIndexing {

    /** Indexes one entry; called concurrently from several threads, in order for entries of the same key. */
    @FunctionalInterface
    interface Sink {
        void index(IndexEntry entry) throws IOException;
    }

    private static final IndexEntry END = new IndexEntry(null, null);
    private static final int QUEUE = 256;
    private static final long POLL_MILLIS = 50;

    private final int threads;
    private final Sink sink;
    private final AtomicReference<Throwable> failure = new AtomicReference<>();

    PartitionedIndexing(int threads, Sink sink) {
        this.threads = threads;
        this.sink = sink;
    }

    /**
     * Indexes every entry and returns their number once all are indexed.
     *
     * @param fed called on the calling thread with the number of entries handed out so far, after each one
     */
    long run(Iterator<IndexEntry> entries, LongConsumer fed) throws IOException {
        if (threads == 1) {
            long count = 0;
            while (entries.hasNext()) {
                sink.index(entries.next());
                fed.accept(++count);
            }
            return count;
        }
        List<BlockingQueue<IndexEntry>> queues = new ArrayList<>(threads);
        List<Thread> workers = new ArrayList<>(threads);
        for (int i = 0; i < threads; i++) {
            BlockingQueue<IndexEntry> queue = new ArrayBlockingQueue<>(QUEUE);
            queues.add(queue);
            Thread worker = new Thread(() -> work(queue), "search-index-rebuild-" + i);
            worker.setDaemon(true);
            workers.add(worker);
        }
        workers.forEach(Thread::start);
        long count = 0;
        try {
            while (failure.get() == null && entries.hasNext()) {
                IndexEntry entry = entries.next();
                if (!hand(queues.get(partition(entry)), entry)) {
                    break;
                }
                fed.accept(++count);
            }
        } catch (RuntimeException | Error e) {
            failure.compareAndSet(null, e);
        } finally {
            finish(queues, workers);
        }
        rethrow(failure.get());
        return count;
    }

    private int partition(IndexEntry entry) {
        String space = entry.memory().getSpace();
        String id = entry.memory().getId();
        return Math.floorMod(31 * space.hashCode() + id.hashCode(), threads);
    }

    /** Waits for room in the queue; false when a failure stopped the run meanwhile. */
    private boolean hand(BlockingQueue<IndexEntry> queue, IndexEntry entry) {
        try {
            while (!queue.offer(entry, POLL_MILLIS, TimeUnit.MILLISECONDS)) {
                if (failure.get() != null) {
                    return false;
                }
            }
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            failure.compareAndSet(null, new InterruptedIOException("rebuild interrupted"));
            return false;
        }
    }

    private void work(BlockingQueue<IndexEntry> queue) {
        try {
            for (IndexEntry entry = queue.take(); entry != END; entry = queue.take()) {
                if (failure.get() == null) { // after a failure, drain to the end marker without indexing
                    sink.index(entry);
                }
            }
        } catch (Throwable t) { // recorded and rethrown by the feeding thread
            failure.compareAndSet(null, t);
            queue.clear(); // the feeder stops on the failure; room for the end marker
        }
    }

    /** Ends every worker (after its queue, or at once after a failure) and waits for it, even if interrupted. */
    private void finish(List<BlockingQueue<IndexEntry>> queues, List<Thread> workers) {
        boolean interrupted = Thread.interrupted();
        for (int i = 0; i < threads; i++) {
            BlockingQueue<IndexEntry> queue = queues.get(i);
            Thread worker = workers.get(i);
            if (failure.get() != null) {
                queue.clear();
            }
            while (worker.isAlive() && !queue.offer(END)) {
                interrupted |= join(worker, POLL_MILLIS);
                if (failure.get() != null) {
                    queue.clear();
                }
            }
        }
        for (Thread worker : workers) {
            while (worker.isAlive()) {
                interrupted |= join(worker, 0);
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    /** True when interrupted while waiting. */
    private static boolean join(Thread worker, long millis) {
        try {
            worker.join(millis);
            return false;
        } catch (InterruptedException e) {
            return true;
        }
    }

    private static void rethrow(Throwable t) throws IOException {
        if (t == null) {
            return;
        }
        if (t instanceof IOException io) {
            throw io;
        }
        if (t instanceof RuntimeException r) {
            throw r;
        }
        if (t instanceof Error e) {
            throw e;
        }
        throw new IllegalStateException("rebuild failed", t);
    }
}
