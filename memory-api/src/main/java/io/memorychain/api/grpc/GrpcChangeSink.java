package io.memorychain.api.grpc;

import io.grpc.stub.ServerCallStreamObserver;
import io.memorychain.api.changes.ChangeSink;
import io.memorychain.api.changes.ChangeStreams;
import io.memorychain.api.error.ApiException;
import io.memorychain.api.error.ErrorCodes;
import io.memorychain.api.grpc.v1.AuditEntry;

/**
 * {@code WatchChanges}' side of a change stream: entries as messages while the call is ready; the end as the call's
 * error status (UNAVAILABLE naming the {@code since_rev} to resume with when the server stops).
 */
final class GrpcChangeSink implements ChangeSink<AuditEntry> {

    private final ServerCallStreamObserver<AuditEntry> out;
    private final String space;

    private GrpcChangeSink(ServerCallStreamObserver<AuditEntry> out, String space) {
        this.out = out;
        this.space = space;
    }

    /** Opens the stream on the call and starts it; must be called from the gRPC method (it registers the handlers). */
    static void watch(
            ChangeStreams streams,
            String space,
            long sinceRev,
            ChangeStreams.Watcher<AuditEntry> watcher,
            ServerCallStreamObserver<AuditEntry> out) {
        ChangeStreams.Stream<AuditEntry> stream =
                streams.open(space, sinceRev, "since_rev", watcher, new GrpcChangeSink(out, space));
        out.setOnCancelHandler(stream::cancel);
        out.setOnReadyHandler(stream::wake);
        try {
            stream.start();
        } catch (ApiException e) {
            throw shuttingDown(sinceRev);
        }
    }

    @Override
    public boolean ready() {
        return out.isReady();
    }

    @Override
    public void send(AuditEntry entry) {
        out.onNext(entry);
    }

    @Override
    public void end(End end) {
        if (end instanceof Failed failed) {
            out.onError(GrpcErrors.of(failed.failure(), "WatchChanges(" + space + ")"));
        } else if (end instanceof ShuttingDown down) {
            out.onError(GrpcErrors.of(shuttingDown(down.lastSeq())));
        }
    }

    private static ApiException shuttingDown(long lastSeq) {
        return new ApiException(
                ErrorCodes.UNAVAILABLE,
                "the server is shutting down; watch again with since_rev=" + lastSeq
                        + " (elsewhere, or once it is back)");
    }
}
