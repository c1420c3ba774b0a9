package io.memorychain.api.auth;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.serde.annotation.Serdeable;
import io.swagger.v3.oas.annotations.media.Schema;
import java.util.List;

/** An API key as listed (never its secret) or, once, as issued (with it). */
@Serdeable
@Schema(name = "ApiKey")
public record KeyJson(
        @Schema(name = "key_id") @JsonProperty("key_id") String keyId,

        @Nullable
        @Schema(description = "The key to send as 'Authorization: Bearer <key>': only in the answer that issues it")
        String key,

        String id,

        @Schema(description = "agent, subagent, user, worker or admin")
        String role,

        @Schema(name = "agent_id") @JsonProperty("agent_id") String agentId,
        List<String> spaces,

        @Schema(name = "created_at") @JsonProperty("created_at")
        String createdAt,

        @Schema(name = "created_by") @JsonProperty("created_by")
        String createdBy,

        boolean revoked) {

    public static KeyJson of(ApiKeyRecord r, @Nullable ApiKey issued) {
        Principal p = r.principal();
        return new KeyJson(
                r.keyId(),
                issued == null ? null : issued.toString(),
                p.id(),
                p.role().wireName(),
                p.agentId(),
                p.spaces(),
                r.createdAt().toString(),
                r.createdBy(),
                r.revoked());
    }

    /** GET /v1/keys. */
    @Serdeable
    @Schema(name = "ApiKeys")
    public record Page(List<KeyJson> items) {}

    /** The caller as GET /v1/me shows it. */
    @Serdeable
    @Schema(name = "Caller")
    public record Caller(
            String id,
            String role,

            @Schema(name = "agent_id") @JsonProperty("agent_id")
            String agentId,

            List<String> spaces,

            @Schema(description = "The actor recorded on the events of this caller's writes")
            String actor) {

        public static Caller of(Principal p) {
            return new Caller(
                    p.id(),
                    p.role().wireName(),
                    p.agentId(),
                    p.spaces(),
                    p.role().wireName() + ":" + p.agentId());
        }
    }
}
