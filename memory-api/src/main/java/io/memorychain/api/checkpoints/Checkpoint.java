package io.memorychain.api.checkpoints;

import java.time.Instant;
import java.util.Map;
import java.util.Objects;

/**
 * One saved agent state (the design's supervisor checkpointer): agent working state, not a memory, so it lives on its
 * own compacted topic and never on the chain.
 *
 * @param thread whose checkpoint: space, user and thread
 * @param id unique within the thread
 * @param parentId the checkpoint it follows, or null
 * @param position order within the thread (newest first is highest first): microseconds of the id's first save
 * @param createdAt when the id was first saved
 * @param updatedAt when this version was saved
 * @param savedBy who saved it ({@code agent:claude})
 * @param state the state, a JSON object
 * @param metadata the caller's metadata, a JSON object
 */
public record Checkpoint(
        ThreadRef thread,
        String id,
        String parentId,
        long position,
        Instant createdAt,
        Instant updatedAt,
        String savedBy,
        Map<String, Object> state,
        Map<String, Object> metadata) {

    public Checkpoint {
        Objects.requireNonNull(thread);
        Objects.requireNonNull(id);
        Objects.requireNonNull(state);
        Objects.requireNonNull(metadata);
    }

    /** A space's thread with a user: the unit checkpoints are listed and deleted by. */
    public record ThreadRef(String space, String userId, String threadId) {

        public ThreadRef {
            Objects.requireNonNull(space);
            Objects.requireNonNull(userId);
            Objects.requireNonNull(threadId);
        }
    }
}
