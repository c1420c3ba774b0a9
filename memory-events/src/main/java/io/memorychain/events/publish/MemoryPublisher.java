package io.memorychain.events.publish;

import io.memorychain.avro.MemoryOutcome;
import io.memorychain.avro.MemoryRequest;
import io.memorychain.events.Topics;
import io.memorychain.events.registry.SchemaRegistry;
import io.memorychain.events.registry.SchemaRegistryUnavailableException;
import io.memorychain.events.serde.AvroWireSerde;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.CloseOptions;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How agents (and the API) change memory: publishes {@link MemoryRequest}s to the requests topic with an idempotent
 * producer ({@code acks=all}) and completes each returned future with the sequencer's {@link MemoryOutcome}.
 *
 * <p>A sender thread serializes whatever requests are queued and hands them to the producer, which batches them by
 * itself. No transaction: each request is on its own (the sequencer answers a request id it has seen with its first
 * outcome, so a request written twice is applied once), and a transaction's commit would only delay the moment the
 * sequencer can read it. An outcome listener reads the outcomes topic (read_committed) from the moment the publisher
 * was created. A request whose outcome does not arrive keeps its future pending: callers bound their wait with
 * {@code orTimeout} and may retry with the same request id, which the sequencer answers with the original outcome.
 *
 * <p>Schema registry outages (docs/architecture.md §19, "Faults"): once the request schema is registered and the
 * outcome schema known, both are cached and publishing works without the registry. A request that needs the registry
 * while it cannot be reached (the first publish of a new publisher) fails at once with a {@link PublishException} whose
 * cause is the {@link SchemaRegistryUnavailableException}: nothing was written, the publisher stays usable, and the
 * same request id can be published again once the registry is back. An outcome whose writer schema cannot be fetched
 * yet is retried with back-off until the registry answers (or the publisher closes), never dropped.
 */
public final class MemoryPublisher implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(MemoryPublisher.class);
    private static final int MAX_BATCH = 2_000;
    private static final long MAX_REGISTRY_BACKOFF_MS = 5_000;

    private final Topics topics;
    private final KafkaProducer<String, byte[]> producer;
    private final AvroWireSerde<MemoryRequest> requestSerde;
    private final KafkaConsumer<String, byte[]> outcomeConsumer;
    private final AvroWireSerde<MemoryOutcome> outcomeSerde;
    private final Map<String, CompletableFuture<MemoryOutcome>> pending = new ConcurrentHashMap<>();
    private final BlockingQueue<MemoryRequest> queue = new LinkedBlockingQueue<>();
    private final Thread sender;
    private final Thread listener;
    private final CountDownLatch listenerReady = new CountDownLatch(1);
    private volatile boolean running = true;

    public MemoryPublisher(String bootstrapServers, Topics topics, SchemaRegistry registry) {
        this(bootstrapServers, topics, registry, Map.of());
    }

    /** {@code overrides} are extra producer/consumer settings (security, client ids). */
    public MemoryPublisher(
            String bootstrapServers, Topics topics, SchemaRegistry registry, Map<String, Object> overrides) {
        this.topics = topics;
        this.outcomeSerde = AvroWireSerde.forValues(registry, MemoryOutcome.class);
        this.requestSerde = AvroWireSerde.forValues(registry, MemoryRequest.class);
        String instance = UUID.randomUUID().toString();

        Properties p = new Properties();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        p.put(ProducerConfig.CLIENT_ID_CONFIG, "memory-publisher-" + instance);
        p.put(ProducerConfig.LINGER_MS_CONFIG, 2);
        p.put(ProducerConfig.BATCH_SIZE_CONFIG, 256 * 1024);
        p.putAll(overrides);
        // requests are serialized before the transaction: a registry failure fails those requests, not the sender
        this.producer = new KafkaProducer<>(p, new StringSerializer(), new ByteArraySerializer());

        Properties c = new Properties();
        c.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        c.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        c.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        c.put(ConsumerConfig.CLIENT_ID_CONFIG, "memory-publisher-outcomes-" + instance);
        overrides.forEach((k, v) -> {
            if (ConsumerConfig.configNames().contains(k)) {
                c.put(k, v);
            }
        });
        this.outcomeConsumer = new KafkaConsumer<>(c, new StringDeserializer(), new ByteArrayDeserializer());

        this.listener = new Thread(this::listen, "memory-publisher-outcomes");
        this.listener.setDaemon(true);
        this.listener.start();
        awaitListener();
        this.sender = new Thread(this::sendLoop, "memory-publisher-sender");
        this.sender.setDaemon(true);
        this.sender.start();
    }

    /**
     * Publishes the request; the future completes with its outcome (accepted or rejected), or exceptionally if the
     * request could not be written to Kafka. Publishing the same request id in the same space while it is pending
     * shares one future; request ids are scoped by space, as the sequencer's idempotency is.
     */
    public CompletableFuture<MemoryOutcome> publish(MemoryRequest request) {
        if (!running) {
            return CompletableFuture.failedFuture(new IllegalStateException("MemoryPublisher is closed"));
        }
        String key = pendingKey(request.getSpace(), request.getRequestId());
        CompletableFuture<MemoryOutcome> fresh = new CompletableFuture<>();
        CompletableFuture<MemoryOutcome> existing = pending.putIfAbsent(key, fresh);
        if (existing != null) {
            return existing;
        }
        fresh.whenComplete((o, e) -> pending.remove(key, fresh));
        queue.add(request);
        return fresh;
    }

    private static String pendingKey(String space, String requestId) {
        return space + '\u0000' + requestId;
    }

    /** Number of requests whose outcome has not arrived yet. */
    public int pendingCount() {
        return pending.size();
    }

    private void sendLoop() {
        List<MemoryRequest> batch = new ArrayList<>();
        while (running || !queue.isEmpty()) {
            try {
                MemoryRequest first = queue.poll(100, TimeUnit.MILLISECONDS);
                if (first == null) {
                    continue;
                }
                batch.add(first);
                queue.drainTo(batch, MAX_BATCH - 1);
                send(batch);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            } finally {
                batch.clear();
            }
        }
    }

    private void send(List<MemoryRequest> all) {
        List<MemoryRequest> batch = new ArrayList<>(all.size());
        List<byte[]> values = new ArrayList<>(all.size());
        for (int i = 0; i < all.size(); i++) {
            MemoryRequest request = all.get(i);
            try {
                values.add(requestSerde.serialize(topics.requests(), request));
                batch.add(request);
            } catch (SchemaRegistryUnavailableException e) {
                // every request of the batch needs the same schema id: fail them all without asking again
                log.error(
                        "Schema registry unavailable: {} requests not published to {}: {}",
                        all.size() - i,
                        topics.requests(),
                        e.getMessage());
                all.subList(i, all.size()).forEach(r -> fail(r, "the schema registry is unavailable", e));
                break;
            } catch (RuntimeException e) {
                log.error(
                        "Could not serialize request {} for {}: {}",
                        request.getRequestId(),
                        topics.requests(),
                        e.toString());
                fail(request, "it cannot be serialized", e);
            }
        }
        if (batch.isEmpty()) {
            return;
        }
        for (int i = 0; i < batch.size(); i++) {
            MemoryRequest request = batch.get(i);
            try {
                producer.send(
                        new ProducerRecord<>(topics.requests(), request.getSpace(), values.get(i)), (metadata, e) -> {
                            if (e != null) {
                                notSent(request, e);
                            }
                        });
            } catch (KafkaException e) {
                notSent(request, e);
            }
        }
    }

    /**
     * Kafka refused the request or did not acknowledge it in time ({@code delivery.timeout.ms}): it may or may not be
     * on the topic, so the caller learns it failed and may publish the same request id again.
     */
    private void notSent(MemoryRequest request, Exception e) {
        log.error("Could not publish request {} to {}: {}", request.getRequestId(), topics.requests(), e.toString());
        CompletableFuture<MemoryOutcome> future = pending.get(pendingKey(request.getSpace(), request.getRequestId()));
        if (future != null) {
            future.completeExceptionally(new PublishException(
                    "Could not publish request " + request.getRequestId() + ": " + e.getMessage(), e));
        }
    }

    private void fail(MemoryRequest request, String why, RuntimeException cause) {
        CompletableFuture<MemoryOutcome> future = pending.get(pendingKey(request.getSpace(), request.getRequestId()));
        if (future != null) {
            future.completeExceptionally(new PublishException(
                    "Could not publish request " + request.getRequestId() + ": " + why + " (" + cause.getMessage()
                            + "); nothing was written, retry with the same request id",
                    cause));
        }
    }

    private void listen() {
        try {
            List<TopicPartition> partitions =
                    outcomeConsumer.partitionsFor(topics.outcomes(), Duration.ofSeconds(30)).stream()
                            .map(pi -> new TopicPartition(pi.topic(), pi.partition()))
                            .toList();
            outcomeConsumer.assign(partitions);
            outcomeConsumer.seekToEnd(partitions);
            partitions.forEach(outcomeConsumer::position); // resolve now: nothing published after this is missed
            listenerReady.countDown();
            while (running) {
                for (ConsumerRecord<String, byte[]> record : outcomeConsumer.poll(Duration.ofMillis(200))) {
                    complete(record);
                }
            }
        } catch (WakeupException e) {
            // closing
        } catch (RuntimeException e) {
            log.error("Outcome listener on {} stopped: {}", topics.outcomes(), e.toString(), e);
            pending.values().forEach(f -> f.completeExceptionally(e));
        } finally {
            listenerReady.countDown();
            outcomeConsumer.close(CloseOptions.timeout(Duration.ofSeconds(1)));
        }
    }

    private void complete(ConsumerRecord<String, byte[]> record) {
        if (pending.isEmpty()) {
            return;
        }
        MemoryOutcome outcome;
        try {
            outcome = decodeOutcome(record);
        } catch (RuntimeException e) {
            log.error(
                    "Undecodable outcome at {}-{}@{}: {}",
                    record.topic(),
                    record.partition(),
                    record.offset(),
                    e.toString());
            return; // its request, if ours, stays pending: the caller's bounded wait reports it
        }
        if (outcome == null) {
            return; // closing
        }
        CompletableFuture<MemoryOutcome> future = pending.get(pendingKey(outcome.getSpace(), outcome.getRequestId()));
        if (future != null) { // else another publisher's request
            future.complete(outcome);
        }
    }

    /** Decodes an outcome, waiting out a schema registry outage; null when the publisher closes meanwhile. */
    private MemoryOutcome decodeOutcome(ConsumerRecord<String, byte[]> record) {
        long backoffMs = 200;
        while (running) {
            try {
                return outcomeSerde.deserialize(record.topic(), record.value());
            } catch (SchemaRegistryUnavailableException e) {
                log.warn(
                        "Outcome at {}-{}@{} waits for the schema registry (retry in {} ms): {}",
                        record.topic(),
                        record.partition(),
                        record.offset(),
                        backoffMs,
                        e.getMessage());
                try {
                    Thread.sleep(backoffMs); // back-off while the registry cannot answer
                } catch (InterruptedException interrupted) {
                    Thread.currentThread().interrupt();
                    return null;
                }
                backoffMs = Math.min(backoffMs * 2, MAX_REGISTRY_BACKOFF_MS);
            }
        }
        return null;
    }

    private void awaitListener() {
        try {
            if (!listenerReady.await(60, TimeUnit.SECONDS)) {
                throw new IllegalStateException("Outcome listener did not start within 60 s");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
        if (!listener.isAlive()) {
            throw new IllegalStateException(
                    "Outcome listener failed to start (is topic " + topics.outcomes() + " there?)");
        }
    }

    @Override
    public void close() {
        running = false;
        try {
            sender.join(10_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        outcomeConsumer.wakeup();
        producer.close(Duration.ofSeconds(5));
        pending.values().forEach(f -> f.completeExceptionally(new IllegalStateException("MemoryPublisher closed")));
    }

    /** The request could not be written to Kafka; safe to retry with the same request id. */
    public static final class PublishException extends RuntimeException {

        private static final long serialVersionUID = 1L;

        public PublishException(String message, Throwable cause) {
            super(message, cause);
        }
    }
}
