package io.memorychain.deploy.faults;

import java.net.http.HttpClient;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Samples every instance's {@code /health} twice a second for the whole run and notes each change between UP and not UP
 * (with the reason the body gives) in the history, so the report shows when each instance said what.
 */
final class HealthWatch implements AutoCloseable {

    private final List<MemoryInstance> instances;
    private final History history;
    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    private final Map<String, HealthSample> latest = new ConcurrentHashMap<>();
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "health-watch");
        t.setDaemon(true);
        return t;
    });

    HealthWatch(List<MemoryInstance> instances, History history) {
        this.instances = List.copyOf(instances);
        this.history = history;
    }

    void start() {
        timer.scheduleWithFixedDelay(this::sample, 0, 500, TimeUnit.MILLISECONDS);
    }

    private void sample() {
        for (MemoryInstance instance : instances) {
            HealthSample now = instance.health(http);
            HealthSample before = latest.put(instance.name(), now);
            String was = before == null ? "?" : describe(before);
            String is = describe(now);
            if (!is.equals(was)) {
                history.note(instance.name() + " /health: " + was + " -> " + is
                        + (now.saysNotUp() ? " (" + now.reason() + ")" : ""));
            }
        }
    }

    private static String describe(HealthSample s) {
        return s.up() ? "UP" : s.status() == 0 ? "no answer" : "not UP (" + s.status() + ")";
    }

    @Override
    public void close() {
        timer.shutdownNow();
    }
}
