package io.memorychain.client;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Iterator;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A space's changes as they reach its chain, pushed by the service as server-sent events ({@code GET
 * /v1/spaces/{space}/changes}): each audit entry (seq, event_type, actor, memory_ids, ...) is handed to the consumer
 * once, in seq order, on the watch's own thread.
 *
 * <p>A dropped connection (a network error, a proxy that cuts idle or long streams, a server that restarts, or no byte
 * for {@code idleTimeout} although the service sends a keep-alive every 15 s) is reopened with {@code Last-Event-ID} =
 * the last seq delivered, so no change is skipped and none is delivered twice; the wait before reconnecting is the
 * stream's {@code retry:} (or 1 s), doubled after each failed attempt up to 30 s, or the {@code Retry-After} of a 429
 * or 503. An error the service ends the stream with (UNAUTHENTICATED when the key is revoked, SPACE_NOT_ALLOWED, ...),
 * an error answer other than 429/503, or an exception of the consumer ends the watch: {@link #failure()} then holds it.
 * {@link #close()} stops it.
 */
public final class ChangeWatch implements AutoCloseable {

    static final Duration DEFAULT_RETRY = Duration.ofSeconds(1);
    static final Duration MAX_RETRY = Duration.ofSeconds(30);
    static final Duration MIN_RETRY = Duration.ofMillis(100);
    static final Duration DEFAULT_IDLE_TIMEOUT = Duration.ofSeconds(60);
    /** Codes of an error event or answer after which the watch reconnects (the server stops, moves or is busy). */
    private static final Set<String> RECONNECT = Set.of("UNAVAILABLE", "REBALANCING", "TIMEOUT", "RATE_LIMITED");

    private static final Logger log = LoggerFactory.getLogger(ChangeWatch.class);
    private static final ScheduledExecutorService WATCHDOG = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "memory-chain-watch-watchdog");
        t.setDaemon(true);
        return t;
    });

    private final Transport transport;
    private final String path;
    private final Consumer<JsonNode> onChange;
    private final Duration idleTimeout;
    private final AtomicLong lastSeq;
    private final AtomicInteger connections = new AtomicInteger();
    private final CountDownLatch ended = new CountDownLatch(1);
    private final Thread thread;
    private volatile boolean running = true;
    private volatile Stream<String> current;
    private volatile long lastByteAt = System.nanoTime();
    private volatile RuntimeException failure;
    private Duration retry = DEFAULT_RETRY;
    private boolean opened;
    private ScheduledFuture<?> watchdog;

    private ChangeWatch(
            Transport transport, String space, long afterSeq, Duration idleTimeout, Consumer<JsonNode> onChange) {
        if (afterSeq < 0) {
            throw new IllegalArgumentException("afterSeq must be 0 or more, was " + afterSeq);
        }
        this.transport = transport;
        this.path = "/v1/spaces/" + PathSegments.seg(space) + "/changes";
        this.onChange = onChange;
        this.idleTimeout = idleTimeout;
        this.lastSeq = new AtomicLong(afterSeq);
        this.thread = new Thread(this::run, "memory-chain-watch-" + space);
        thread.setDaemon(true);
    }

    /** Starts delivering the changes after {@code afterSeq} (0: from the start of the chain). */
    static ChangeWatch start(
            Transport transport, String space, long afterSeq, Duration idleTimeout, Consumer<JsonNode> onChange) {
        ChangeWatch watch = new ChangeWatch(transport, space, afterSeq, idleTimeout, onChange);
        long every = Math.max(50, idleTimeout.toMillis() / 4);
        watch.watchdog = WATCHDOG.scheduleAtFixedRate(watch::checkIdle, every, every, TimeUnit.MILLISECONDS);
        watch.thread.start();
        return watch;
    }

    /** The seq of the last change delivered (where the watch resumes). */
    public long lastSeq() {
        return lastSeq.get();
    }

    /** Connections opened so far (1 while none dropped). */
    public int connections() {
        return connections.get();
    }

    /** Whether the watch still delivers (not closed, not ended by an error). */
    public boolean isRunning() {
        return ended.getCount() > 0;
    }

    /**
     * What ended the watch, if something did: the {@link MemoryChainException} of the service's error (event or
     * answer), or the exception the consumer threw.
     */
    public Optional<RuntimeException> failure() {
        return Optional.ofNullable(failure);
    }

    /** Waits until the watch ends (closed or failed); true when it did within {@code timeout}. */
    public boolean awaitEnd(Duration timeout) throws InterruptedException {
        return ended.await(timeout.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** Stops the watch: the connection is closed and no change is delivered after this returns (but from within). */
    @Override
    public void close() {
        running = false;
        closeCurrent();
        thread.interrupt();
        if (Thread.currentThread() != thread) {
            try {
                thread.join(5_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private void run() {
        int failed = 0;
        try {
            while (running) {
                Long retryAfter = null;
                MemoryChainException error = null;
                opened = false;
                try {
                    follow();
                } catch (Refused r) {
                    error = r.error;
                    retryAfter = r.retryAfterSeconds;
                } catch (MemoryChainException e) {
                    error = e;
                } catch (IOException | UncheckedIOException e) {
                    if (running) { // else close() closed the connection
                        log.info(
                                "watch of {}: connection lost ({}); reconnecting after seq {}", path, e, lastSeq.get());
                    }
                } catch (ConsumerFailed e) {
                    failure = (RuntimeException) e.getCause();
                    return;
                }
                if (error != null) {
                    if (!RECONNECT.contains(error.code())) {
                        failure = error;
                        return;
                    }
                    log.info("watch of {}: {}; reconnecting after seq {}", path, error.getMessage(), lastSeq.get());
                }
                if (opened) {
                    failed = 0; // the stream was open: reconnect after the plain delay
                }
                if (running) {
                    Thread.sleep(delay(++failed, retryAfter).toMillis());
                }
            }
        } catch (InterruptedException e) {
            // closed
        } finally {
            running = false;
            closeCurrent();
            watchdog.cancel(false);
            ended.countDown();
        }
    }

    /** One connection, read to its end ({@link #opened} once it answered 200); an error answer or event is thrown. */
    private void follow() throws IOException, InterruptedException {
        HttpResponse<Stream<String>> response = transport.openEvents(path, Long.toString(lastSeq.get()));
        connections.incrementAndGet();
        lastByteAt = System.nanoTime();
        try (Stream<String> lines = response.body()) {
            current = lines;
            if (!running) {
                return;
            }
            if (response.statusCode() != 200) {
                String body = lines.collect(Collectors.joining("\n"));
                throw new Refused(Transport.error(response.statusCode(), body, null), Transport.retryAfter(response));
            }
            opened = true;
            EventStreamParser parser = new EventStreamParser();
            Iterator<String> it = lines.iterator();
            while (running && it.hasNext()) {
                lastByteAt = System.nanoTime();
                EventStreamParser.Event event = parser.line(it.next());
                if (parser.retryMillis() != null) {
                    retry = Duration.ofMillis(parser.retryMillis());
                }
                if (event != null) {
                    deliver(event);
                }
            }
        } finally {
            current = null;
        }
    }

    private void deliver(EventStreamParser.Event event) {
        JsonNode data;
        try {
            data = Transport.JSON.readTree(event.data());
        } catch (IOException e) {
            throw new UncheckedIOException("not JSON: " + event.data(), e);
        }
        if ("error".equals(event.type())) {
            // the stream's answer was 200; the error event carries the code the service ended it with
            throw MemoryChainException.of(
                    data.path("code").asText("UNAVAILABLE"),
                    data.path("message").asText(""),
                    data.hasNonNull("request_id") ? data.get("request_id").asText() : null,
                    200);
        }
        long seq = data.path("seq").asLong(-1);
        if (seq <= lastSeq.get() || !running) {
            return; // delivered before (a resumed stream never repeats one, but a proxy might)
        }
        try {
            onChange.accept(data);
        } catch (RuntimeException e) {
            throw new ConsumerFailed(e);
        }
        lastSeq.set(seq);
    }

    private Duration delay(int failed, Long retryAfterSeconds) {
        Duration d = retry.multipliedBy(1L << Math.min(Math.max(failed - 1, 0), 10));
        if (retryAfterSeconds != null && Duration.ofSeconds(retryAfterSeconds).compareTo(d) > 0) {
            d = Duration.ofSeconds(retryAfterSeconds);
        }
        return d.compareTo(MAX_RETRY) > 0 ? MAX_RETRY : d.compareTo(MIN_RETRY) < 0 ? MIN_RETRY : d;
    }

    /** No byte for idleTimeout: the connection is dead without the network saying so; drop it (the watch resumes). */
    private void checkIdle() {
        if (current != null && System.nanoTime() - lastByteAt > idleTimeout.toNanos()) {
            log.info("watch of {}: nothing received for {}; reconnecting", path, idleTimeout);
            lastByteAt = System.nanoTime();
            closeCurrent();
        }
    }

    private void closeCurrent() {
        Stream<String> lines = current;
        if (lines != null) {
            try {
                lines.close();
            } catch (RuntimeException e) {
                log.debug("closing the watch's connection: {}", e.toString());
            }
        }
    }

    /** An error answer instead of the stream, with its Retry-After (429, 503). */
    private static final class Refused extends RuntimeException {
        private static final long serialVersionUID = 1L;
        final transient MemoryChainException error;
        final transient Long retryAfterSeconds;

        Refused(MemoryChainException error, Long retryAfterSeconds) {
            super(error.getMessage(), null, false, false);
            this.error = error;
            this.retryAfterSeconds = retryAfterSeconds;
        }
    }

    /** The consumer threw: the watch ends. */
    private static final class ConsumerFailed extends RuntimeException {
        private static final long serialVersionUID = 1L;

        ConsumerFailed(RuntimeException cause) {
            super(cause);
        }
    }
}
