package io.memorychain.api.grpc;

import io.grpc.stub.ServerCallStreamObserver;
import io.memorychain.api.backend.MemoryBackend;
import io.memorychain.api.error.ApiException;
import io.memorychain.api.error.ErrorCodes;
import io.memorychain.api.request.Spaces;
import io.memorychain.api.grpc.v1.AuditEntry;
import io.micronaut.context.event.ApplicationEventListener;
import io.micronaut.grpc.server.GrpcEmbeddedServer;
import io.micronaut.runtime.server.event.ServerShutdownEvent;
import io.memorychain.projector.view.MemoryViews;
import jakarta.annotation.PreDestroy;
import jakarta.inject.Inject;
import jakarta.inject.Provider;
import jakarta.inject.Singleton;
import java.time.Duration;
import java.util.List;
import java.util.function.Function;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code WatchChanges}: a space's audit entries after a revision, then each new one, until the client cancels.
 *
 * <p>How: each stream has its own thread (a cached pool, so an idle server holds none) that follows the local
 * projection's views rather than the events topic, so the entries are exactly what {@code GET /audit} shows and need
 * no consumer per stream. The thread reads the audit view after the last seq it sent (pages of {@value #PAGE}), sends
 * what it found, then blocks in {@link MemoryViews#awaitApplied} until the projection applies a newer seq of that space
 * (the same notification read-your-writes waits on; no polling loop), at most {@code wait} at a time so that a
 * cancelled or shut-down stream is noticed. It respects flow control: it sends only while the client is ready, so a
 * slow reader holds back its own stream and never fills the server's memory.
 *
 * <p>Limits: the space's partition must be projected by this instance (true for the embedded single instance; with
 * several instances, clients must watch on the instance that owns the space). On shutdown every open stream ends with
 * UNAVAILABLE; a client resumes with {@code since_rev} = the last seq it received.
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
            Thread t = new Thread(r, "grpc-watch-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        }
    });
    private final Set<Watch> open = ConcurrentHashMap.newKeySet();
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
     *                     watch; checked before each page and at least every {@code wait}, and the stream then ends
     *                     with that error
     * @param shown        each entry as the caller may see it ({@link io.memorychain.api.audit.AuditLog#entry})
     */
    public record Watcher(Runnable stillAllowed, Function<io.memorychain.avro.view.AuditEntry, AuditEntry> shown) {
    }

    /** Starts a stream; must be called from the gRPC method (it registers the cancel and ready handlers). */
    public void watch(String space, long sinceRev, Watcher watcher, ServerCallStreamObserver<AuditEntry> out) {
        Spaces.require(space);
        if (sinceRev < 0) {
            throw ApiException.invalid("since_rev must be 0 or more, was " + sinceRev);
        }
        Watch watch = new Watch(space, sinceRev, watcher, out);
        out.setOnCancelHandler(watch::cancel);
        out.setOnReadyHandler(watch::wake);
        if (closed) {
            throw shuttingDown(sinceRev);
        }
        open.add(watch);
        try {
            threads.execute(watch);
        } catch (RejectedExecutionException e) {
            open.remove(watch);
            throw shuttingDown(sinceRev);
        }
    }

    /** Open streams (for tests and metrics). */
    public int openStreams() {
        return open.size();
    }

    /** The gRPC server stops: end every stream now, or its graceful shutdown would wait for them. */
    @Override
    public void onApplicationEvent(ServerShutdownEvent event) {
        if (event.getSource() instanceof GrpcEmbeddedServer) {
            close();
        }
    }

    @PreDestroy
    public void close() {
        closed = true;
        open.forEach(Watch::wake);
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

    private static ApiException shuttingDown(long lastSeq) {
        return new ApiException(ErrorCodes.UNAVAILABLE, "the server is shutting down; watch again with since_rev="
                + lastSeq + " (elsewhere, or once it is back)");
    }

    /** One stream: its own thread runs {@link #run}; the call's handlers only set flags and wake it. */
    private final class Watch implements Runnable {

        private final String space;
        private final Watcher watcher;
        private final ServerCallStreamObserver<AuditEntry> out;
        private long last;
        private volatile boolean cancelled;

        Watch(String space, long sinceRev, Watcher watcher, ServerCallStreamObserver<AuditEntry> out) {
            this.space = space;
            this.last = sinceRev;
            this.watcher = watcher;
            this.out = out;
        }

        @Override
        public void run() {
            RuntimeException failure = null;
            try {
                MemoryViews views = backend.get().views();
                while (live()) {
                    watcher.stillAllowed().run();
                    long applied = views.appliedSeq(space);
                    List<io.memorychain.avro.view.AuditEntry> entries = views.audit(space, last, PAGE);
                    for (io.memorychain.avro.view.AuditEntry entry : entries) {
                        if (!awaitReady()) {
                            return;
                        }
                        out.onNext(watcher.shown().apply(entry));
                        last = entry.getSeq();
                    }
                    if (entries.size() < PAGE) {
                        // the next seq after what the views showed; max() so that a seq applied without an audit
                        // entry (a dead-lettered event) is not waited for forever, nor spun on
                        awaitApplied(views, Math.max(last, applied) + 1);
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

        /** Blocks until the projection applied {@code seq}, or {@code wait} passed, or the stream ends. */
        private void awaitApplied(MemoryViews views, long seq) throws InterruptedException {
            long start = System.nanoTime();
            if (!views.awaitApplied(space, seq, wait)) {
                // a views implementation that answers before its timeout must not turn this into a busy loop
                long left = wait.toNanos() - (System.nanoTime() - start);
                if (left > 0) {
                    synchronized (this) {
                        if (live()) {
                            TimeUnit.NANOSECONDS.timedWait(this, left);
                        }
                    }
                }
            }
        }

        /** Flow control: waits until the client can take a message; false when the stream ended meanwhile. */
        private synchronized boolean awaitReady() throws InterruptedException {
            while (live() && !out.isReady()) {
                wait(wait.toMillis());
            }
            return live();
        }

        synchronized void wake() {
            notifyAll();
        }

        void cancel() {
            cancelled = true;
            wake();
        }

        private void finish(RuntimeException failure) {
            if (cancelled) {
                return; // the client went away: nothing to send
            }
            try {
                if (failure != null) {
                    out.onError(GrpcErrors.of(failure, "WatchChanges(" + space + ")"));
                } else {
                    out.onError(GrpcErrors.of(shuttingDown(last)));
                }
            } catch (RuntimeException e) {
                log.debug("WatchChanges({}) could not be ended after seq {}: {}", space, last, e.toString());
            }
        }
    }
}
