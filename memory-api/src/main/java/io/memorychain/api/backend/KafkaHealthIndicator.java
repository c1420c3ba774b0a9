package io.memorychain.api.backend;

import io.micronaut.health.HealthStatus;
import io.micronaut.management.health.indicator.AbstractHealthIndicator;
import jakarta.annotation.PreDestroy;
import jakarta.inject.Singleton;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.DescribeClusterOptions;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code /health} is DOWN while this instance cannot reach its Kafka cluster (docs/architecture.md §19, "Faults"). Cut
 * off from every broker, an instance cannot write (its sequencer and publisher cannot reach the cluster), yet its Kafka
 * Streams applications keep reading RUNNING for minutes (their clients retry quietly until a transaction times out), so
 * {@code kafkaStreams} alone stayed UP. A probe thread asks the cluster for its brokers every {@link #PROBE_EVERY}
 * ({@code describeCluster}, answered by any reachable broker); after {@link #DOWN_AFTER} without an answer the
 * indicator is DOWN, its details naming the cluster, when it last answered and the last error. It is UP again with the
 * next answer, without anyone acting. A backend without a cluster of its own (the HTTP tests over TopologyTestDriver)
 * is not probed.
 */
@Singleton
class KafkaHealthIndicator extends AbstractHealthIndicator<Map<String, Object>> implements AutoCloseable {

    static final Duration PROBE_EVERY = Duration.ofSeconds(2);
    static final Duration DOWN_AFTER = Duration.ofSeconds(8);
    private static final Duration PROBE_TIMEOUT = Duration.ofSeconds(4);
    private static final Logger log = LoggerFactory.getLogger(KafkaHealthIndicator.class);

    /** What the probes found: when the cluster last answered (null: never), and the last failure since. */
    record Reachability(String cluster, Instant startedAt, Instant lastAnswer, String lastError) {

        /** Answered within {@link #DOWN_AFTER} (the probes started less than that ago: not known yet, UP). */
        boolean reachable(Instant now) {
            Instant since = lastAnswer != null ? lastAnswer : startedAt;
            return Duration.between(since, now).compareTo(DOWN_AFTER) <= 0;
        }

        Map<String, Object> details(Instant now) {
            Map<String, Object> d = new LinkedHashMap<>();
            d.put("cluster", cluster);
            d.put("reachable", reachable(now));
            d.put("last_answer_at", lastAnswer == null ? null : lastAnswer.toString());
            if (!reachable(now)) {
                d.put(
                        "reason",
                        "no answer from the Kafka cluster for "
                                + Duration.between(lastAnswer != null ? lastAnswer : startedAt, now)
                                        .toSeconds()
                                + " s: this instance cannot write");
                d.put("error", lastError);
            }
            return d;
        }
    }

    private final Clock clock;
    private final Admin admin;
    private final ScheduledExecutorService probes;
    private volatile Reachability state;

    KafkaHealthIndicator(MemoryBackend backend) {
        this.clock = Clock.systemUTC();
        String cluster = backend.kafkaLog().map(KafkaLog::bootstrapServers).orElse(null);
        if (cluster == null) {
            admin = null;
            probes = null;
            return;
        }
        state = new Reachability(cluster, clock.instant(), null, null);
        Properties p = new Properties();
        p.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, cluster);
        p.put(AdminClientConfig.CLIENT_ID_CONFIG, "memory-health");
        p.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, (int) PROBE_TIMEOUT.toMillis());
        p.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, (int) PROBE_TIMEOUT.toMillis());
        admin = Admin.create(p);
        probes = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "kafka-health-probe");
            t.setDaemon(true);
            return t;
        });
        probes.scheduleWithFixedDelay(this::probe, 0, PROBE_EVERY.toMillis(), TimeUnit.MILLISECONDS);
    }

    private void probe() {
        Reachability before = state;
        try {
            admin.describeCluster(new DescribeClusterOptions().timeoutMs((int) PROBE_TIMEOUT.toMillis()))
                    .nodes()
                    .get(PROBE_TIMEOUT.toMillis() + 1000, TimeUnit.MILLISECONDS);
            if (before.lastError() != null) {
                log.info("Kafka cluster {} answers again", before.cluster());
            }
            state = new Reachability(before.cluster(), before.startedAt(), clock.instant(), null);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException | java.util.concurrent.TimeoutException | RuntimeException e) {
            Throwable cause = e instanceof ExecutionException && e.getCause() != null ? e.getCause() : e;
            String error = cause.getClass().getSimpleName() + ": " + cause.getMessage();
            if (before.lastError() == null) {
                log.warn("Kafka cluster {} did not answer: {}", before.cluster(), error);
            }
            state = new Reachability(before.cluster(), before.startedAt(), before.lastAnswer(), error);
        }
    }

    @Override
    protected Map<String, Object> getHealthInformation() {
        Reachability now = state;
        if (now == null) {
            healthStatus = HealthStatus.UP;
            return Map.of();
        }
        Instant at = clock.instant();
        healthStatus = now.reachable(at) ? HealthStatus.UP : HealthStatus.DOWN;
        return now.details(at);
    }

    @Override
    protected String getName() {
        return "kafka";
    }

    @PreDestroy
    @Override
    public void close() {
        if (probes != null) {
            probes.shutdownNow();
            admin.close(Duration.ofSeconds(2));
        }
    }
}
