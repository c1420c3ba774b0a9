package io.memorychain.api.backend;

import io.micronaut.context.annotation.Context;

/**
 * Starts the backend with the application context (fail fast: no HTTP port opens when Kafka or the runtime cannot
 * start). It asks for the {@link MemoryBackend} interface rather than being {@code @Context} itself, so a
 * {@code @Replaces} implementation (tests) is honoured.
 */
@Context
class BackendBootstrap {

    private final MemoryBackend backend;

    public BackendBootstrap(MemoryBackend backend) {
        this.backend = backend;
    }

    public MemoryBackend backend() {
        return backend;
    }
}
