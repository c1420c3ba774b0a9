package io.memorychain.api.routing;

import io.memorychain.api.backend.ChainRouting;
import io.memorychain.api.config.InstanceConfig;
import io.memorychain.api.config.MemoryConfig;
import io.micronaut.context.event.ApplicationEventListener;
import io.micronaut.grpc.server.GrpcEmbeddedServer;
import io.micronaut.runtime.server.event.ServerStartupEvent;
import jakarta.inject.Singleton;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * What this instance advertises to the others (docs/architecture.md §19): its id, its REST base URL (also the
 * projection's {@code application.server}) and its gRPC address ({@code memory.instance.advertised-grpc-address}, else
 * the REST host with the port the gRPC server listens on), served at {@code GET /instance}.
 */
@Singleton
class InstanceAddresses implements ApplicationEventListener<ServerStartupEvent> {

    private final ChainRouting backend;
    private final InstanceConfig config;
    private final String instanceId;
    private volatile int grpcPort = -1;

    public InstanceAddresses(ChainRouting backend, InstanceConfig config, MemoryConfig memory) {
        this.backend = backend;
        this.config = config;
        this.instanceId = memory.instanceName();
    }

    @Override
    public void onApplicationEvent(ServerStartupEvent event) {
        if (event.getSource() instanceof GrpcEmbeddedServer grpc) {
            grpcPort = grpc.getPort();
        }
    }

    /** This instance's gRPC address as the others reach it, or empty when it does not route. */
    public Optional<String> grpcAddress() {
        return config.grpcAddress(backend.advertisedUrl(), grpcPort);
    }

    /** The body of {@code GET /instance}. */
    public Map<String, Object> describe() {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("instance_id", instanceId);
        backend.advertisedUrl().ifPresent(url -> out.put("rest_url", url.toString()));
        grpcAddress().ifPresent(address -> out.put("grpc_address", address));
        return out;
    }
}
