package io.memorychain.api.grpc;

import io.grpc.MethodDescriptor;
import io.grpc.ServerServiceDefinition;
import io.grpc.stub.ServerCalls;
import io.grpc.stub.StreamObserver;
import java.util.function.BiConsumer;
import java.util.function.Function;

/**
 * Binds handlers to the methods of the generated service descriptor. A unary handler returns its answer or throws; the
 * failure becomes the status of {@link GrpcErrors}, as every REST error becomes its JSON code. Handlers block (the
 * write path waits for outcome and projection): they run on the gRPC server's executor, never on an event loop.
 */
final class GrpcMethods {

    private final ServerServiceDefinition.Builder service;

    GrpcMethods(ServerServiceDefinition.Builder service) {
        this.service = service;
    }

    /** A method with one answer. */
    <Q, A> GrpcMethods unary(MethodDescriptor<Q, A> method, Function<Q, A> handler) {
        service.addMethod(method, ServerCalls.asyncUnaryCall((Q request, StreamObserver<A> out) -> {
            A answer;
            try {
                answer = handler.apply(request);
            } catch (RuntimeException e) {
                out.onError(GrpcErrors.of(e, method.getFullMethodName()));
                return;
            }
            out.onNext(answer);
            out.onCompleted();
        }));
        return this;
    }

    /** A method with a stream of answers: the handler sends them and ends the stream, or fails it. */
    <Q, A> GrpcMethods serverStreaming(MethodDescriptor<Q, A> method, BiConsumer<Q, StreamObserver<A>> handler) {
        service.addMethod(method, ServerCalls.asyncServerStreamingCall((Q request, StreamObserver<A> out) -> {
            try {
                handler.accept(request, out);
            } catch (RuntimeException e) {
                out.onError(GrpcErrors.of(e, method.getFullMethodName()));
            }
        }));
        return this;
    }
}
