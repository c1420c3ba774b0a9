package io.memorychain.api.grpc;

import static io.memorychain.api.grpc.GrpcCalls.actor;

import io.memorychain.api.grpc.v1.ForgetConfirmed;
import io.memorychain.api.grpc.v1.MemoryServiceGrpc;
import io.memorychain.api.grpc.v1.MessageAnswer;
import io.memorychain.api.messages.MessageJson;
import io.memorychain.api.messages.Messages;
import jakarta.inject.Singleton;

/**
 * User messages with remember / forget / reflect / recall triggers (docs/architecture.md §20; REST {@code /messages}).
 */
@Singleton
class MessageRpcs implements GrpcFeature {

    private final Messages messages;
    private final ProtoJson proto;

    MessageRpcs(Messages messages, ProtoJson proto) {
        this.messages = messages;
        this.proto = proto;
    }

    @Override
    public void bind(GrpcMethods m) {
        m.unary(
                        MemoryServiceGrpc.getPostMessageMethod(),
                        r -> proto.fill(
                                        messages.handle(
                                                r.getSpace(),
                                                actor(),
                                                r.hasIdempotencyKey() ? r.getIdempotencyKey() : null,
                                                new MessageJson.Body(
                                                        r.hasMessage() ? r.getMessage() : null,
                                                                r.hasUserId() ? r.getUserId() : null,
                                                        r.hasThreadId() ? r.getThreadId() : null,
                                                                r.hasRunId() ? r.getRunId() : null)),
                                        MessageAnswer.newBuilder())
                                .build())
                .unary(
                        MemoryServiceGrpc.getConfirmForgetMethod(),
                        r -> proto.fill(
                                        messages.confirmForget(
                                                r.getSpace(),
                                                actor(),
                                                new MessageJson.ConfirmBody(
                                                        r.hasToken() ? r.getToken() : null,
                                                        r.getMemoryIdsCount() == 0 ? null : r.getMemoryIdsList())),
                                        ForgetConfirmed.newBuilder())
                                .build());
    }
}
