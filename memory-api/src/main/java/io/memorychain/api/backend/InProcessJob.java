package io.memorychain.api.backend;

import io.memorychain.jobs.ChainJob;
import io.memorychain.jobs.JobFigures;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A {@link ChainJob} run inside the service on its own daemon thread (docs/architecture.md §12), so a model is never
 * called from a Streams thread. A failure stops the job (logged, {@code state: FAILED} in {@code /health}); the service
 * keeps running.
 */
final class InProcessJob implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(InProcessJob.class);

    private final ChainJob<?> job;
    private final JobFigures figures;
    private final Thread thread;
    private volatile String failure;

    private InProcessJob(String name, ChainJob<?> job, JobFigures figures) {
        this.job = job;
        this.figures = figures;
        this.thread = new Thread(this::run, "memory-" + name);
        this.thread.setDaemon(true);
    }

    /** Starts {@code job} on a new thread; {@code figures} are the ones the job's loop updates. */
    static InProcessJob start(String name, ChainJob<?> job, JobFigures figures) {
        InProcessJob running = new InProcessJob(name, job, figures);
        running.thread.start();
        return running;
    }

    private void run() {
        try {
            job.run();
        } catch (RuntimeException e) {
            failure = e.toString();
            log.error("{}: the job stopped after a failure: {}", thread.getName(), e.toString(), e);
        } finally {
            try {
                job.close();
            } catch (RuntimeException e) {
                log.warn("Closing {} failed: {}", thread.getName(), e.toString());
            }
        }
    }

    /**
     * The loop's figures for {@code /health} and {@code /prometheus}: state (STARTING until partitions are assigned,
     * RUNNING, STOPPED or FAILED with its error), lag, last check and run, partitions, requests published, undecodable
     * records.
     */
    Map<String, Object> figures() {
        Map<String, Object> out = new LinkedHashMap<>();
        String state = failure != null
                ? "FAILED"
                : !thread.isAlive() ? "STOPPED" : figures.partitions() > 0 ? "RUNNING" : "STARTING";
        out.put("state", state);
        if (failure != null) {
            out.put("error", failure);
        }
        out.put("lag", figures.lag());
        if (figures.lastPollMillis() > 0) {
            out.put(
                    "last_check_at",
                    Instant.ofEpochMilli(figures.lastPollMillis()).toString());
        }
        if (figures.lastRunMillis() > 0) {
            out.put("last_run_at", Instant.ofEpochMilli(figures.lastRunMillis()).toString());
        }
        out.put("partitions", figures.partitions());
        out.put("requested_total", figures.published());
        out.put("undecodable", figures.undecodable());
        return out;
    }

    /** Stops the loop and waits (up to 30 s) until the job is closed. */
    @Override
    public void close() {
        job.stop();
        try {
            thread.join(Duration.ofSeconds(30).toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
