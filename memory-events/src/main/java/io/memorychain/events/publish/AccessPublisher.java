package io.memorychain.events.publish;

import io.memorychain.avro.MemoryAccess;
import io.memorychain.events.Topics;
import io.memorychain.events.registry.SchemaRegistry;
import io.memorychain.events.serde.AvroWireSerde;
import java.util.Properties;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Publishes read accesses to {@code memory.access.v1} (key = space), asynchronously: the read path never waits for
 * it. A failed send is logged and dropped (it only weakens decay reinforcement); the idempotent producer retries
 * transient errors without duplicating records.
 */
public final class AccessPublisher implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(AccessPublisher.class);

    private final KafkaProducer<String, MemoryAccess> producer;
    private final String topic;

    public AccessPublisher(String bootstrapServers, Topics topics, SchemaRegistry registry) {
        Properties p = new Properties();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        p.put(ProducerConfig.LINGER_MS_CONFIG, 20);
        this.producer = new KafkaProducer<>(p, new StringSerializer(), AvroWireSerde.forValues(registry,
                MemoryAccess.class));
        this.topic = topics.access();
    }

    public void publish(MemoryAccess access) {
        producer.send(new ProducerRecord<>(topic, access.getSpace(), access), (metadata, error) -> {
            if (error != null) {
                log.warn("Access record of space {} ({} memories) was not published: {}", access.getSpace(),
                        access.getMemoryIds().size(), error.toString());
            }
        });
    }

    @Override
    public void close() {
        producer.close();
    }
}
