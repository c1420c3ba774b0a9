package io.memorychain.worker;

import io.memorychain.jobs.ChainJob;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/** Runs a background job's loop in the foreground of the command until the JVM shuts down. */
final class JobRunner {

    private JobRunner() {}

    /**
     * Runs {@code job} on the calling thread, printing {@code progress} every minute, then closes it. SIGTERM / Ctrl-C
     * stops the loop, and the shutdown waits (up to 30 s) until the job is closed (group left, producer flushed).
     */
    static void runUntilShutdown(ChainJob<?> job, String name, Runnable progress) {
        CountDownLatch finished = new CountDownLatch(1);
        Runtime.getRuntime()
                .addShutdownHook(new Thread(
                        () -> {
                            job.stop();
                            try {
                                finished.await(30, TimeUnit.SECONDS);
                            } catch (InterruptedException e) {
                                Thread.currentThread().interrupt();
                            }
                        },
                        name + "-shutdown"));
        ScheduledExecutorService ticker = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, name + "-progress");
            t.setDaemon(true);
            return t;
        });
        ticker.scheduleAtFixedRate(progress, 1, 1, TimeUnit.MINUTES);
        try (job) {
            job.run();
        } finally {
            ticker.shutdownNow();
            finished.countDown();
        }
    }
}
