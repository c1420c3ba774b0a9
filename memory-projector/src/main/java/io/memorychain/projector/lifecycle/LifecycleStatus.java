package io.memorychain.projector.lifecycle;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/** The lifecycle worker's last-run figures (for /health and progress logs): a thread-safe {@link LifecycleListener}. */
public final class LifecycleStatus implements LifecycleListener {

    private final AtomicReference<Instant> lastCheck = new AtomicReference<>();
    private final AtomicLong lastEvaluated = new AtomicLong();
    private final AtomicLong lastRequested = new AtomicLong();
    private final AtomicLong requestedTotal = new AtomicLong();
    private final AtomicLong checks = new AtomicLong();

    @Override
    public void requested(String space, String requestId) {
        requestedTotal.incrementAndGet();
    }

    @Override
    public void checked(Instant at, int evaluated, int requested) {
        lastCheck.set(at);
        lastEvaluated.set(evaluated);
        lastRequested.set(requested);
        checks.incrementAndGet();
    }

    public long requestedTotal() {
        return requestedTotal.get();
    }

    /** {@code last_check_at} (absent before the first), {@code last_evaluated}, {@code last_requested}, totals. */
    public Map<String, Object> figures() {
        Map<String, Object> out = new LinkedHashMap<>();
        Instant at = lastCheck.get();
        if (at != null) {
            out.put("last_check_at", at.toString());
        }
        out.put("last_evaluated", lastEvaluated.get());
        out.put("last_requested", lastRequested.get());
        out.put("checks", checks.get());
        out.put("requested_total", requestedTotal.get());
        return out;
    }
}
