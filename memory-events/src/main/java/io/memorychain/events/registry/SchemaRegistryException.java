package io.memorychain.events.registry;

/**
 * A registry call failed: unknown id or subject, incompatible schema, or the registry could not be reached. When the
 * failure came from a registry's HTTP answer, {@link #httpStatus()} and {@link #errorCode()} carry the HTTP status and
 * the registry's {@code error_code} (both {@code -1} otherwise).
 */
public class SchemaRegistryException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final int httpStatus;
    private final int errorCode;

    public SchemaRegistryException(String message) {
        this(message, -1, -1, null);
    }

    public SchemaRegistryException(String message, Throwable cause) {
        this(message, -1, -1, cause);
    }

    /** A failure answered by a registry over HTTP, with its status and {@code error_code} ({@code -1} if absent). */
    public SchemaRegistryException(String message, int httpStatus, int errorCode) {
        this(message, httpStatus, errorCode, null);
    }

    private SchemaRegistryException(String message, int httpStatus, int errorCode, Throwable cause) {
        super(message, cause);
        this.httpStatus = httpStatus;
        this.errorCode = errorCode;
    }

    /** The HTTP status of the registry's answer, or {@code -1} when the failure did not come from an HTTP answer. */
    public int httpStatus() {
        return httpStatus;
    }

    /** The registry's {@code error_code} (e.g. 409, 40401, 40403), or {@code -1} when there was none. */
    public int errorCode() {
        return errorCode;
    }
}
