package io.memorychain.worker;

/**
 * Where the schema registry is: exactly one of {@code url} (a server speaking the Confluent REST API) or {@code topic}
 * (the embedded registry's compacted topic on the cluster at {@code bootstrapServers}).
 *
 * @param url base URL of a Confluent-API registry, or null
 * @param topic the embedded registry's storage topic, or null
 * @param bootstrapServers the Kafka cluster (for the topic registry)
 */
record RegistrySpec(String url, String topic, String bootstrapServers) {

    RegistrySpec {
        if ((url == null) == (topic == null)) {
            throw new IllegalArgumentException("exactly one of url and topic");
        }
    }
}
