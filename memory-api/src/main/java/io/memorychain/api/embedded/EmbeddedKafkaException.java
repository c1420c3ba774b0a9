package io.memorychain.api.embedded;

/** The embedded broker could not start (port in use, unusable data directory, timeout). The message says what to do. */
class EmbeddedKafkaException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public EmbeddedKafkaException(String message) {
        super(message);
    }

    public EmbeddedKafkaException(String message, Throwable cause) {
        super(message, cause);
    }
}
