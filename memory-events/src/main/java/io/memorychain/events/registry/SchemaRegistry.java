package io.memorychain.events.registry;

import org.apache.avro.Schema;

/**
 * The subset of the Confluent Schema Registry protocol the serde needs. Implementations:
 * {@code ConfluentRegistryClient} (any server speaking the Confluent REST API: Confluent, Apicurio ccompat, Karapace,
 * Redpanda) and {@code KafkaTopicSchemaRegistry} (the embedded default, stored in a compacted topic). Implementations
 * are thread-safe and cache ids and schemas.
 */
public interface SchemaRegistry extends AutoCloseable {

    /** Registers the schema under the subject (idempotent) and returns its global id. */
    int register(String subject, Schema schema);

    /** The schema with that global id; throws {@link SchemaRegistryException} when unknown. */
    Schema byId(int id);

    /** Whether the schema is compatible with the subject's latest version under the subject's compatibility level. */
    boolean isCompatible(String subject, Schema schema);

    @Override
    default void close() {}
}
