package io.memorychain.projector.retrieval.eval;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.memorychain.avro.MemoryKind;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * One hand-written memory of the retrieval set. {@code key} is unique in the whole set and becomes the memory id;
 * {@code daysAgo} is how long before the set's reference time the memory was (last) written. A missing {@code pinned}
 * is false; {@code importance} and {@code days_ago} must be given.
 */
public record LabelledMemory(
        String key,
        String space,
        MemoryKind kind,
        String category,
        List<String> tags,
        @JsonProperty(required = true) int importance,
        boolean pinned,
        String userId,
        String agentId,
        String runId,
        String actorId,
        String role,
        String threadId,
        @JsonProperty(required = true) int daysAgo,
        String content) {

    public LabelledMemory {
        require(key != null && !key.isBlank(), "memory without key");
        require(space != null && !space.isBlank(), "memory " + key + " has no space");
        require(kind != null, "memory " + key + " has no kind");
        require(importance >= 1 && importance <= 5, "memory " + key + ": importance must be 1..5, was " + importance);
        require(daysAgo >= 0, "memory " + key + ": days_ago must be >= 0, was " + daysAgo);
        require(content != null && !content.isBlank(), "memory " + key + " has no content");
        tags = tags == null ? List.of() : List.copyOf(tags);
    }

    /** {@code reference - daysAgo} whole days. */
    public Instant writtenAt(Instant reference) {
        return reference.minus(Duration.ofDays(daysAgo));
    }

    static void require(boolean condition, String message) {
        if (!condition) {
            throw new IllegalArgumentException(message);
        }
    }
}
