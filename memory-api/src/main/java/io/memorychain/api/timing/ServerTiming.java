package io.memorychain.api.timing;

import io.micronaut.http.HttpRequest;
import io.micronaut.http.context.ServerRequestContext;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Where one HTTP call spent its time, stage by stage, answered as a {@code Server-Timing} header
 * ({@link ServerTimingFilter}) so that a caller can see where a slow call went. Stages are added by the code that runs
 * them, on the request's own thread; a call outside an HTTP request (gRPC, MCP over stdio, a worker) records into
 * {@link #NONE}, which keeps nothing.
 */
public final class ServerTiming {

    /** The request attribute that holds a call's timing. */
    public static final String ATTRIBUTE = "memorychain.server-timing";
    /** Keeps nothing: the timing of a call that is not an HTTP request. */
    public static final ServerTiming NONE = new ServerTiming(false);

    private final boolean enabled;
    private final List<String> entries = new ArrayList<>();

    private ServerTiming(boolean enabled) {
        this.enabled = enabled;
    }

    static ServerTiming start() {
        return new ServerTiming(true);
    }

    /** The timing of the HTTP request this thread serves, or {@link #NONE}. */
    public static ServerTiming current() {
        return ServerRequestContext.currentRequest().flatMap(ServerTiming::of).orElse(NONE);
    }

    static java.util.Optional<ServerTiming> of(HttpRequest<?> request) {
        return request.getAttribute(ATTRIBUTE, ServerTiming.class);
    }

    /** Records a stage that took {@code nanos}; a stage may be recorded more than once (each entry is kept). */
    public void add(String stage, long nanos) {
        if (enabled) {
            synchronized (entries) {
                entries.add(entry(stage, nanos));
            }
        }
    }

    /** Records a stage that started at {@code startNanos} ({@link System#nanoTime()}) and ends now; returns now. */
    public long since(String stage, long startNanos) {
        long now = System.nanoTime();
        add(stage, now - startNanos);
        return now;
    }

    /** The header value: the stages in the order they were recorded, then {@code total}. */
    String header(long totalNanos) {
        List<String> all;
        synchronized (entries) {
            all = new ArrayList<>(entries);
        }
        all.add(entry("total", totalNanos));
        return String.join(", ", all);
    }

    private static String entry(String stage, long nanos) {
        return stage + ";dur=" + String.format(Locale.ROOT, "%.2f", Math.max(0, nanos) / 1_000_000.0);
    }
}
