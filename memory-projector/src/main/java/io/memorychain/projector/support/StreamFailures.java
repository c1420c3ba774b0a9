package io.memorychain.projector.support;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.errors.ProcessorStateException;
import org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler;
import org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse;
import org.rocksdb.RocksDBException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The recent stream-thread failures of each Streams application in the process, for health checks (docs/architecture.md
 * §19, "Faults"). A failed thread is replaced ({@link StreamThreadExceptionResponse#REPLACE_THREAD}), so the
 * application's state soon reads RUNNING again even when the cause persists (a full disk fails every new thread at its
 * next flush); the state alone would report such a process healthy while it applies nothing. Each failure is kept with
 * a machine-readable code and counts as current for {@code window} after it happened:
 *
 * <ul>
 *   <li>{@value #STORAGE_FULL}: a state store could not write because the disk (or its space budget) is full;
 *   <li>{@value #STATE_STORE_FAILURE}: another state store (RocksDB) error;
 *   <li>{@value #STREAM_THREAD_FAILED}: any other failure of a stream thread.
 * </ul>
 *
 * Thread-safe.
 */
public final class StreamFailures {

    public static final String STORAGE_FULL = "STORAGE_FULL";
    public static final String STATE_STORE_FAILURE = "STATE_STORE_FAILURE";
    public static final String STREAM_THREAD_FAILED = "STREAM_THREAD_FAILED";
    /** How long a failure keeps an application unhealthy when none follows. */
    public static final Duration DEFAULT_WINDOW = Duration.ofSeconds(60);

    private static final Logger log = LoggerFactory.getLogger(StreamFailures.class);
    private static final Pattern STORE = Pattern.compile("\\bstore ([A-Za-z0-9._-]*[A-Za-z0-9_-])");
    private static final int MAX_ERROR_CHARS = 500;

    /**
     * One application's last failure.
     *
     * @param code {@value #STORAGE_FULL}, {@value #STATE_STORE_FAILURE} or {@value #STREAM_THREAD_FAILED}
     * @param store the state store named by the error, or null
     * @param error the innermost cause, as {@code Class: message}
     * @param at when the thread failed
     * @param count the application's failures since the process started
     */
    public record Failure(String code, String store, String error, Instant at, long count) {

        /** As shown in health details: code, store (when known), error, at, count. */
        public Map<String, Object> details() {
            Map<String, Object> out = new LinkedHashMap<>();
            out.put("code", code);
            if (store != null) {
                out.put("store", store);
            }
            out.put("error", error);
            out.put("at", at.toString());
            out.put("count", count);
            return out;
        }
    }

    private final Clock clock;
    private final Duration window;
    private final Map<String, Failure> last = new ConcurrentHashMap<>();

    public StreamFailures(Clock clock, Duration window) {
        this.clock = Objects.requireNonNull(clock, "clock");
        this.window = Objects.requireNonNull(window, "window");
    }

    /** With the system clock and the {@linkplain #DEFAULT_WINDOW default window}. */
    public StreamFailures() {
        this(Clock.systemUTC(), DEFAULT_WINDOW);
    }

    /**
     * Starts the applications (by name) with this handler, so that a failed thread is recorded and replaced, and waits
     * until every one is RUNNING.
     */
    public void startAndAwait(Map<String, KafkaStreams> apps, Duration timeout) {
        CountDownLatch running = new CountDownLatch(apps.size());
        for (Map.Entry<String, KafkaStreams> named : apps.entrySet()) {
            KafkaStreams app = named.getValue();
            app.setStateListener((now, before) -> {
                if (now == KafkaStreams.State.RUNNING && before != KafkaStreams.State.RUNNING) {
                    running.countDown();
                }
            });
            app.setUncaughtExceptionHandler(handler(named.getKey()));
            app.start();
        }
        try {
            if (!running.await(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                throw new IllegalStateException("Kafka Streams did not reach RUNNING within " + timeout);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while starting Kafka Streams", e);
        }
    }

    /** The handler to install on application {@code app}: records the failure, logs it and replaces the thread. */
    public StreamsUncaughtExceptionHandler handler(String app) {
        return e -> {
            Failure failure = record(app, e);
            log.error(
                    "Stream thread of the {} failed ({}{}); replacing it",
                    app,
                    failure.code(),
                    failure.store() == null ? "" : ", store " + failure.store(),
                    e);
            return StreamThreadExceptionResponse.REPLACE_THREAD;
        };
    }

    /** Records a failure of one of {@code app}'s stream threads. */
    public Failure record(String app, Throwable e) {
        return last.compute(
                app, (a, previous) -> classify(e, clock.instant(), previous == null ? 1 : previous.count() + 1));
    }

    /** The failures younger than the window, by application name (sorted); empty when all is well. */
    public Map<String, Failure> current() {
        Instant since = clock.instant().minus(window);
        Map<String, Failure> out = new TreeMap<>();
        last.forEach((app, failure) -> {
            if (failure.at().isAfter(since)) {
                out.put(app, failure);
            }
        });
        return out;
    }

    static Failure classify(Throwable e, Instant at, long count) {
        boolean stateStore = false;
        boolean full = false;
        String store = null;
        Throwable innermost = e;
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            innermost = t;
            stateStore |= t instanceof ProcessorStateException || t instanceof RocksDBException;
            String message = t.getMessage();
            if (message == null) {
                continue;
            }
            Matcher m = STORE.matcher(message);
            if ((store == null || t instanceof ProcessorStateException) && m.find()) {
                store = m.group(1); // the state exception's own message names the store best
            }
            String lower = message.toLowerCase(Locale.ROOT);
            full |= lower.contains("no space left")
                    || lower.contains("max allowed space")
                    || lower.contains("nospace")
                    || lower.contains("disk full");
        }
        String code = stateStore && full ? STORAGE_FULL : stateStore ? STATE_STORE_FAILURE : STREAM_THREAD_FAILED;
        String error = innermost.getClass().getSimpleName() + ": " + innermost.getMessage();
        if (error.length() > MAX_ERROR_CHARS) {
            error = error.substring(0, MAX_ERROR_CHARS) + "...";
        }
        return new Failure(code, stateStore ? store : null, error, at, count);
    }
}
