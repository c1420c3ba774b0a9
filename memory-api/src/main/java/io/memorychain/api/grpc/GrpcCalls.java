package io.memorychain.api.grpc;

import io.memorychain.api.auth.Principal;
import io.memorychain.api.write.WriteContext;
import io.memorychain.avro.Actor;

/** What every feature's methods take from the call: the caller, its actor and the write it makes. */
final class GrpcCalls {

    private GrpcCalls() {}

    /** The caller {@link GrpcAuthInterceptor} authenticated. */
    static Principal principal() {
        return GrpcAuthInterceptor.PRINCIPAL.get();
    }

    /** The caller's actor: the events of its writes record it, and its category allowlist applies to its reads. */
    static Actor actor() {
        return principal().actor();
    }

    /** The write of a call, as REST's path, {@code Idempotency-Key} and {@code If-Match} make it. */
    static WriteContext context(String space, String idempotencyKey, Integer expectedVersion) {
        return WriteContext.of(space, actor(), idempotencyKey, expectedVersion, null);
    }
}
