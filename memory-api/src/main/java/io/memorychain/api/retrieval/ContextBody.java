package io.memorychain.api.retrieval;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.serde.annotation.Serdeable;
import io.swagger.v3.oas.annotations.media.Schema;

/** POST /v1/spaces/{space}/context: what an agent runtime injects at the start of a turn. */
@Serdeable
@JsonIgnoreProperties(ignoreUnknown = false)
@Schema(name = "Context")
public record ContextBody(
        @Nullable
        @Schema(
                description = "The user's message; working memories are retrieved for it",
                requiredMode = Schema.RequiredMode.REQUIRED)
        String message,

        @Nullable @Schema(name = "thread_id") @JsonProperty("thread_id")
        String threadId,

        @Nullable @Schema(name = "since_rev") @JsonProperty("since_rev")
        Long sinceRev,

        @Nullable
        @JsonProperty("max_tokens")
        @Schema(name = "max_tokens", description = "Budget of the whole context, default 2000")
        Integer maxTokens,

        @Nullable @Schema(description = "The agent (allowlist); defaults to the X-Actor id for agents")
        String agent) {}
