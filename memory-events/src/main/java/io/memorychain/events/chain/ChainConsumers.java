package io.memorychain.events.chain;

import java.util.HashMap;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/** Consumers that read a chain from its topic: committed records only, no group, from the beginning. */
final class ChainConsumers {

    private ChainConsumers() {}

    /**
     * A groupless byte consumer of committed records starting at the earliest offset.
     *
     * @param consumerConfig the caller's client settings (bootstrap servers, security); a group id is dropped
     * @param clientPrefix the client id's prefix, unless the settings name one
     */
    static KafkaConsumer<byte[], byte[]> reader(Map<String, Object> consumerConfig, String clientPrefix) {
        Map<String, Object> config = new HashMap<>(consumerConfig);
        config.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        config.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        config.remove(ConsumerConfig.GROUP_ID_CONFIG);
        config.putIfAbsent(ConsumerConfig.CLIENT_ID_CONFIG, clientPrefix + UUID.randomUUID());
        config.putIfAbsent(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 5_000);
        return new KafkaConsumer<>(config, new ByteArrayDeserializer(), new ByteArrayDeserializer());
    }
}
