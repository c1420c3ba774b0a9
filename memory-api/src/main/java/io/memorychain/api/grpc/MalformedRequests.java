package io.memorychain.api.grpc;

import io.grpc.ForwardingServerCallListener.SimpleForwardingServerCallListener;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerMethodDefinition;
import io.grpc.ServerServiceDefinition;
import io.grpc.ServiceDescriptor;
import io.grpc.StatusRuntimeException;
import io.memorychain.api.error.ApiException;
import java.io.InputStream;

/**
 * Request bytes that are not a message of the method's type (truncated, a malformed varint, a string that is not UTF-8)
 * answered INVALID_ARGUMENT with the error-code trailer, as REST answers malformed JSON 400. grpc-java's own handling
 * of a message that fails to parse is UNKNOWN ("Application error processing RPC") with a logged stack trace. Each
 * method's request marshaller is wrapped to return null for bytes it cannot parse; the method's handler is wrapped to
 * close such a call before the method sees it.
 */
final class MalformedRequests {

    private MalformedRequests() {}

    /** The service with every method guarded. */
    static ServerServiceDefinition refused(ServerServiceDefinition service) {
        ServiceDescriptor original = service.getServiceDescriptor();
        ServiceDescriptor.Builder descriptor =
                ServiceDescriptor.newBuilder(original.getName()).setSchemaDescriptor(original.getSchemaDescriptor());
        java.util.List<ServerMethodDefinition<?, ?>> guarded = service.getMethods().stream()
                .<ServerMethodDefinition<?, ?>>map(MalformedRequests::guard)
                .toList();
        guarded.forEach(m -> descriptor.addMethod(m.getMethodDescriptor()));
        ServerServiceDefinition.Builder out = ServerServiceDefinition.builder(descriptor.build());
        guarded.forEach(out::addMethod);
        return out.build();
    }

    private static <Q, A> ServerMethodDefinition<Q, A> guard(ServerMethodDefinition<Q, A> definition) {
        MethodDescriptor<Q, A> method = definition.getMethodDescriptor();
        MethodDescriptor.Marshaller<Q> parser = method.getRequestMarshaller();
        MethodDescriptor<Q, A> lenient = method.toBuilder()
                .setRequestMarshaller(new MethodDescriptor.Marshaller<Q>() {
                    @Override
                    public InputStream stream(Q value) {
                        return parser.stream(value);
                    }

                    @Override
                    public Q parse(InputStream stream) {
                        try {
                            return parser.parse(stream);
                        } catch (RuntimeException e) {
                            return null;
                        }
                    }
                })
                .build();
        ServerCallHandler<Q, A> handler = definition.getServerCallHandler();
        return ServerMethodDefinition.create(
                lenient,
                (call, headers) -> new Guard<>(handler.startCall(call, headers), call, method.getBareMethodName()));
    }

    /** Closes the call on a request that did not parse; passes everything else on. */
    private static final class Guard<Q, A> extends SimpleForwardingServerCallListener<Q> {

        private final ServerCall<Q, A> call;
        private final String method;
        private boolean refused;

        Guard(ServerCall.Listener<Q> delegate, ServerCall<Q, A> call, String method) {
            super(delegate);
            this.call = call;
            this.method = method;
        }

        @Override
        public void onMessage(Q message) {
            if (refused) {
                return;
            }
            if (message == null) {
                refused = true;
                StatusRuntimeException e = GrpcErrors.of(ApiException.invalid(
                        "the request is not a valid " + method + " request message (malformed protobuf bytes)"));
                call.close(e.getStatus(), e.getTrailers() == null ? new Metadata() : e.getTrailers());
                return;
            }
            super.onMessage(message);
        }

        @Override
        public void onHalfClose() {
            if (!refused) {
                super.onHalfClose();
            }
        }
    }
}
