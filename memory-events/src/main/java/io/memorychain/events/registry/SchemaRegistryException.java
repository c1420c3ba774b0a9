package io.memorychain.events.registry;

/** A registry call failed: unknown id or subject, incompatible schema, or the registry could not be reached. */
public class SchemaRegistryException extends RuntimeException {

    public SchemaRegistryException(String message) {
        super(message);
    }

    public SchemaRegistryException(String message, Throwable cause) {
        super(message, cause);
    }
}
