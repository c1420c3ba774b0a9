package io.memorychain.jobs;

import static org.awaitility.Awaitility.await;

import io.memorychain.avro.ActorType;
import io.memorychain.avro.MemoryRequest;
import io.memorychain.events.DeadLetterHeaders;
import io.memorychain.events.Topics;
import io.memorychain.events.registry.SchemaRegistry;
import io.memorychain.events.serde.AvroWireSerde;
import io.memorychain.events.testing.SharedKafka;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * What the integration tests of the {@link ChainJob} jobs (ToM, consolidation, reflection) read and write on the shared
 * broker: whole topics, a job's requests, its dead letters, an undecodable record, and a job running on another thread.
 */
public final class JobRecords {

    /** The key of the undecodable record {@link #junk} writes: no chain has it. */
    public static final String JUNK_SPACE = "junk.space";

    private JobRecords() {}

    /** Every record of a topic up to its end offsets at call time. */
    public static List<ConsumerRecord<byte[], byte[]>> readAll(String topic, String isolation) {
        try (KafkaConsumer<byte[], byte[]> consumer = consumer(isolation)) {
            List<TopicPartition> partitions = consumer.partitionsFor(topic).stream()
                    .map(p -> new TopicPartition(p.topic(), p.partition()))
                    .toList();
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> ends = consumer.endOffsets(partitions);
            List<ConsumerRecord<byte[], byte[]>> records = new ArrayList<>();
            await().atMost(Duration.ofSeconds(30)).until(() -> {
                consumer.poll(Duration.ofMillis(100)).forEach(records::add);
                return partitions.stream().allMatch(tp -> consumer.position(tp) >= ends.get(tp));
            });
            return records;
        }
    }

    /**
     * The request ids the job {@code worker:NAME} published, in topic order, as a reader at that isolation sees them.
     */
    public static List<String> requestIds(Topics topics, SchemaRegistry registry, String isolation, String worker) {
        AvroWireSerde<MemoryRequest> serde = AvroWireSerde.forValues(registry, MemoryRequest.class);
        return readAll(topics.requests(), isolation).stream()
                .map(r -> serde.deserialize(topics.requests(), r.value()))
                .filter(r -> r.getActor().getType() == ActorType.WORKER
                        && r.getActor().getId().equals(worker))
                .map(MemoryRequest::getRequestId)
                .toList();
    }

    /** The source offsets of the committed dead letters whose stage is {@code stage}. */
    public static List<String> deadLetterOffsets(Topics topics, String stage) {
        return readAll(topics.deadLetters(), "read_committed").stream()
                .filter(r -> r.headers().lastHeader(DeadLetterHeaders.STAGE) != null
                        && stage.equals(new String(
                                r.headers().lastHeader(DeadLetterHeaders.STAGE).value(), StandardCharsets.UTF_8)))
                .map(r -> new String(
                        r.headers().lastHeader(DeadLetterHeaders.OFFSET).value(), StandardCharsets.UTF_8))
                .toList();
    }

    /** The stage header of every committed dead letter (the projection sets an undecodable record aside too). */
    public static List<String> deadLetterStages(Topics topics) {
        return readAll(topics.deadLetters(), "read_committed").stream()
                .map(r -> new String(
                        r.headers().lastHeader(DeadLetterHeaders.STAGE).value(), StandardCharsets.UTF_8))
                .toList();
    }

    /** An undecodable record on the events topic under {@link #JUNK_SPACE}; returns its offset. */
    public static long junk(Topics topics) throws Exception {
        try (KafkaProducer<byte[], byte[]> producer =
                new KafkaProducer<>(SharedKafka.clientProps(), new ByteArraySerializer(), new ByteArraySerializer())) {
            return producer.send(new ProducerRecord<>(
                            topics.events(),
                            JUNK_SPACE.getBytes(StandardCharsets.UTF_8),
                            "not an avro record".getBytes(StandardCharsets.UTF_8)))
                    .get(30, TimeUnit.SECONDS)
                    .offset();
        }
    }

    /** Waits until the group has committed the end of every events partition. */
    public static void awaitCaughtUp(Topics topics, String group) {
        try (Admin admin = SharedKafka.admin();
                KafkaConsumer<byte[], byte[]> probe = consumer("read_committed")) {
            await().atMost(Duration.ofSeconds(90)).until(() -> {
                List<TopicPartition> partitions = probe.partitionsFor(topics.events()).stream()
                        .map(p -> new TopicPartition(p.topic(), p.partition()))
                        .toList();
                Map<TopicPartition, Long> ends = probe.endOffsets(partitions);
                Map<TopicPartition, OffsetAndMetadata> committed = admin.listConsumerGroupOffsets(group)
                        .partitionsToOffsetAndMetadata()
                        .get(10, TimeUnit.SECONDS);
                return ends.entrySet().stream()
                        .allMatch(e -> e.getValue() == 0
                                || (committed.get(e.getKey()) != null
                                        && committed.get(e.getKey()).offset() >= e.getValue()));
            });
        }
    }

    static KafkaConsumer<byte[], byte[]> consumer(String isolation) {
        Map<String, Object> c = new HashMap<>(SharedKafka.clientProps());
        c.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, isolation);
        c.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        return new KafkaConsumer<>(c, new ByteArrayDeserializer(), new ByteArrayDeserializer());
    }

    /**
     * A commit hook that fails the first batch with requests, after they were sent and before the transaction commits:
     * a crash mid-batch. {@code crashes} counts the batches it saw fail.
     */
    public static ChainJob.BeforeCommit crashOnce(java.util.concurrent.atomic.AtomicInteger crashes) {
        return requests -> {
            if (!requests.isEmpty() && crashes.getAndIncrement() == 0) {
                throw new IllegalStateException("simulated crash mid-batch");
            }
        };
    }

    /** A job running on another thread; closing stops it, waits for its loop to end, then closes it. */
    public static final class Running implements AutoCloseable {
        private final ChainJob<?> job;
        private final CompletableFuture<Void> loop;

        public Running(ChainJob<?> job) {
            this.job = job;
            this.loop = CompletableFuture.runAsync(job::run);
        }

        @Override
        public void close() throws ExecutionException, TimeoutException {
            job.stop();
            try {
                loop.get(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while stopping the job", e);
            } finally {
                job.close();
            }
        }
    }
}
