package io.memorychain.api.checkpoints;

import io.memorychain.api.error.ApiException;
import io.memorychain.api.error.ErrorCodes;
import io.memorychain.avro.Actor;
import jakarta.inject.Singleton;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * The checkpoint operations whatever the transport (REST, gRPC): input rules, the size limit, then the store. The space
 * and role rules ran before (the operation catalogue: agents, sub-agents and users of the space; not admins).
 */
@Singleton
public class Checkpoints {

    /** The id that names a thread's newest checkpoint in reads, so no checkpoint may carry it. */
    public static final String LATEST = "latest";

    public static final int DEFAULT_PAGE = 20;
    public static final int MAX_PAGE = 100;
    private static final int MAX_ID = 200;

    private final CheckpointStore store;
    private final CheckpointConfig config;

    public Checkpoints(CheckpointStore store, CheckpointConfig config) {
        this.store = store;
        this.config = config;
    }

    /** What a caller saves. */
    public record Draft(
            String userId,
            String threadId,
            String checkpointId,
            String parentId,
            Map<String, Object> state,
            Map<String, Object> metadata) {}

    /** A page of a thread's checkpoints, newest first; {@code nextCursor} null on the last page. */
    public record Page(List<Checkpoint> items, String nextCursor) {}

    public Checkpoint save(String space, Actor actor, Draft draft) {
        Checkpoint.ThreadRef thread = thread(space, draft.userId(), draft.threadId());
        String id =
                draft.checkpointId() == null ? UUID.randomUUID().toString() : id("checkpoint_id", draft.checkpointId());
        if (id.equals(LATEST)) {
            throw ApiException.invalid("checkpoint_id: '" + LATEST + "' names a thread's newest checkpoint");
        }
        String parent = draft.parentId() == null ? null : id("parent_id", draft.parentId());
        if (draft.state() == null) {
            throw ApiException.invalid("state: required, a JSON object");
        }
        Map<String, Object> metadata = draft.metadata() == null ? Map.of() : draft.metadata();
        long bytes;
        try {
            bytes = CheckpointCodec.json(draft.state()).getBytes(StandardCharsets.UTF_8).length
                    + (long) CheckpointCodec.json(metadata).getBytes(StandardCharsets.UTF_8).length;
        } catch (IllegalArgumentException e) {
            throw ApiException.invalid("state: " + e.getMessage());
        }
        if (bytes > config.getMaxStateBytes()) {
            throw new ApiException(
                    ErrorCodes.TOO_LARGE,
                    "state and metadata take " + bytes + " bytes of JSON; the " + "limit is "
                            + config.getMaxStateBytes() + " (memory.checkpoints.max-state-bytes)");
        }
        String savedBy = actor.getType().name().toLowerCase(Locale.ROOT) + ":" + actor.getId();
        return store.save(new Checkpoint(thread, id, parent, 0, null, null, savedBy, draft.state(), metadata));
    }

    /** A checkpoint by id, or the thread's newest for {@link #LATEST}; 404 NOT_FOUND when there is none. */
    public Checkpoint get(String space, String userId, String threadId, String checkpointId) {
        Checkpoint.ThreadRef thread = thread(space, userId, threadId);
        String id = id("checkpoint_id", checkpointId);
        Optional<Checkpoint> found = id.equals(LATEST) ? store.latest(thread) : store.get(thread, id);
        return found.orElseThrow(() -> ApiException.notFound(
                id.equals(LATEST)
                        ? "thread '" + threadId + "' has no checkpoint"
                        : "no checkpoint '" + id + "' in thread '" + threadId + "'"));
    }

    public Page list(String space, String userId, String threadId, Integer limit, String cursor) {
        Checkpoint.ThreadRef thread = thread(space, userId, threadId);
        int size = limit == null ? DEFAULT_PAGE : limit;
        if (size < 1 || size > MAX_PAGE) {
            throw ApiException.invalid("limit: between 1 and " + MAX_PAGE);
        }
        Long before = null;
        if (cursor != null) {
            try {
                before = Long.parseLong(cursor);
            } catch (NumberFormatException e) {
                throw ApiException.invalid("cursor: the next_cursor of a previous page");
            }
        }
        List<Checkpoint> items = store.list(thread, before, size + 1);
        if (items.size() <= size) {
            return new Page(items, null);
        }
        List<Checkpoint> page = items.subList(0, size);
        return new Page(page, Long.toString(page.get(size - 1).position()));
    }

    /** Deletes the thread's checkpoints; how many. */
    public int deleteThread(String space, String userId, String threadId) {
        return store.deleteThread(thread(space, userId, threadId));
    }

    private static Checkpoint.ThreadRef thread(String space, String userId, String threadId) {
        if (threadId == null || threadId.isBlank()) {
            throw ApiException.invalid("thread_id: required");
        }
        return new Checkpoint.ThreadRef(space, userId == null ? "" : id("user_id", userId), id("thread_id", threadId));
    }

    private static String id(String field, String value) {
        if (value.isEmpty() || value.length() > MAX_ID) {
            throw ApiException.invalid(field + ": 1 to " + MAX_ID + " characters");
        }
        if (value.chars().anyMatch(Character::isISOControl)) {
            throw ApiException.invalid(field + ": no control characters");
        }
        return value;
    }
}
