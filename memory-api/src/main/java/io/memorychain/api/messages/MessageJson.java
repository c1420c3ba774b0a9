package io.memorychain.api.messages;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.memorychain.api.memories.MemoryJson;
import io.memorychain.api.retrieval.QueryJson;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.serde.annotation.Serdeable;
import io.swagger.v3.oas.annotations.media.Schema;
import java.util.List;

/** The bodies and answers of the message endpoint (docs/architecture.md §20). */
public final class MessageJson {

    private MessageJson() {}

    /** POST /v1/spaces/{space}/messages. */
    @Serdeable
    @JsonIgnoreProperties(ignoreUnknown = false)
    @Schema(name = "Message", description = "A user message; remember / forget / reflect / recall phrases are acted on")
    public record Body(
            @Nullable @Schema(description = "The user's message", requiredMode = Schema.RequiredMode.REQUIRED)
            String message,

            @Nullable @Schema(name = "user_id") @JsonProperty("user_id")
            String userId,

            @Nullable @Schema(name = "thread_id") @JsonProperty("thread_id")
            String threadId,

            @Nullable @Schema(name = "run_id") @JsonProperty("run_id")
            String runId) {}

    /** POST /v1/spaces/{space}/messages:confirm-forget. */
    @Serdeable
    @JsonIgnoreProperties(ignoreUnknown = false)
    @Schema(name = "ConfirmForget")
    public record ConfirmBody(
            @Nullable
            @Schema(
                    description = "confirmation.token of the forget answer",
                    requiredMode = Schema.RequiredMode.REQUIRED)
            String token,

            @Nullable
            @JsonProperty("memory_ids")
            @Schema(name = "memory_ids", description = "Only these of the confirmed ids (default: all)")
            List<String> memoryIds) {}

    @Serdeable
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Entity(String name, String type, @Nullable String id, boolean reused) {}

    @Serdeable
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Relation(
            String from,
            String relation,
            String to,
            @Nullable String skipped) {}

    /** The router's answer as used, or {@code skipped} with why there was none. */
    @Serdeable
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Routing(
            @Nullable String store,
            @Nullable List<Entity> entities,
            @Nullable List<Relation> relations,
            @Nullable List<String> tags,
            @Nullable String confidence,
            @Nullable @JsonProperty("core_update") Boolean coreUpdate,
            @Nullable String summary,
            @Nullable @JsonProperty("summary_rejected") String summaryRejected,
            @Nullable String model,
            @Nullable String skipped) {

        static Routing skipped(String reason) {
            return new Routing(null, null, null, null, null, null, null, null, null, reason);
        }
    }

    @Serdeable
    public record Confirmation(
            String token,
            @JsonProperty("memory_ids") List<String> memoryIds,
            @JsonProperty("expires_in") long expiresIn) {}

    @Serdeable
    public record PassRate(long pass, long trimmed, long rejected, double rate) {}

    /** The writing constraints' verdict on the model-written texts of this message, and the process's pass rate. */
    @Serdeable
    public record Validation(
            List<String> outcomes,
            List<String> reasons,
            @JsonProperty("pass_rate") PassRate passRate) {}

    @Serdeable
    public record SkippedFact(String content, String reason) {}

    @Serdeable
    public record Facts(
            int extracted,
            List<String> written,
            List<SkippedFact> skipped,
            @Nullable String reason) {}

    @Serdeable
    public record Reflection(@JsonProperty("request_id") String requestId, long seq) {}

    /** What a message did. */
    @Serdeable
    @Schema(name = "MessageAnswer")
    public record Answer(
            String trigger,
            String text,
            @Nullable Routing routing,
            List<MemoryJson> stored,
            List<QueryJson.Item> matches,
            @Nullable Confirmation confirmation,
            @Nullable String skipped,

            @Nullable @Schema(name = "hard_delete") @JsonProperty("hard_delete")
            String hardDelete,

            @Nullable Validation validation,
            @Nullable Facts facts,
            @Nullable Reflection reflection,

            @Schema(name = "request_id") @JsonProperty("request_id")
            String requestId) {}

    @Serdeable
    public record NotForgotten(String id, String code, String message) {}

    /** What a confirmed forget did. */
    @Serdeable
    @Schema(name = "ForgetConfirmed")
    public record Forgotten(
            List<String> forgotten,

            @Schema(name = "not_forgotten") @JsonProperty("not_forgotten")
            List<NotForgotten> notForgotten,

            @Schema(name = "hard_delete") @JsonProperty("hard_delete")
            String hardDelete) {}
}
