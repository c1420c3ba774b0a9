package io.memorychain.api.grpc;

import io.grpc.BindableService;
import io.grpc.ServerServiceDefinition;
import io.memorychain.api.grpc.v1.MemoryServiceGrpc;
import jakarta.inject.Singleton;
import java.util.List;

/**
 * The gRPC {@code memorychain.v1.MemoryService}, bound from its features ({@link GrpcFeature}: one class per feature,
 * as REST has one controller per feature). Each method turns its request into the REST body, calls the same
 * transport-neutral application service the REST controller calls, and answers the REST response record as a message
 * ({@link ProtoMapping}, {@link ProtoJson}). The caller is the principal {@link GrpcAuthInterceptor} authenticated; its
 * actor is the actor of every write. Errors are gRPC statuses ({@link GrpcErrors}).
 *
 * <p>Every method of the service descriptor must be bound: {@link ServerServiceDefinition.Builder#build} refuses a
 * service with a method no feature serves, so the server cannot start with one missing.
 */
@Singleton
public class MemoryGrpcService implements BindableService {

    private final List<GrpcFeature> features;

    MemoryGrpcService(List<GrpcFeature> features) {
        this.features = features;
    }

    @Override
    public ServerServiceDefinition bindService() {
        ServerServiceDefinition.Builder service =
                ServerServiceDefinition.builder(MemoryServiceGrpc.getServiceDescriptor());
        GrpcMethods methods = new GrpcMethods(service);
        features.forEach(f -> f.bind(methods));
        return MalformedRequests.refused(service.build());
    }
}
