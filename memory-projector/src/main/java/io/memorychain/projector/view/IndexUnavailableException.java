package io.memorychain.projector.view;

/**
 * The space's search index is not on this instance right now: its task is being (re)assigned or rebuilt, or another
 * instance holds it. Retry later (HTTP 503).
 */
public final class IndexUnavailableException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public IndexUnavailableException(String message) {
        super(message);
    }
}
