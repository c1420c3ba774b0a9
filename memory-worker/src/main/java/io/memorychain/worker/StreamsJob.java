package io.memorychain.worker;

import java.io.PrintStream;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.errors.MissingSourceTopicException;
import org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs the Kafka Streams application of a background job (the linker, the refinement trigger) until the process is
 * stopped: SIGTERM / Ctrl-C closes it cleanly, committing its progress; a missing topic stops it; a failed stream
 * thread is replaced. Logs the job's progress every minute.
 */
final class StreamsJob {

    private static final Logger log = LoggerFactory.getLogger(StreamsJob.class);
    static final Duration PROGRESS_EVERY = Duration.ofMinutes(1);

    private StreamsJob() {}

    /**
     * @param title the job's name as logged, capitalized ("Linker")
     * @param progress logged every {@link #PROGRESS_EVERY}
     * @param stopped the summary logged after a clean stop ("1 link(s) proposed since start")
     * @return {@link WorkerMain#EXIT_OK} after a stop, {@link WorkerMain#EXIT_ERROR} when Streams failed
     */
    static int run(String title, KafkaStreams streams, Runnable progress, Supplier<String> stopped, PrintStream err) {
        String name = title.toLowerCase(Locale.ROOT);
        CountDownLatch done = new CountDownLatch(1);
        AtomicBoolean failed = new AtomicBoolean();
        streams.setStateListener((now, before) -> {
            if (now == KafkaStreams.State.ERROR) {
                failed.set(true);
            }
            if (now == KafkaStreams.State.ERROR || now == KafkaStreams.State.NOT_RUNNING) {
                done.countDown();
            }
        });
        streams.setUncaughtExceptionHandler(e -> {
            if (missingTopic(e)) {
                log.error("A topic of the {} is missing ({}); stopping", name, WorkerMain.describe(e));
                return StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse.SHUTDOWN_CLIENT;
            }
            log.error("{} stream thread failed; replacing it", title, e);
            return StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse.REPLACE_THREAD;
        });
        String threads = name.replace(' ', '-');
        ScheduledExecutorService progressLog = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, threads + "-progress");
            t.setDaemon(true);
            return t;
        });
        progressLog.scheduleAtFixedRate(
                progress, PROGRESS_EVERY.toMillis(), PROGRESS_EVERY.toMillis(), TimeUnit.MILLISECONDS);
        Thread hook = new Thread(
                () -> {
                    log.info("{}: stopping", title);
                    streams.close(Duration.ofSeconds(30));
                    progressLog.shutdownNow();
                    log.info("{} stopped cleanly: {}", title, stopped.get());
                },
                threads + "-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
        streams.start();
        try {
            done.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (failed.get()) {
            err.println("error: the " + name + "'s Kafka Streams application failed (see the log above)");
            progressLog.shutdownNow();
            streams.close(Duration.ofSeconds(30));
            return WorkerMain.EXIT_ERROR;
        }
        return WorkerMain.EXIT_OK;
    }

    private static boolean missingTopic(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof MissingSourceTopicException) {
                return true;
            }
        }
        return false;
    }
}
