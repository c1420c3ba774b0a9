package io.memorychain.api.backend;

import io.memorychain.events.content.MasterKey;
import io.memorychain.projector.MemoryChainRuntime;
import java.net.URI;
import java.util.Optional;

/**
 * The chain's Kafka Streams applications as {@link ChainRuntimeFactory} started them, with their settings, the content
 * master key (empty with encryption off) and the address this instance advertises to the others (empty when it does not
 * route). Closing it stops the applications.
 */
record ChainRuntime(
        MemoryChainRuntime runtime,
        MemoryChainRuntime.Settings settings,
        Optional<MasterKey> contentKey,
        Optional<URI> advertised)
        implements AutoCloseable {

    @Override
    public void close() {
        runtime.close();
    }
}
