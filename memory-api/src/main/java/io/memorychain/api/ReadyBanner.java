package io.memorychain.api;

import io.memorychain.api.backend.MemoryBackend;
import io.memorychain.api.backend.MemoryChainBackend;
import io.micronaut.context.event.ApplicationEventListener;
import io.micronaut.grpc.server.GrpcEmbeddedServer;
import io.micronaut.runtime.server.event.ServerStartupEvent;
import jakarta.inject.Singleton;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** One clear line once everything is up. */
@Singleton
public class ReadyBanner implements ApplicationEventListener<ServerStartupEvent> {

    private static final Logger log = LoggerFactory.getLogger(ReadyBanner.class);

    private final MemoryBackend backend;

    public ReadyBanner(MemoryBackend backend) {
        this.backend = backend;
    }

    @Override
    public void onApplicationEvent(ServerStartupEvent event) {
        if (event.getSource() instanceof GrpcEmbeddedServer grpc) {
            log.info("gRPC MemoryService on {}:{} (memorychain.v1.MemoryService)", grpc.getHost(), grpc.getPort());
            return;
        }
        if (backend instanceof MemoryChainBackend chain) {
            log.info(
                    "Memory Chain ready on {} ({} Kafka at {}, data in {})",
                    event.getSource().getURL(),
                    chain.embedded() ? "embedded" : "external",
                    chain.bootstrapServers(),
                    chain.dataDir());
        } else {
            log.info(
                    "Memory Chain API ready on {} (backend {})",
                    event.getSource().getURL(),
                    backend.getClass().getSimpleName());
        }
    }
}
