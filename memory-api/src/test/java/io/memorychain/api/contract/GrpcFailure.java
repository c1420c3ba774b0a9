package io.memorychain.api.contract;

import static org.assertj.core.api.Assertions.fail;

import io.grpc.Metadata;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.memorychain.api.grpc.GrpcErrors;

/** How a gRPC call failed: its status, the {@code error-code} and {@code request-id} trailers and the description. */
public record GrpcFailure(Status.Code status, String code, String description, String requestId) {

    /** The failure of {@code call}, which must fail. */
    public static GrpcFailure of(Runnable call) {
        try {
            call.run();
        } catch (StatusRuntimeException e) {
            Metadata trailers = e.getTrailers() == null ? new Metadata() : e.getTrailers();
            return new GrpcFailure(
                    e.getStatus().getCode(),
                    trailers.get(GrpcErrors.ERROR_CODE),
                    e.getStatus().getDescription(),
                    trailers.get(GrpcErrors.REQUEST_ID));
        }
        return fail("the gRPC call succeeded");
    }
}
