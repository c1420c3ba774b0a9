package io.memorychain.api.checkpoints;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.serde.annotation.Serdeable;
import io.swagger.v3.oas.annotations.media.Schema;
import java.util.Map;

/** The body of {@code POST /v1/spaces/{space}/checkpoints}. */
@Serdeable
@JsonIgnoreProperties(ignoreUnknown = false)
@Schema(name = "SaveCheckpoint")
record SaveCheckpointBody(
        @Nullable
        @Schema(name = "user_id", description = "The user the thread is with (default: none)")
        @JsonProperty("user_id")
        String userId,

        @Nullable
        @Schema(name = "thread_id", description = "Required: the conversation thread")
        @JsonProperty("thread_id")
        String threadId,

        @Nullable
        @Schema(
                name = "checkpoint_id",
                description =
                        "Unique within the thread (default: a new UUID); saving an existing id replaces it in place")
        @JsonProperty("checkpoint_id")
        String checkpointId,

        @Nullable
        @Schema(name = "parent_id", description = "The checkpoint this one follows")
        @JsonProperty("parent_id")
        String parentId,

        @Nullable
        @Schema(
                description =
                        "Required: the agent's state, a JSON object (memory.checkpoints.max-state-bytes with the metadata)")
        Map<String, Object> state,

        @Nullable @Schema(description = "The caller's metadata, a JSON object")
        Map<String, Object> metadata) {

    Checkpoints.Draft draft() {
        return new Checkpoints.Draft(userId, threadId, checkpointId, parentId, state, metadata);
    }
}
