package io.memorychain.api.tls;

import io.grpc.ServerBuilder;
import io.grpc.netty.NettyServerBuilder;
import io.micronaut.context.annotation.Requires;
import io.micronaut.context.event.BeanCreatedEvent;
import io.micronaut.context.event.BeanCreatedEventListener;
import jakarta.inject.Singleton;

/**
 * TLS on the gRPC listener with {@code memory.tls.*} ({@link TlsContexts}): the Micronaut gRPC server's Netty builder
 * gets the server context, so the port speaks TLS only (HTTP/2 with ALPN), asking for client certificates per
 * {@code memory.tls.client-auth}.
 */
@Singleton
@Requires(property = "memory.tls.enabled", value = "true")
class TlsGrpcServer implements BeanCreatedEventListener<ServerBuilder<?>> {

    private final TlsContexts contexts;

    public TlsGrpcServer(TlsContexts contexts) {
        this.contexts = contexts;
    }

    @Override
    public ServerBuilder<?> onCreated(BeanCreatedEvent<ServerBuilder<?>> event) {
        if (!(event.getBean() instanceof NettyServerBuilder netty)) {
            throw new TlsConfigException("memory.tls: the gRPC server is not Netty-based ("
                    + event.getBean().getClass().getName() + "); cannot serve it with TLS");
        }
        return netty.sslContext(contexts.grpcServer());
    }
}
