package io.memorychain.api.changes;

/**
 * Where one change stream sends: each transport (gRPC {@code WatchChanges}, REST server-sent events) implements it over
 * its own call. {@link ChangeStreams} calls it from the stream's own thread only, one call at a time.
 *
 * @param <T> an audit entry as the transport sends it
 */
public interface ChangeSink<T> {

    /**
     * Flow control: whether the client can take one more entry now. While it cannot, the stream waits until
     * {@link ChangeStreams.Stream#wake} is called (the transport's ready signal) or a short while passed.
     */
    boolean ready();

    /** Sends one entry; entries come in seq order, each once. */
    void send(T entry);

    /**
     * Called when the stream waited a while (about a second) without a new entry: a transport whose connections need
     * traffic to stay open (proxies close idle HTTP streams) sends its keep-alive here when one is due.
     */
    default void idle() {}

    /** The stream ended on the server's side (never called after the client cancelled): answer how, then close. */
    void end(End end);

    /** Why a stream ended on the server's side. */
    sealed interface End {}

    /**
     * The caller may no longer watch (its key was revoked, its space refused), or the stream failed.
     *
     * @param failure an {@code ApiException} with its code, or what went wrong
     */
    record Failed(RuntimeException failure) implements End {}

    /**
     * The server stops; the client resumes after {@code lastSeq} (the seq of the last entry sent, or where the stream
     * started), elsewhere or once the server is back.
     */
    record ShuttingDown(long lastSeq) implements End {}
}
