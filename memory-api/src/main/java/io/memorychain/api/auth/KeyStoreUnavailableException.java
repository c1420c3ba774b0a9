package io.memorychain.api.auth;

/** The key store cannot be read or written now (Kafka unreachable): callers get 503, not 401. */
public class KeyStoreUnavailableException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public KeyStoreUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }
}
