package io.memorychain.api.health;

import io.memorychain.api.backend.MemoryBackend;
import io.memorychain.api.messages.FactExtractor;
import io.memorychain.api.messages.MessageRouter;
import io.memorychain.jobs.consolidate.SameFactPrompt;
import io.memorychain.jobs.reflect.ReflectionEngine;
import io.memorychain.jobs.tom.TomPrompt;
import io.memorychain.llm.ChatOutcome;
import io.memorychain.llm.UsageCounters;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.micrometer.core.instrument.binder.kafka.KafkaStreamsMetrics;
import jakarta.annotation.PreDestroy;
import jakarta.inject.Singleton;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.apache.kafka.streams.KafkaStreams;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code /prometheus} figures of the in-process workers and their model calls, read from the same source as
 * {@code /health} ({@link MemoryBackend#workerFigures()}, {@link MemoryBackend#llmUsage()}) at each scrape:
 *
 * <ul>
 *   <li>{@code memory_worker_lag{worker}}: records of the worker's input not yet consumed;
 *   <li>{@code memory_worker_last_run_seconds{worker}}: epoch seconds of its last check (NaN before the first);
 *   <li>{@code memory_worker_requests_total{worker}}: requests it published since start;
 *   <li>{@code memory_worker_memories_held{worker}}, {@code memory_worker_vectors_held{worker}}: what a worker that
 *       keeps a copy of the chain's memories (consolidation, in its store on disk) holds, and
 *       {@code memory_worker_events_waiting{worker}}: the events it holds back there while a run waits for the
 *       embedder's vectors (it grows while the embedder is behind or down);
 *   <li>{@code memory_llm_calls_total{purpose,outcome}} and {@code memory_llm_tokens_total{purpose}} (prompt +
 *       completion) of the jobs' model calls;
 *   <li>Kafka Streams' own client metrics ({@code kafka_stream_*}, tag {@code app}) of every Streams application
 *       (Micrometer's {@link KafkaStreamsMetrics}; nothing else binds them: the project uses plain Kafka clients, not
 *       micronaut-kafka).
 * </ul>
 *
 * A worker that is wanted but cannot run (ToM without a model) has no meters; its reason is in {@code /health}.
 */
@Singleton
class WorkerMeters implements MeterBinder, AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(WorkerMeters.class);
    /** The purposes of the models this process may call. */
    static final List<String> PURPOSES = List.of(
            TomPrompt.PURPOSE,
            SameFactPrompt.PURPOSE,
            ReflectionEngine.PURPOSE,
            MessageRouter.PURPOSE,
            FactExtractor.PURPOSE);

    private final MemoryBackend backend;
    private final List<KafkaStreamsMetrics> streamsMetrics = new ArrayList<>();
    private final ExecutorService streamsBinder = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "kafka-streams-meters");
        t.setDaemon(true);
        return t;
    });
    private boolean closed;

    public WorkerMeters(MemoryBackend backend) {
        this.backend = backend;
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        backend.workerFigures().forEach((worker, figures) -> {
            if (!(figures instanceof Map)) {
                return;
            }
            Gauge.builder("memory.worker.lag", backend, b -> number(b, worker, "lag"))
                    .description("Records of the worker's input topics not yet consumed")
                    .tag("worker", worker)
                    .register(registry);
            Gauge.builder("memory.worker.last.run.seconds", backend, b -> lastCheck(b, worker))
                    .description("Epoch seconds of the worker's last check")
                    .tag("worker", worker)
                    .register(registry);
            FunctionCounter.builder("memory.worker.requests", backend, b -> number(b, worker, "requested_total"))
                    .description("Requests the worker published since start")
                    .tag("worker", worker)
                    .register(registry);
            if (((Map<?, ?>) figures).containsKey("memories_held")) {
                Gauge.builder("memory.worker.memories.held", backend, b -> number(b, worker, "memories_held"))
                        .description("Memories the worker holds in its state store on disk (it grows with the chain)")
                        .tag("worker", worker)
                        .register(registry);
                Gauge.builder("memory.worker.vectors.held", backend, b -> number(b, worker, "vectors_held"))
                        .description("Vectors the worker holds in its state store on disk")
                        .tag("worker", worker)
                        .register(registry);
                Gauge.builder("memory.worker.events.waiting", backend, b -> number(b, worker, "events_waiting"))
                        .description("Events the worker holds back on disk while a run waits for the embedder")
                        .tag("worker", worker)
                        .register(registry);
            }
        });
        UsageCounters usage = backend.llmUsage();
        for (String purpose : PURPOSES) {
            for (ChatOutcome outcome : ChatOutcome.values()) {
                FunctionCounter.builder(
                                "memory.llm.calls",
                                usage,
                                u -> u.totals(purpose).calls(outcome))
                        .description("Model calls by purpose and outcome")
                        .tags("purpose", purpose, "outcome", outcome.name().toLowerCase(Locale.ROOT))
                        .register(registry);
            }
            FunctionCounter.builder("memory.llm.tokens", usage, u -> {
                        UsageCounters.Totals totals = u.totals(purpose);
                        return totals.promptTokens() + totals.completionTokens();
                    })
                    .description("Prompt and completion tokens of the model calls by purpose")
                    .tag("purpose", purpose)
                    .register(registry);
        }
        streamsBinder.execute(
                () -> backend.streamsApplications().forEach((app, streams) -> bindStreams(registry, app, streams)));
    }

    /**
     * Binding walks every client metric of a Streams application (thousands: a second or more of CPU each), so it runs
     * off the start-up path, on its own thread; the figures appear on {@code /prometheus} moments after start.
     */
    private void bindStreams(MeterRegistry registry, String app, KafkaStreams streams) {
        synchronized (streamsMetrics) {
            if (closed) {
                return;
            }
            KafkaStreamsMetrics metrics = new KafkaStreamsMetrics(streams, Tags.of("app", app));
            metrics.bindTo(registry);
            streamsMetrics.add(metrics);
        }
    }

    @SuppressWarnings("unchecked")
    private static Object figure(MemoryBackend backend, String worker, String name) {
        Object figures = backend.workerFigures().get(worker);
        return figures instanceof Map ? ((Map<String, Object>) figures).get(name) : null;
    }

    private static double number(MemoryBackend backend, String worker, String name) {
        return figure(backend, worker, name) instanceof Number n ? n.doubleValue() : Double.NaN;
    }

    private static double lastCheck(MemoryBackend backend, String worker) {
        if (figure(backend, worker, "last_check_at") instanceof String at) {
            try {
                return Instant.parse(at).toEpochMilli() / 1000.0;
            } catch (DateTimeParseException e) {
                log.debug("worker {}: unparsable last_check_at {}", worker, at);
            }
        }
        return Double.NaN;
    }

    @PreDestroy
    @Override
    public void close() {
        streamsBinder.shutdownNow();
        synchronized (streamsMetrics) {
            closed = true;
            streamsMetrics.forEach(KafkaStreamsMetrics::close);
            streamsMetrics.clear();
        }
    }
}
