package io.memorychain.api.backend;

import io.memorychain.projector.ops.OpsTotals;
import io.memorychain.projector.support.StreamsLag;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.MultiGauge;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.micronaut.context.annotation.Value;
import jakarta.annotation.PreDestroy;
import jakarta.inject.Singleton;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code /prometheus} figures of the chain and of the Streams applications that build on it (docs/architecture.md §6):
 *
 * <ul>
 *   <li>{@code memory_streams_lag{app}}: records of the application's input topics not yet consumed (sequencer,
 *       projection, embedder, linker, refinement, lifecycle), from its consumers' {@code records-lag};
 *   <li>{@code memory_chain_spaces} and {@code memory_chain_events}: the spaces whose chains this instance's projection
 *       holds, and the sum of their applied seqs (events applied);
 *   <li>{@code memory_chain_last_seq{space}}: the applied seq of each of the first {@value #MAX_SPACES} spaces in name
 *       order, refreshed every {@code memory.metrics.space-refresh} (15 s; a per-space series is bounded so a
 *       multi-tenant instance cannot explode the scrape).
 * </ul>
 *
 * and {@code memory_chain_verifications_total{result="ok"|"failed"}}: chain verifications this instance ran
 * ({@link #verified(boolean)}), {@code memory_ops_total{node,op,status}}: the operational events this instance's ops
 * app counted since it started (docs/architecture.md §2 memory.ops.v1), and the search indexes of its projection tasks:
 * {@code memory_search_index_rebuilds_total}, {@code memory_search_index_reuses_total} and
 * {@code memory_search_index_building_graphs} (indexes whose HNSW graphs are being built after a rebuild: kNN is exact
 * and slower meanwhile, docs/architecture.md §6).
 */
@Singleton
public class ChainMeters implements MeterBinder {

    static final int MAX_SPACES = 100;
    private static final Logger log = LoggerFactory.getLogger(ChainMeters.class);

    private final MemoryBackend backend;
    private final AtomicLong verifiedOk = new AtomicLong();
    private final AtomicLong verifiedFailed = new AtomicLong();
    private MultiGauge lastSeq;
    /** The applied seq per space that {@code memory_chain_last_seq}'s rows read. */
    private final Map<String, AtomicLong> applied = new ConcurrentHashMap<>();
    /**
     * Refreshes {@code memory_chain_last_seq} every {@code memory.metrics.space-refresh} (15 s). Its own thread,
     * stopped with this bean, instead of {@code @Scheduled}: a scheduled run while the context closed resolved this
     * bean again, and with it a second backend whose Streams applications kept the state directory locked.
     */
    private final ScheduledExecutorService refresher = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "chain-meters");
        t.setDaemon(true);
        return t;
    });

    private final Duration refreshEvery;

    public ChainMeters(MemoryBackend backend, @Value("${memory.metrics.space-refresh:15s}") Duration refreshEvery) {
        this.backend = backend;
        if (refreshEvery.isNegative() || refreshEvery.isZero()) {
            throw new IllegalArgumentException("memory.metrics.space-refresh must be positive, was " + refreshEvery);
        }
        this.refreshEvery = refreshEvery;
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        backend.streamsApplications()
                .forEach((app, streams) -> Gauge.builder("memory.streams.lag", streams, StreamsLag::of)
                        .description("Records of the Streams application's input topics not yet consumed")
                        .tag("app", app)
                        .register(registry));
        Gauge.builder(
                        "memory.chain.spaces",
                        backend,
                        b -> b.views().appliedSeqs(Integer.MAX_VALUE).size())
                .description("Spaces whose chains this instance's projection holds")
                .register(registry);
        Gauge.builder(
                        "memory.chain.events",
                        backend,
                        b -> b.views().appliedSeqs(Integer.MAX_VALUE).values().stream()
                                .mapToLong(Long::longValue)
                                .sum())
                .description("Chain events applied by this instance's projection, over all its spaces")
                .register(registry);
        FunctionCounter.builder("memory.chain.verifications", verifiedOk, AtomicLong::get)
                .tag("result", "ok")
                .description("Chain verifications run by this instance, by result")
                .register(registry);
        FunctionCounter.builder("memory.chain.verifications", verifiedFailed, AtomicLong::get)
                .tag("result", "failed")
                .description("Chain verifications run by this instance, by result")
                .register(registry);
        OpsTotals ops = backend.opsTotals();
        ops.onNew(labels -> FunctionCounter.builder("memory.ops", ops, t -> t.count(labels))
                .description("Operational events counted by this instance since it started (docs/architecture.md §2)")
                .tags("node", labels.node(), "op", labels.op(), "status", labels.status())
                .register(registry));
        FunctionCounter.builder("memory.search.index.rebuilds", backend, b -> searchIndex(b, "rebuilds"))
                .description("Search indexes rebuilt from the stores since start")
                .register(registry);
        FunctionCounter.builder("memory.search.index.reuses", backend, b -> searchIndex(b, "reuses"))
                .description("Search indexes reused from disk since start")
                .register(registry);
        Gauge.builder("memory.search.index.building.graphs", backend, b -> searchIndex(b, "building_graphs"))
                .description("Search indexes building their HNSW graphs in the background (kNN exact meanwhile)")
                .register(registry);
        lastSeq = MultiGauge.builder("memory.chain.last.seq")
                .description("Applied seq of a space's chain (first " + MAX_SPACES + " spaces by name)")
                .register(registry);
        refresh();
        refresher.scheduleWithFixedDelay(
                () -> {
                    try {
                        refresh();
                    } catch (RuntimeException e) {
                        log.warn(
                                "Could not refresh memory_chain_last_seq: {}",
                                e.toString()); // and try again next period
                    }
                },
                refreshEvery.toMillis(),
                refreshEvery.toMillis(),
                TimeUnit.MILLISECONDS);
    }

    @PreDestroy
    void stop() {
        refresher.shutdownNow();
    }

    private static double searchIndex(MemoryBackend backend, String figure) {
        return backend.searchIndexFigures().getOrDefault(figure, 0L);
    }

    /** Counts one verification of a space's chain. */
    public void verified(boolean ok) {
        (ok ? verifiedOk : verifiedFailed).incrementAndGet();
    }

    /** Re-reads the spaces and their applied seqs into {@code memory_chain_last_seq}. */
    void refresh() {
        if (lastSeq == null) {
            return;
        }
        Map<String, Long> seqs;
        try {
            seqs = backend.views().appliedSeqs(MAX_SPACES);
        } catch (org.apache.kafka.streams.errors.InvalidStateStoreException e) {
            return; // the projection is rebalancing (another instance joins or leaves): keep the last rows until then
        }
        if (seqs.isEmpty() && !applied.isEmpty()) {
            return; // a store answering nothing for a moment (a restore): keep the last rows rather than drop them all
        }
        applied.keySet().retainAll(seqs.keySet());
        seqs.forEach((space, seq) ->
                applied.computeIfAbsent(space, s -> new AtomicLong()).set(seq));
        // each row reads its space's holder: re-registering keeps the existing gauges (no moment without the series)
        List<MultiGauge.Row<?>> rows = applied.entrySet().stream()
                .<MultiGauge.Row<?>>map(
                        e -> MultiGauge.Row.of(Tags.of("space", e.getKey()), e.getValue(), AtomicLong::doubleValue))
                .toList();
        lastSeq.register(rows, false);
    }
}
