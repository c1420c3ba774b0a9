package io.memorychain.events.publish;

import io.memorychain.events.registry.SchemaRegistry;
import io.memorychain.events.serde.AvroWireSerde;
import java.util.Properties;
import java.util.function.Function;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Publishes records of a derived, off-chain topic keyed by space ({@code memory.access.v1}, {@code memory.ops.v1}),
 * asynchronously: the caller never waits. A failed send is logged and dropped (derived figures only get weaker); the
 * idempotent producer retries transient errors without duplicating records.
 */
public final class OffChainPublisher<T extends SpecificRecord> implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(OffChainPublisher.class);

    private final KafkaProducer<String, T> producer;
    private final String topic;
    private final Function<T, String> space;

    public OffChainPublisher(
            String bootstrapServers, String topic, SchemaRegistry registry, Class<T> type, Function<T, String> space) {
        Properties p = new Properties();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        p.put(ProducerConfig.LINGER_MS_CONFIG, 20);
        this.producer = new KafkaProducer<>(p, new StringSerializer(), AvroWireSerde.forValues(registry, type));
        this.topic = topic;
        this.space = space;
    }

    public void publish(T value) {
        String key = space.apply(value);
        producer.send(new ProducerRecord<>(topic, key, value), (metadata, error) -> {
            if (error != null) {
                log.warn(
                        "{} record of space {} was not published to {}: {}",
                        value.getSchema().getName(),
                        key,
                        topic,
                        error.toString());
            }
        });
    }

    @Override
    public void close() {
        producer.close();
    }
}
