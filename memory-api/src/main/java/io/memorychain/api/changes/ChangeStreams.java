package io.memorychain.api.changes;

import io.memorychain.api.backend.MemoryBackend;
import io.memorychain.api.error.ApiException;
import io.memorychain.api.error.ErrorCodes;
import io.memorychain.api.request.Spaces;
import io.memorychain.avro.view.AuditEntry;
import io.memorychain.projector.view.MemoryViews;
import io.micronaut.context.event.ApplicationEventListener;
import io.micronaut.runtime.server.event.ServerShutdownEvent;
import jakarta.annotation.PreDestroy;
import jakarta.inject.Inject;
import jakarta.inject.Provider;
import jakarta.inject.Singleton;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A space's changes as a stream, for every transport (gRPC {@code WatchChanges}, REST server-sent events at {@code GET
 * /v1/spaces/{space}/changes}): the space's audit entries after a seq, then each new one, until the client cancels, its
 * caller may no longer watch, or the server stops. Each transport sends through its {@link ChangeSink}.
 *
 * <p>How: each stream has its own thread (a cached pool, so an idle server holds none) that follows the local
 * projection's views rather than the events topic, so the entries are exactly what {@code GET /audit} shows and need no
 * consumer per stream. The thread reads the audit view after the last seq it sent (pages of {@value #PAGE}), sends what
 * it found, then blocks in {@link MemoryViews#awaitApplied} until the projection applies a newer seq of that space (the
 * same notification read-your-writes waits on; no polling loop), at most {@code wait} at a time so that a cancelled or
 * shut-down stream is noticed, a revoked caller is refused ({@link Watcher#stillAllowed}) and the sink may send a
 * keep-alive ({@link ChangeSink#idle}). It respects flow control: it sends only while the sink is ready, so a slow
 * reader holds back its own stream and never fills the server's memory.
 *
 * <p>Limits: the space's partition must be projected by this instance (true for the embedded single instance; with
 * several instances, clients must watch on the instance that owns the space). On shutdown every open stream ends
 * ({@link ChangeSink.ShuttingDown}); a client resumes after the last seq it received.
 */
@Singleton
public class ChangeStreams implements ApplicationEventListener<ServerShutdownEvent> {

    static final int PAGE = 500;
    private static final Logger log = LoggerFactory.getLogger(ChangeStreams.class);

    private final Provider<MemoryBackend> backend;
    private final Duration wait;
    private final ExecutorService threads = Executors.newCachedThreadPool(new ThreadFactory() {
        private final AtomicInteger n = new AtomicInteger();

        @Override
        public Thread newThread(Runnable r) {
            Thread t = new Thread(r, "change-stream-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        }
    });
    private final Set<Stream<?>> open = ConcurrentHashMap.newKeySet();
    private volatile boolean closed;

    /**
     * The backend is looked up when a stream starts, not when this bean is made: the shutdown event can create this
     * bean after the backend was closed, and must not start a new backend then.
     */
    @Inject
    public ChangeStreams(Provider<MemoryBackend> backend) {
        this(backend, Duration.ofSeconds(1));
    }

    /** @param wait the longest single wait for a new seq before the stream checks whether it was cancelled */
    public ChangeStreams(Provider<MemoryBackend> backend, Duration wait) {
        this.backend = backend;
        this.wait = wait;
    }

    /**
     * Who watches, as the stream sees it for as long as it lasts.
     *
     * @param stillAllowed throws (e.g. UNAUTHENTICATED once the caller's key is revoked) when the caller may no longer
     *     watch; checked before each page and at least every {@code wait}, and the stream then ends with that error
     * @param shown each entry as the caller may see it ({@link io.memorychain.api.audit.AuditLog#entry}) in the
     *     transport's form
     */
    public record Watcher<T>(Runnable stillAllowed, Function<AuditEntry, T> shown) {}

    /**
     * A stream of {@code space}'s entries after seq {@code after}, checked but not started: the transport wires its
     * cancel and ready signals to it, then calls {@link Stream#start}.
     *
     * @param afterName how the transport names {@code after} (since_rev, after_seq), for the error message
     * @throws ApiException INVALID_ARGUMENT for a bad space name or a negative seq
     */
    public <T> Stream<T> open(String space, long after, String afterName, Watcher<T> watcher, ChangeSink<T> sink) {
        Spaces.require(space);
        if (after < 0) {
            throw ApiException.invalid(afterName + " must be 0 or more, was " + after);
        }
        return new Stream<>(space, after, watcher, sink);
    }

    /** Open streams (for tests and metrics). */
    public int openStreams() {
        return open.size();
    }

    /** Open streams of one space. */
    public int openStreams(String space) {
        return (int) open.stream().filter(s -> s.space.equals(space)).count();
    }

    /** A server stops (gRPC or HTTP): end every stream now, or its graceful shutdown would wait for them. */
    @Override
    public void onApplicationEvent(ServerShutdownEvent event) {
        close();
    }

    @PreDestroy
    public void close() {
        closed = true;
        open.forEach(Stream::wake);
        threads.shutdown();
        try {
            if (!threads.awaitTermination(5, TimeUnit.SECONDS)) {
                threads.shutdownNow();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            threads.shutdownNow();
        }
    }

    private static ApiException shuttingDown() {
        return new ApiException(
                ErrorCodes.UNAVAILABLE,
                "the server is shutting down: watch again after the last seq "
                        + "received (elsewhere, or once it is back)");
    }

    /** One stream: its own thread runs {@link #run}; the transport's handlers only set flags and wake it. */
    public final class Stream<T> implements Runnable {

        private final String space;
        private final Watcher<T> watcher;
        private final ChangeSink<T> sink;
        private long last;
        private volatile boolean cancelled;

        private Stream(String space, long after, Watcher<T> watcher, ChangeSink<T> sink) {
            this.space = space;
            this.last = after;
            this.watcher = watcher;
            this.sink = sink;
        }

        /**
         * Starts sending on the stream's own thread.
         *
         * @throws ApiException UNAVAILABLE when the server is shutting down
         */
        public void start() {
            if (closed) {
                throw shuttingDown();
            }
            open.add(this);
            try {
                threads.execute(this);
            } catch (RejectedExecutionException e) {
                open.remove(this);
                throw shuttingDown();
            }
        }

        /** The client went away: nothing more is sent, and {@link ChangeSink#end} is not called. */
        public void cancel() {
            cancelled = true;
            wake();
        }

        /** The sink may be ready again (or something else changed): the stream looks now instead of after its wait. */
        public synchronized void wake() {
            notifyAll();
        }

        @Override
        public void run() {
            RuntimeException failure = null;
            try {
                MemoryViews views = backend.get().views();
                while (live()) {
                    watcher.stillAllowed().run();
                    long applied = views.appliedSeq(space);
                    List<AuditEntry> entries = views.audit(space, last, PAGE);
                    for (AuditEntry entry : entries) {
                        if (!awaitReady()) {
                            return;
                        }
                        sink.send(watcher.shown().apply(entry));
                        last = entry.getSeq();
                    }
                    if (entries.size() < PAGE) {
                        // the next seq after what the views showed; max() so that a seq applied without an audit
                        // entry (a dead-lettered event) is not waited for forever, nor spun on
                        if (!awaitApplied(views, Math.max(last, applied) + 1) && live() && sink.ready()) {
                            sink.idle();
                        }
                    }
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (RuntimeException e) {
                failure = e;
            } finally {
                open.remove(this);
                finish(failure);
            }
        }

        private boolean live() {
            return !cancelled && !closed && !Thread.currentThread().isInterrupted();
        }

        /** Blocks until the projection applied {@code seq} (true), or {@code wait} passed, or the stream ends. */
        private boolean awaitApplied(MemoryViews views, long seq) throws InterruptedException {
            long start = System.nanoTime();
            if (views.awaitApplied(space, seq, wait)) {
                return true;
            }
            // a views implementation that answers before its timeout must not turn this into a busy loop
            long left = wait.toNanos() - (System.nanoTime() - start);
            if (left > 0) {
                synchronized (this) {
                    if (live()) {
                        TimeUnit.NANOSECONDS.timedWait(this, left);
                    }
                }
            }
            return false;
        }

        /** Flow control: waits until the client can take an entry; false when the stream ended meanwhile. */
        private synchronized boolean awaitReady() throws InterruptedException {
            while (live() && !sink.ready()) {
                wait(wait.toMillis());
            }
            return live();
        }

        private void finish(RuntimeException failure) {
            if (cancelled) {
                return; // the client went away: nothing to send
            }
            try {
                sink.end(failure != null ? new ChangeSink.Failed(failure) : new ChangeSink.ShuttingDown(last));
            } catch (RuntimeException e) {
                log.debug("The change stream of {} could not be ended after seq {}: {}", space, last, e.toString());
            }
        }
    }
}
