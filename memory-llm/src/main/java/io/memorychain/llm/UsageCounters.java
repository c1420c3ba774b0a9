package io.memorychain.llm;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.LongAdder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Totals per purpose: calls per outcome, attempts, prompt and completion tokens (in-process, since start). Logs every
 * call at debug level. Meant for /health and /prometheus.
 */
public final class UsageCounters implements UsageListener {

    private static final Logger log = LoggerFactory.getLogger(UsageCounters.class);

    /** A snapshot of one purpose's totals. */
    public record Totals(Map<ChatOutcome, Long> calls, long attempts, long promptTokens, long completionTokens) {

        public Totals {
            calls = Map.copyOf(calls);
        }

        public long calls(ChatOutcome outcome) {
            return calls.getOrDefault(outcome, 0L);
        }
    }

    private static final class Counters {
        final ConcurrentMap<ChatOutcome, LongAdder> calls = new ConcurrentHashMap<>();
        final LongAdder attempts = new LongAdder();
        final LongAdder promptTokens = new LongAdder();
        final LongAdder completionTokens = new LongAdder();

        Totals snapshot() {
            Map<ChatOutcome, Long> byOutcome = new TreeMap<>();
            calls.forEach((outcome, count) -> byOutcome.put(outcome, count.sum()));
            return new Totals(byOutcome, attempts.sum(), promptTokens.sum(), completionTokens.sum());
        }
    }

    private final ConcurrentMap<String, Counters> byPurpose = new ConcurrentHashMap<>();

    @Override
    public void onCall(UsageRecord call) {
        Counters counters = byPurpose.computeIfAbsent(call.purpose(), p -> new Counters());
        counters.calls.computeIfAbsent(call.outcome(), o -> new LongAdder()).increment();
        counters.attempts.add(call.attempts());
        counters.promptTokens.add(call.promptTokens());
        counters.completionTokens.add(call.completionTokens());
        log.debug(
                "llm call purpose={} tenant={} model={} outcome={} attempts={} promptTokens={} completionTokens={} "
                        + "latencyMs={}",
                call.purpose(),
                call.tenant(),
                call.model(),
                call.outcome(),
                call.attempts(),
                call.promptTokens(),
                call.completionTokens(),
                call.latency().toMillis());
    }

    /** Totals of one purpose (all zero when it never called). */
    public Totals totals(String purpose) {
        Counters counters = byPurpose.get(purpose);
        return counters == null ? new Totals(Map.of(), 0, 0, 0) : counters.snapshot();
    }

    /** Totals of every purpose that called, by purpose name. */
    public Map<String, Totals> snapshot() {
        Map<String, Totals> result = new TreeMap<>();
        byPurpose.forEach((purpose, counters) -> result.put(purpose, counters.snapshot()));
        return result;
    }
}
