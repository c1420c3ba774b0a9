package io.memorychain.projector.retrieval;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The reranking step of {@code memory.query} (docs/architecture.md §7): the top {@code topN} candidates by fused
 * relevance are reordered by the {@link Reranker}'s scores, within their relevance band (from the lowest fused
 * relevance among them up to 1), so they stay above the other candidates and the decay / importance / recency rerank
 * still applies. A failing reranker (timeout, error, malformed reply) leaves the fused order and is logged at most once
 * per minute; it never fails the query.
 */
final class Reranking {

    private static final Logger log = LoggerFactory.getLogger(Reranking.class);
    static final Duration LOG_INTERVAL = Duration.ofMinutes(1);

    private final Reranker reranker;
    private final int topN;
    private final Clock clock;
    private final AtomicReference<Instant> lastLogged = new AtomicReference<>();
    private final AtomicLong failuresSinceLog = new AtomicLong();

    Reranking(Reranker reranker, int topN, Clock clock) {
        if (topN < 1) {
            throw new IllegalArgumentException("topN must be at least 1, was " + topN);
        }
        this.reranker = reranker;
        this.topN = topN;
        this.clock = clock;
    }

    boolean enabled() {
        return reranker != Reranker.NONE;
    }

    /**
     * Rewrites the relevance of the top {@code topN} candidates in place from the reranker's scores.
     *
     * @param relevance fused relevance by memory id (best 1)
     * @param text the text the reranker reads for a memory id, or null to leave that candidate out
     */
    void apply(String query, Map<String, Double> relevance, Function<String, String> text) {
        if (!enabled() || relevance.size() < 2) {
            return;
        }
        List<String> ids = new ArrayList<>();
        List<String> texts = new ArrayList<>();
        relevance.entrySet().stream()
                .sorted(Map.Entry.<String, Double>comparingByValue()
                        .reversed()
                        .thenComparing(Map.Entry.comparingByKey()))
                .forEach(e -> {
                    if (ids.size() < topN) {
                        String t = text.apply(e.getKey());
                        if (t != null) {
                            ids.add(e.getKey());
                            texts.add(t);
                        }
                    }
                });
        if (ids.size() < 2) {
            return;
        }
        List<Double> scores;
        try {
            scores = reranker.scores(query, texts);
            if (scores == null
                    || scores.size() != texts.size()
                    || scores.stream().anyMatch(s -> s == null || !Double.isFinite(s))) {
                throw new IllegalStateException("expected " + texts.size() + " finite scores, got " + scores);
            }
        } catch (RuntimeException e) {
            failed(e);
            return;
        }
        double floor = ids.stream().mapToDouble(relevance::get).min().orElse(0);
        double min = scores.stream().mapToDouble(Double::doubleValue).min().orElse(0);
        double max = scores.stream().mapToDouble(Double::doubleValue).max().orElse(0);
        Map<String, Double> rewritten = new LinkedHashMap<>();
        for (int i = 0; i < ids.size(); i++) {
            double unit = max > min ? (scores.get(i) - min) / (max - min) : 1.0;
            rewritten.put(ids.get(i), floor + (1 - floor) * unit);
        }
        relevance.putAll(rewritten);
    }

    private void failed(RuntimeException e) {
        long failures = failuresSinceLog.incrementAndGet();
        Instant now = clock.instant();
        Instant last = lastLogged.get();
        if ((last == null || !now.isBefore(last.plus(LOG_INTERVAL))) && lastLogged.compareAndSet(last, now)) {
            failuresSinceLog.set(0);
            log.warn(
                    "Reranker failed ({} failure(s) since the last report); queries keep the fused order: {}",
                    failures,
                    e.toString());
        }
    }

    /** Failures not yet reported in a log line (for tests). */
    long unreportedFailures() {
        return failuresSinceLog.get();
    }
}
