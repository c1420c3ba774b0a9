package io.memorychain.client;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A space's changes as they reach its chain, in order, over REST: the watch reads the audit log after the last seq it
 * delivered, every {@code pollEvery}. (The service's push stream is gRPC WatchChanges; this client stays on HTTP and
 * Jackson.) Each audit entry (seq, event_type, actor, memory ids, ...) is handed to the consumer once; a failed poll is
 * retried on the next tick. {@link #close()} stops it.
 */
public final class ChangeWatch implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(ChangeWatch.class);

    private final Thread thread;
    private final AtomicLong lastSeq;
    private volatile boolean running = true;

    private ChangeWatch(MemoryChainClient client, String space, long afterSeq, Duration pollEvery, Consumer<JsonNode> onChange) {
        this.lastSeq = new AtomicLong(afterSeq);
        this.thread = new Thread(() -> {
            while (running) {
                try {
                    Map<String, Object> query = new HashMap<>();
                    query.put("after_seq", lastSeq.get());
                    for (JsonNode entry : Pages.audit(client, space, query)) {
                        onChange.accept(entry);
                        lastSeq.set(entry.path("seq").asLong(lastSeq.get()));
                    }
                } catch (MemoryChainException e) {
                    log.warn("watch of {}: {}", space, e.getMessage());
                }
                try {
                    Thread.sleep(pollEvery.toMillis());
                } catch (InterruptedException e) {
                    return;
                }
            }
        }, "memory-chain-watch-" + space);
        thread.setDaemon(true);
    }

    /** Starts delivering the changes after {@code afterSeq} (0: from the start of the chain). */
    public static ChangeWatch start(MemoryChainClient client, String space, long afterSeq, Duration pollEvery,
                                    Consumer<JsonNode> onChange) {
        ChangeWatch watch = new ChangeWatch(client, space, afterSeq, pollEvery, onChange);
        watch.thread.start();
        return watch;
    }

    /** The seq of the last change delivered. */
    public long lastSeq() {
        return lastSeq.get();
    }

    @Override
    public void close() {
        running = false;
        thread.interrupt();
    }
}
