package io.memorychain.api.grpc;

import io.grpc.CallOptions;
import io.grpc.ClientCall;
import io.grpc.Context;
import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.Status;
import io.memorychain.api.error.ApiException;
import io.memorychain.api.error.ErrorCodes;
import io.memorychain.api.routing.GrpcRouting;
import java.util.Locale;
import java.util.Set;

/**
 * Relays one gRPC call to the instance that owns its space (docs/architecture.md §19): the same method and messages,
 * the caller's metadata (its {@code authorization} included: the owner authenticates and authorizes the caller itself)
 * plus {@code x-memory-forwarded-by}, the caller's deadline; the owner's headers, messages, status and trailers back as
 * they are (its errors are already mapped). An owner that cannot be reached before it answered anything is
 * {@code REBALANCING}, as over REST.
 */
final class OwnerProxy<Q, R> {

    /** Transport headers the client sets itself; never copied to the owner. */
    private static final Set<String> NOT_FORWARDED = Set.of(
            "content-type",
            "te",
            "user-agent",
            "host",
            "grpc-timeout",
            "grpc-encoding",
            "grpc-accept-encoding",
            "accept-encoding",
            "content-length");

    private static final Metadata.Key<String> FORWARDED_BY =
            Metadata.Key.of(GrpcRouting.FORWARDED_BY, Metadata.ASCII_STRING_MARSHALLER);

    private final ClientCall<Q, R> out;

    private OwnerProxy(ClientCall<Q, R> out) {
        this.out = out;
    }

    /** Starts the call to the owner; the caller's messages follow through {@link #message} and {@link #halfClose}. */
    static <Q, R> OwnerProxy<Q, R> start(
            ServerCall<Q, R> call,
            Metadata callerHeaders,
            GrpcRouting routing,
            GrpcRouting.Target owner,
            String instanceId) {
        Metadata headers = new Metadata();
        for (String key : callerHeaders.keys()) {
            if (key.startsWith(":") || NOT_FORWARDED.contains(key.toLowerCase(Locale.ROOT))) {
                continue;
            }
            if (key.endsWith(Metadata.BINARY_HEADER_SUFFIX)) {
                Metadata.Key<byte[]> k = Metadata.Key.of(key, Metadata.BINARY_BYTE_MARSHALLER);
                callerHeaders.getAll(k).forEach(v -> headers.put(k, v));
            } else {
                Metadata.Key<String> k = Metadata.Key.of(key, Metadata.ASCII_STRING_MARSHALLER);
                callerHeaders.getAll(k).forEach(v -> headers.put(k, v));
            }
        }
        headers.removeAll(FORWARDED_BY);
        headers.put(FORWARDED_BY, instanceId);
        ClientCall<Q, R> out = owner.channel()
                .newCall(
                        call.getMethodDescriptor(),
                        CallOptions.DEFAULT.withDeadline(Context.current().getDeadline()));
        out.start(
                new ClientCall.Listener<>() {
                    private boolean answered;

                    @Override
                    public void onHeaders(Metadata ownerHeaders) {
                        answered = true;
                        call.sendHeaders(ownerHeaders);
                    }

                    @Override
                    public void onMessage(R message) {
                        answered = true;
                        call.sendMessage(message);
                        out.request(1);
                    }

                    @Override
                    public void onClose(Status status, Metadata trailers) {
                        if (!answered && status.getCode() == Status.Code.UNAVAILABLE) {
                            routing.unreachable(owner);
                            var refused = GrpcErrors.of(new ApiException(
                                    ErrorCodes.REBALANCING,
                                    "the owner of this space (" + owner.address() + ") is not reachable: "
                                            + status.getDescription() + "; retry shortly"));
                            call.close(
                                    refused.getStatus(),
                                    refused.getTrailers() == null ? new Metadata() : refused.getTrailers());
                            return;
                        }
                        call.close(status, trailers);
                    }
                },
                headers);
        out.request(1);
        return new OwnerProxy<>(out);
    }

    void message(Q message) {
        out.sendMessage(message);
    }

    void halfClose() {
        out.halfClose();
    }

    void cancel() {
        out.cancel("the caller cancelled the call", null);
    }
}
