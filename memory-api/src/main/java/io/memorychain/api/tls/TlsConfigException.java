package io.memorychain.api.tls;

/** Bad TLS configuration: the message names the configuration key and the file, meant to fail start-up in one line. */
final class TlsConfigException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public TlsConfigException(String message) {
        super(message);
    }
}
