package io.memorychain.llm.rerank;

/** The reranker gave no usable scores: timeout, unreachable server, error status or malformed reply. */
public final class RerankException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public RerankException(String message, Throwable cause) {
        super(message, cause);
    }
}
