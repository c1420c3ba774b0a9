package io.memorychain.events.chain;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.memorychain.avro.MemoryEvent;
import io.memorychain.events.chain.VerificationResult.Problem;
import io.memorychain.events.serde.AvroWireSerde;
import io.memorychain.events.testing.InMemorySchemaRegistry;
import io.memorychain.events.testing.SharedKafka;
import io.memorychain.events.testing.TestChains;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.UnaryOperator;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Publishes sealed chains of three spaces into a real topic (transactionally, as the sequencer does), copies the topic
 * byte for byte except for one record, and checks that the verifier names exactly the damaged space and seq.
 */
@ExtendWith(SharedKafka.class)
class ChainTamperIT {

    private static final int PARTITIONS = 3;
    private static final int EVENTS = 40;
    private static final List<String> SPACES = List.of("space-a", "space-b", "space-c");
    private static final ChainKeys KEYS = ChainKeys.generate();
    private static final InMemorySchemaRegistry REGISTRY = new InMemorySchemaRegistry();

    private static String original;

    @BeforeAll
    static void publishChains() {
        original = SharedKafka.uniquePrefix() + "memory.events.v1";
        SharedKafka.createTopics(PARTITIONS, original);
        ChainSealer sealer = new ChainSealer(KEYS);
        Map<String, List<MemoryEvent>> chains = new HashMap<>();
        SPACES.forEach(space -> chains.put(space, TestChains.sealedChain(sealer, space, EVENTS)));

        Map<String, Object> config = new HashMap<>(SharedKafka.clientProps());
        config.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, "tamper-it-" + UUID.randomUUID());
        try (KafkaProducer<String, MemoryEvent> producer = new KafkaProducer<>(
                config, new StringSerializer(), AvroWireSerde.forValues(REGISTRY, MemoryEvent.class))) {
            producer.initTransactions();
            // interleaved, several transactions: commit markers sit between the records of every partition
            for (int batch = 0; batch < EVENTS / 10; batch++) {
                producer.beginTransaction();
                for (int i = batch * 10; i < batch * 10 + 10; i++) {
                    for (String space : SPACES) {
                        producer.send(new ProducerRecord<>(
                                original, space, chains.get(space).get(i)));
                    }
                }
                producer.commitTransaction();
            }
        }
    }

    private static KafkaChainReader reader(String topic, SignatureMode mode) {
        return new KafkaChainReader(SharedKafka.clientProps(), topic, REGISTRY, KEYS.publicRing(), mode);
    }

    @Test
    void verifiesEverySpaceOfAnUntouchedTopic() {
        Map<String, VerificationResult> all =
                reader(original, SignatureMode.ALL).verifyAll();

        assertThat(all).containsOnlyKeys(SPACES);
        all.forEach((space, result) -> {
            assertThat(result.ok()).as(space + ": " + result.message()).isTrue();
            assertThat(result.events()).isEqualTo(EVENTS);
        });
        for (String space : SPACES) {
            VerificationResult one =
                    reader(original, SignatureMode.checkpoints(16)).verifySpace(space);
            assertThat(one.ok()).as(one.message()).isTrue();
            assertThat(one.events()).isEqualTo(EVENTS);
        }
    }

    @Test
    void reportsFirstForgedSeqAsBadHash() {
        String forged = copyWith(original, "space-b", 17, value -> flip(value, "quick", (byte) 'Q'));

        Map<String, VerificationResult> all = reader(forged, SignatureMode.ALL).verifyAll();
        VerificationResult one = reader(forged, SignatureMode.ALL).verifySpace("space-b");
        VerificationResult checkpoints =
                reader(forged, SignatureMode.checkpoints(1000)).verifySpace("space-b");

        assertThat(all.get("space-a").ok()).isTrue();
        assertThat(all.get("space-c").ok()).isTrue();
        for (VerificationResult result : List.of(all.get("space-b"), one, checkpoints)) {
            assertThat(result.ok()).isFalse();
            assertThat(result.problem()).isEqualTo(Problem.BAD_HASH);
            assertThat(result.firstBadSeq()).isEqualTo(17L);
            assertThat(result.events()).isEqualTo(17);
            assertThat(result.message()).contains("[" + forged + "-");
        }
    }

    @Test
    void reportsRecordMadeUndecodableAsUndecodableAtItsSeq() {
        // byte 5 starts the Avro body: the zig-zag length of the space string; 0x01 decodes as length -1
        String damaged = copyWith(original, "space-c", 9, value -> {
            byte[] copy = value.clone();
            copy[5] = 0x01;
            return copy;
        });

        Map<String, VerificationResult> all = reader(damaged, SignatureMode.ALL).verifyAll();
        VerificationResult one = reader(damaged, SignatureMode.ALL).verifySpace("space-c");

        assertThat(all.get("space-a").ok()).isTrue();
        assertThat(all.get("space-b").ok()).isTrue();
        for (VerificationResult result : List.of(all.get("space-c"), one)) {
            assertThat(result.problem()).isEqualTo(Problem.UNDECODABLE);
            assertThat(result.firstBadSeq()).isEqualTo(9L);
            assertThat(result.message()).contains("cannot be decoded");
        }
    }

    @Test
    void aResumedVerificationContinuesAfterTheVerifiedHeadAndStillCatchesAForgedNewRecord() {
        String topic = SharedKafka.uniquePrefix() + "memory.events.v1";
        SharedKafka.createTopics(PARTITIONS, topic);
        List<MemoryEvent> chain = TestChains.sealedChain(new ChainSealer(KEYS), "space-r", 30);
        append(topic, chain.subList(0, 20));
        KafkaChainReader reader = reader(topic, SignatureMode.ALL);

        KafkaChainReader.Resumable first = reader.headAfter("space-r", null);
        assertThat(first.head().seq()).isEqualTo(20);
        assertThat(first.next().events()).isEqualTo(20);
        append(topic, chain.subList(20, 25));
        KafkaChainReader.Resumable resumed = reader.headAfter("space-r", first.next());
        ChainHead full = reader.headOf("space-r");

        assertThat(resumed.head().result().ok())
                .as(resumed.head().result().message())
                .isTrue();
        assertThat(resumed.head().seq()).isEqualTo(full.seq()).isEqualTo(25);
        assertThat(resumed.head().hash()).isEqualTo(full.hash());
        assertThat(resumed.head().result().events())
                .isEqualTo(full.result().events())
                .isEqualTo(25);
        assertThat(resumed.next().nextOffset()).isGreaterThan(first.next().nextOffset());

        // it did not read the first 20 again: a resumed head whose hash is not seq 20's breaks the link at seq 21
        KafkaChainReader.Position wrong = new KafkaChainReader.Position(
                first.next().partition(), first.next().nextOffset(), 20, 20, new byte[32]);
        VerificationResult misled = reader.headAfter("space-r", wrong).head().result();
        assertThat(misled.problem()).isEqualTo(Problem.BROKEN_LINK);
        assertThat(misled.firstBadSeq()).isEqualTo(21L);

        // a record appended after the resumed position with its content changed is caught at its seq
        MemoryEvent forged = TestChains.copy(chain.get(25));
        forged.setRequestId("forged");
        append(topic, List.of(forged));
        KafkaChainReader.Resumable caught = reader.headAfter("space-r", resumed.next());
        assertThat(caught.head().result().problem()).isEqualTo(Problem.BAD_HASH);
        assertThat(caught.head().result().firstBadSeq()).isEqualTo(26L);
        assertThat(caught.next())
                .as("a broken verdict gives nothing to resume from")
                .isNull();
    }

    private static void append(String topic, List<MemoryEvent> events) {
        try (KafkaProducer<String, MemoryEvent> producer = new KafkaProducer<>(
                SharedKafka.clientProps(),
                new StringSerializer(),
                AvroWireSerde.forValues(REGISTRY, MemoryEvent.class))) {
            events.forEach(e -> producer.send(new ProducerRecord<>(topic, e.getSpace(), e)));
        }
    }

    @Test
    void reportsASpaceAbsentFromTheTopicAsAnEmptyIntactChain() {
        VerificationResult result = reader(original, SignatureMode.ALL).verifySpace("nobody");

        assertThat(result.ok()).isTrue();
        assertThat(result.events()).isZero();
        assertThat(result.message()).isEqualTo("no events");
    }

    @Test
    void refusesATopicThatDoesNotExist() {
        Map<String, Object> config = new HashMap<>(SharedKafka.clientProps());
        config.put(ConsumerConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 3_000);
        KafkaChainReader reader = new KafkaChainReader(
                config, original + ".missing", REGISTRY, KEYS.publicRing(), SignatureMode.ALL, Duration.ofSeconds(10));

        assertThatThrownBy(reader::verifyAll).hasMessageContaining("does not exist");
    }

    /** Replaces the first occurrence of the ASCII marker's first byte with {@code replacement}. */
    private static byte[] flip(byte[] value, String marker, byte replacement) {
        byte[] needle = marker.getBytes(StandardCharsets.US_ASCII);
        for (int i = 0; i + needle.length <= value.length; i++) {
            if (Arrays.equals(value, i, i + needle.length, needle, 0, needle.length)) {
                byte[] copy = value.clone();
                copy[i] = replacement;
                return copy;
            }
        }
        throw new AssertionError("marker " + marker + " not found in the record");
    }

    /**
     * Copies every record of {@code source} to a new topic, to the same partition in the same order, applying
     * {@code edit} to the value of the event {@code seq} of {@code space} only.
     */
    private static String copyWith(String source, String space, long seq, UnaryOperator<byte[]> edit) {
        String target = SharedKafka.uniquePrefix() + "memory.events.v1";
        SharedKafka.createTopics(PARTITIONS, target);
        Map<String, Object> consumerConfig = new HashMap<>(SharedKafka.clientProps());
        consumerConfig.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        int edited = 0;
        try (KafkaConsumer<byte[], byte[]> consumer =
                        new KafkaConsumer<>(consumerConfig, new ByteArrayDeserializer(), new ByteArrayDeserializer());
                KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(
                        SharedKafka.clientProps(), new ByteArraySerializer(), new ByteArraySerializer())) {
            List<TopicPartition> partitions = new ArrayList<>();
            for (int p = 0; p < PARTITIONS; p++) {
                partitions.add(new TopicPartition(source, p));
            }
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> end = consumer.endOffsets(partitions);
            while (partitions.stream().anyMatch(tp -> consumer.position(tp) < end.get(tp))) {
                for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(200))) {
                    byte[] value = record.value();
                    String key = new String(record.key(), StandardCharsets.UTF_8);
                    if (key.equals(space)
                            && (Long) AvroWireSerde.decodeAsWritten(REGISTRY, value)
                                            .get("seq")
                                    == seq) {
                        value = edit.apply(value);
                        edited++;
                    }
                    producer.send(new ProducerRecord<>(target, record.partition(), record.key(), value));
                }
            }
            producer.flush();
        }
        assertThat(edited).as("records edited").isEqualTo(1);
        return target;
    }
}
