package io.memorychain.api.checkpoints;

import io.memorychain.api.error.ApiException;
import io.memorychain.api.error.ErrorCodes;
import java.util.List;
import java.util.Optional;

/**
 * Agents' checkpoints: saved and deleted on their topic, read from this instance's view of it. A save and a delete
 * return once the view has them (read-your-write).
 */
interface CheckpointStore extends AutoCloseable {

    /**
     * Saves a checkpoint (replacing the one with its id, which keeps its place in the thread).
     *
     * @param draft what the caller sends; its position, createdAt and updatedAt are set here
     * @return the checkpoint as stored
     */
    Checkpoint save(Checkpoint draft);

    /** The thread's newest checkpoint. */
    Optional<Checkpoint> latest(Checkpoint.ThreadRef thread);

    Optional<Checkpoint> get(Checkpoint.ThreadRef thread, String id);

    /**
     * The thread's checkpoints, newest first.
     *
     * @param before a page's cursor: only checkpoints older than this position; null from the newest
     * @param limit at most this many
     */
    List<Checkpoint> list(Checkpoint.ThreadRef thread, Long before, int limit);

    /** Deletes every checkpoint of the thread (tombstones on the topic); how many there were. */
    int deleteThread(Checkpoint.ThreadRef thread);

    @Override
    void close();

    /** For backends without a Kafka log (the topology test driver): every call answers 501 NOT_AVAILABLE. */
    CheckpointStore UNAVAILABLE = new CheckpointStore() {
        private ApiException unavailable() {
            return new ApiException(ErrorCodes.NOT_AVAILABLE, "checkpoints need the Kafka-backed service");
        }

        @Override
        public Checkpoint save(Checkpoint draft) {
            throw unavailable();
        }

        @Override
        public Optional<Checkpoint> latest(Checkpoint.ThreadRef thread) {
            throw unavailable();
        }

        @Override
        public Optional<Checkpoint> get(Checkpoint.ThreadRef thread, String id) {
            throw unavailable();
        }

        @Override
        public List<Checkpoint> list(Checkpoint.ThreadRef thread, Long before, int limit) {
            throw unavailable();
        }

        @Override
        public int deleteThread(Checkpoint.ThreadRef thread) {
            throw unavailable();
        }

        @Override
        public void close() {}
    };
}
