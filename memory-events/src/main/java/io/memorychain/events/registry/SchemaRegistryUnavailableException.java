package io.memorychain.events.registry;

/**
 * The registry could not be asked (unreachable, timed out, server error): the record being read is not at fault.
 * Readers must not treat this as bad data (no dead-lettering, no "undecodable" verdict); they fail and retry.
 */
public class SchemaRegistryUnavailableException extends SchemaRegistryException {

    private static final long serialVersionUID = 1L;

    public SchemaRegistryUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }
}
