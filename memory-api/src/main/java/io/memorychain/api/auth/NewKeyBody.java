package io.memorychain.api.auth;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.memorychain.api.error.ApiException;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.serde.annotation.Serdeable;
import io.swagger.v3.oas.annotations.media.Schema;
import java.util.List;

/** POST /v1/keys. */
@Serdeable
@JsonIgnoreProperties(ignoreUnknown = false)
@Schema(name = "NewKey")
public record NewKeyBody(
        @Nullable @Schema(description = "Name of the key's owner", requiredMode = Schema.RequiredMode.REQUIRED)
        String id,

        @Nullable
        @Schema(description = "agent, subagent, user, worker or admin", requiredMode = Schema.RequiredMode.REQUIRED)
        String role,

        @Nullable
        @JsonProperty("agent_id")
        @Schema(
                name = "agent_id",
                description = "The agent (or sub-agent name) its events are recorded as; default: id")
        String agentId,

        @Nullable
        @Schema(description = "Spaces it may use: names, 'prefix*' or '*'", requiredMode = Schema.RequiredMode.REQUIRED)
        List<String> spaces) {

    /** The principal the body asks for; INVALID_ARGUMENT when it lacks id, role or spaces, or names no role. */
    public static Principal principal(@Nullable NewKeyBody body) {
        if (body == null || body.id() == null || body.role() == null || body.spaces() == null) {
            throw ApiException.invalid("id, role and spaces are required");
        }
        Role role = Role.parse(body.role());
        if (role == null) {
            throw ApiException.invalid(
                    "role must be agent, subagent, user, worker or admin, was '" + body.role() + "'");
        }
        return new Principal(body.id(), role, body.agentId() == null ? body.id() : body.agentId(), body.spaces());
    }
}
