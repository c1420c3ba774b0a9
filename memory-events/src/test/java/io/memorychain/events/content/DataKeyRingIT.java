package io.memorychain.events.content;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.memorychain.avro.DataKeyRecord;
import io.memorychain.events.serde.AvroWireSerde;
import io.memorychain.events.testing.InMemorySchemaRegistry;
import io.memorychain.events.testing.SharedKafka;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The data key ring on a real broker (docs/architecture.md §12): a reader asks for a key whose transaction is not
 * committed on the key topic yet, as happens when the commit markers reach the event's partition before the key
 * topic's; the ring waits for it instead of answering "no key" (which sent the event to the dead-letter topic).
 */
@Tag("integration")
@ExtendWith(SharedKafka.class)
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class DataKeyRingIT {

    private static final String SPACE = "ring-space";

    @Test
    void aKeyCommittedAMomentAfterItIsAskedForIsFoundNotMissing() throws Exception {
        String topic = SharedKafka.uniquePrefix() + "memory.keys.v1";
        SharedKafka.createTopics(1, topic);
        InMemorySchemaRegistry registry = new InMemorySchemaRegistry();
        MasterKey master = MasterKey.generate();
        byte[] raw = ContentCipher.newKey();
        DataKeyRecord record = DataKeyRecord.newBuilder()
                .setSpace(SPACE)
                .setMemoryId("m1")
                .setKeyId("k1")
                .setCreatedSeq(1)
                .setMasterKeyId(master.id())
                .setWrappedKey(ByteBuffer.wrap(master.wrap(SPACE, "m1", raw)))
                .setDestroyedSeq(null)
                .build();
        Map<String, Object> config = new HashMap<>(SharedKafka.clientProps());
        config.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, "ring-it-" + UUID.randomUUID());
        try (KafkaProducer<String, DataKeyRecord> producer = new KafkaProducer<>(
                        config, new StringSerializer(), AvroWireSerde.forValues(registry, DataKeyRecord.class));
                DataKeyRing ring =
                        new DataKeyRing(SharedKafka.clientProps(), topic, registry, master, Duration.ofSeconds(3))) {
            producer.initTransactions();
            producer.beginTransaction();
            producer.send(new ProducerRecord<>(topic, DataKeyRing.recordKey(SPACE, "m1"), record))
                    .get();
            ring.catchUp();

            CompletableFuture<DataKey> asked = CompletableFuture.supplyAsync(() -> ring.find(SPACE, "m1"));
            await().during(Duration.ofMillis(300)).atMost(Duration.ofSeconds(5)).until(() -> !asked.isDone());
            producer.commitTransaction();

            DataKey key = asked.get(20, TimeUnit.SECONDS);
            assertThat(key).as("found once committed").isNotNull();
            assertThat(key.key()).isEqualTo(raw);
            assertThat(ring.find(SPACE, "nobody"))
                    .as("a key never written is still missing")
                    .isNull();
        }
    }
}
