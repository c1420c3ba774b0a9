package io.memorychain.api.messages;

import io.memorychain.api.error.ApiError;
import io.memorychain.api.error.ErrorAnswers;
import io.memorychain.api.request.RequestIds;
import io.memorychain.api.write.WriteCall;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.annotation.Body;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Post;
import io.micronaut.http.annotation.RequestBean;
import io.micronaut.scheduling.TaskExecutors;
import io.micronaut.scheduling.annotation.ExecuteOn;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;

/** User messages with remember / forget / reflect / recall triggers (docs/architecture.md §20). */
@Controller("/v1/spaces/{space}")
@ExecuteOn(TaskExecutors.BLOCKING)
@Tag(name = "messages")
class MessageController {

    private final Messages messages;

    public MessageController(Messages messages) {
        this.messages = messages;
    }

    @ErrorAnswers.Write
    @Post("/messages")
    @Operation(
            operationId = "postMessage",
            summary = "Act on a user message's trigger",
            description =
                    "remember (routed by the model into "
                            + "memories, entities and relations; without a model the user's words are stored), forget (lists matches "
                            + "and a confirmation token; nothing is deleted), reflect (requests a reflection), recall (\"what do you "
                            + "remember about X?\": query results); no trigger: nothing stored unless multi-fact extraction applies. "
                            + "A retried message (same Idempotency-Key, or same text, thread, user and run) stores nothing twice.")
    @ApiResponse(
            responseCode = "400",
            description = "INVALID_ARGUMENT",
            content = @Content(schema = @Schema(implementation = ApiError.class)))
    @ApiResponse(
            responseCode = "403",
            description = "ROLE_NOT_ALLOWED (not an agent or user key)",
            content = @Content(schema = @Schema(implementation = ApiError.class)))
    public HttpResponse<MessageJson.Answer> message(
            @RequestBean WriteCall call, @Nullable @Body MessageJson.Body body) {
        MessageJson.Answer answer = messages.handle(call.space(), call.actor(), call.idempotencyKey(), body);
        return RequestIds.echo(HttpResponse.ok(answer), answer.requestId());
    }

    @ErrorAnswers.Write
    @Post("/messages:confirm-forget")
    @Operation(
            operationId = "confirmForget",
            summary = "Confirm a forget",
            description = "Soft-deletes (restorable, audited) the memories the token "
                    + "of a forget answer lists, or the given subset of them. Permanent deletion is not available.")
    @ApiResponse(
            responseCode = "400",
            description = "INVALID_CONFIRMATION (malformed, forged or expired token)",
            content = @Content(schema = @Schema(implementation = ApiError.class)))
    @ApiResponse(
            responseCode = "403",
            description = "CONFIRMATION_NOT_YOURS (another caller's or space's token), ROLE_NOT_ALLOWED",
            content = @Content(schema = @Schema(implementation = ApiError.class)))
    public MessageJson.Forgotten confirmForget(
            @RequestBean WriteCall call, @Nullable @Body MessageJson.ConfirmBody body) {
        return messages.confirmForget(call.space(), call.actor(), body);
    }
}
