package io.memorychain.bench.load;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.memorychain.avro.Actor;
import io.memorychain.avro.ActorType;
import io.memorychain.avro.CreateMemory;
import io.memorychain.avro.MemoryOutcome;
import io.memorychain.avro.MemoryRequest;
import io.memorychain.events.AvroTrust;
import io.memorychain.events.Requests;
import io.memorychain.events.Topics;
import io.memorychain.events.publish.MemoryPublisher;
import io.memorychain.events.registry.KafkaTopicSchemaRegistry;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * The load generator of {@link LoadHarness}, run in its own JVM (the harness starts it with its own class path), so
 * that generating load does not share a JIT, a heap and a GC with the broker and the Streams applications it measures.
 * It publishes requests through {@link MemoryPublisher} (the same producer the API uses) with a bounded number in
 * flight, against the harness's broker, and reports on stdout, one line per fact, each starting with {@value #TAG}:
 *
 * <ul>
 *   <li>{@code @@ACK W|M index space seq publishedMicros}: an accepted outcome (mode {@code chain}); {@code W} during
 *       the warm-up, {@code M} during the measurement; times are epoch microseconds, comparable across the two JVMs;
 *   <li>{@code @@WARMED}: a warm-up round's requests are all answered; the generator then waits for a line on stdin
 *       (the harness first waits until the round is queryable): {@code MORE} runs another round, {@code GO} the
 *       measurement;
 *   <li>{@code @@START micros}: the measurement starts; {@code @@RESULT {json}}: its figures; then the JVM exits.
 * </ul>
 *
 * <p>Modes: {@code chain} waits for each request's outcome from the sequencer (the window is released by the outcome);
 * {@code ceiling} publishes the same requests, the same way, to the ceiling's requests topic and releases the window
 * when the pass-through has copied a request to its sink topic (read_committed), so both modes measure a committed
 * exactly-once hop under the same load.
 */
public final class LoadGenerator {

    static final String TAG = "@@";

    private static final String[] WORDS = ("user prefers dark mode deploys on fridays uses typescript likes espresso "
                    + "meeting notes project deadline budget review travel plans allergy peanuts timezone berlin kubernetes "
                    + "cluster invoice quarterly goals hiring roadmap release candidate customer feedback latency")
            .split(" ");

    private final Map<String, String> opts;
    private final PrintStream out;

    private LoadGenerator(Map<String, String> opts, PrintStream out) {
        this.opts = opts;
        this.out = out;
    }

    public static void main(String[] args) throws Exception {
        AvroTrust.install();
        PrintStream out = new PrintStream(
                new java.io.FileOutputStream(java.io.FileDescriptor.out), false, StandardCharsets.UTF_8);
        int code = 0;
        try {
            new LoadGenerator(
                            HarnessSupport.options(
                                    args,
                                    "--bootstrap HOST:PORT --mode chain|ceiling --requests N"
                                            + " [--warmup N] [--spaces S] [--in-flight W] [--tag T] [--topic-prefix P]"),
                            out)
                    .run();
        } catch (Exception | Error e) {
            e.printStackTrace();
            code = 1;
        } finally {
            out.flush();
        }
        System.exit(code);
    }

    private void run() throws Exception {
        String bootstrap = required("bootstrap");
        boolean ceiling = "ceiling".equals(required("mode"));
        int requests = Integer.parseInt(required("requests"));
        int warmup = Integer.parseInt(opts.getOrDefault("warmup", "0"));
        int spaces = Integer.parseInt(opts.getOrDefault("spaces", "100"));
        int inFlight = Integer.parseInt(opts.getOrDefault("in-flight", "4000"));
        String tag = opts.getOrDefault("tag", "run-");
        Topics registryTopics = Topics.defaults();
        Topics topics = Topics.withPrefix(opts.getOrDefault("topic-prefix", ""));
        try (KafkaTopicSchemaRegistry registry =
                        new KafkaTopicSchemaRegistry(bootstrap, registryTopics.schemas(), (short) 1);
                MemoryPublisher publisher = new MemoryPublisher(bootstrap, topics, registry);
                SinkCounter sink = ceiling ? new SinkCounter(bootstrap, topics.events()) : null) {
            Random random = new Random(42);
            Map<String, RecentIds> ids = new ConcurrentHashMap<>();
            if (warmup > 0) {
                // the harness answers each round with MORE (another round) or GO (the measured requests)
                BufferedReader control = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
                String answer = "MORE";
                while ("MORE".equals(answer)) {
                    phase(publisher, sink, random, ids, warmup, spaces, inFlight, "warmup-" + tag, 'W');
                    line("WARMED");
                    answer = control.readLine();
                }
                if (!"GO".equals(answer)) {
                    throw new IllegalStateException("expected MORE or GO on stdin, got " + answer);
                }
            }
            line("START " + micros());
            Map<String, Object> result = phase(publisher, sink, random, ids, requests, spaces, inFlight, tag, 'M');
            line("RESULT " + new ObjectMapper().writeValueAsString(result));
        }
    }

    /** Publishes {@code n} requests (90% creates, 10% content updates of earlier memories) and waits for them all. */
    private Map<String, Object> phase(
            MemoryPublisher publisher,
            SinkCounter sink,
            Random random,
            Map<String, RecentIds> ids,
            int n,
            int spaces,
            int inFlight,
            String tag,
            char kind)
            throws InterruptedException {
        Semaphore window = new Semaphore(inFlight);
        CountDownLatch done = new CountDownLatch(n);
        long[] outcomeNanos = new long[n];
        AtomicLong rejected = new AtomicLong();
        if (sink != null) {
            sink.track(window, done);
        }
        long start = System.nanoTime();
        for (int i = 0; i < n; i++) {
            window.acquire();
            String space = tag + "space-" + (i % spaces);
            MemoryRequest request = nextRequest(random, space, ids.get(space));
            if (sink != null) {
                // the ceiling: no outcome comes back, the known ids only shape later requests like the chain's
                ids.computeIfAbsent(space, s -> new RecentIds())
                        .add(UUID.randomUUID().toString());
                publisher.publish(request);
                continue;
            }
            long t0 = System.nanoTime();
            long t0Micros = micros();
            int index = i;
            publisher.publish(request).whenComplete((outcome, error) -> {
                outcomeNanos[index] = System.nanoTime() - t0;
                window.release();
                accepted(outcome, error, request, space, ids, rejected, kind, index, t0Micros);
                done.countDown();
            });
        }
        if (!done.await(10, TimeUnit.MINUTES)) {
            throw new IllegalStateException(done.getCount() + " of " + n + " requests unanswered after 10 minutes");
        }
        double secs = (System.nanoTime() - start) / 1e9;
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("requests", n);
        m.put("seconds", HarnessSupport.round(secs));
        m.put("rejected_or_failed", rejected.get());
        m.put(sink != null ? "copied_per_second" : "answered_per_second", Math.round(n / secs));
        if (sink == null) {
            m.put("accepted_per_second_outcome", Math.round((n - rejected.get()) / secs));
            m.put("publish_to_outcome_ms", HarnessSupport.percentiles(outcomeNanos));
        }
        return m;
    }

    private void accepted(
            MemoryOutcome outcome,
            Throwable error,
            MemoryRequest request,
            String space,
            Map<String, RecentIds> ids,
            AtomicLong rejected,
            char kind,
            int index,
            long t0Micros) {
        if (error != null || !outcome.getAccepted()) {
            rejected.incrementAndGet();
            return;
        }
        if (request.getOp() instanceof CreateMemory) {
            ids.computeIfAbsent(space, s -> new RecentIds()).add(outcome.getMemoryId());
        }
        line("ACK " + kind + " " + index + " " + space + " " + outcome.getSeq() + " " + t0Micros);
    }

    static MemoryRequest nextRequest(Random random, String space, RecentIds known) {
        Actor agent = Requests.actor(ActorType.AGENT, "bench");
        if (known != null && known.size() > 10 && random.nextInt(10) == 0) {
            return Requests.updateContent(space, agent, known.any(random), sentence(random))
                    .build();
        }
        return Requests.create(
                        space,
                        agent,
                        CreateMemory.newBuilder()
                                .setContent(sentence(random))
                                .setImportance(1 + random.nextInt(5))
                                .setCategory(WORDS[random.nextInt(WORDS.length)])
                                .build())
                .build();
    }

    /** A memory content of 20-59 words from a small vocabulary, with a number: the load harnesses' texts. */
    static String sentence(Random random) {
        StringBuilder sb = new StringBuilder();
        int words = 20 + random.nextInt(40);
        for (int i = 0; i < words; i++) {
            sb.append(i == 0 ? "" : " ").append(WORDS[random.nextInt(WORDS.length)]);
        }
        return sb.append(" #").append(random.nextInt(1_000_000)).toString();
    }

    /** Epoch microseconds: comparable between the generator's and the harness's JVMs on one machine. */
    static long micros() {
        return ChronoUnit.MICROS.between(Instant.EPOCH, Instant.now());
    }

    private synchronized void line(String text) {
        out.println(TAG + text);
        out.flush();
    }

    private String required(String key) {
        String value = opts.get(key);
        if (value == null) {
            throw new IllegalArgumentException("--" + key + " is required");
        }
        return value;
    }

    /**
     * Counts the records the ceiling's pass-through commits to its sink topic (read_committed, from the end as it was
     * when the counter started), releasing one permit of the publishing window per record.
     */
    private static final class SinkCounter implements AutoCloseable {

        private final KafkaConsumer<byte[], byte[]> consumer;
        private final Thread thread;
        private volatile Semaphore window;
        private volatile CountDownLatch done;
        private volatile boolean running = true;

        SinkCounter(String bootstrap, String topic) {
            Map<String, Object> c = Map.of(
                    ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
                    bootstrap,
                    ConsumerConfig.ISOLATION_LEVEL_CONFIG,
                    "read_committed",
                    ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG,
                    false,
                    ConsumerConfig.CLIENT_ID_CONFIG,
                    "bench-ceiling-sink");
            consumer = new KafkaConsumer<>(c, new ByteArrayDeserializer(), new ByteArrayDeserializer());
            List<TopicPartition> partitions = consumer.partitionsFor(topic, Duration.ofSeconds(30)).stream()
                    .map(p -> new TopicPartition(p.topic(), p.partition()))
                    .toList();
            consumer.assign(partitions);
            consumer.seekToEnd(partitions);
            partitions.forEach(consumer::position);
            thread = new Thread(this::poll, "ceiling-sink");
            thread.setDaemon(true);
            thread.start();
        }

        void track(Semaphore window, CountDownLatch done) {
            this.window = window;
            this.done = done;
        }

        private void poll() {
            while (running) {
                ConsumerRecords<byte[], byte[]> records = consumer.poll(Duration.ofMillis(100));
                if (!records.isEmpty()) {
                    window.release(records.count());
                    for (int i = 0; i < records.count(); i++) {
                        done.countDown();
                    }
                }
            }
        }

        @Override
        public void close() {
            running = false;
            try {
                thread.join(5_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            consumer.close();
        }
    }

    /**
     * The last {@link #KEPT} memory ids of a space, which updates pick from: bounded, so long warm-ups neither fill the
     * generator's heap nor copy a growing list on every add.
     */
    static final class RecentIds {

        static final int KEPT = 1_000;

        private final String[] ids = new String[KEPT];
        private long added;

        synchronized void add(String id) {
            ids[(int) (added++ % KEPT)] = id;
        }

        synchronized int size() {
            return (int) Math.min(added, KEPT);
        }

        synchronized String any(Random random) {
            return ids[random.nextInt(size())];
        }
    }
}
