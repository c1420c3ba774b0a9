package io.memorychain.api.write;

import io.memorychain.api.request.ExpectedVersions;
import io.memorychain.api.request.RequestIds;
import io.memorychain.api.request.Spaces;
import io.memorychain.avro.Actor;

/**
 * Who writes where, under which request id, expecting which version, inside which refinement session: the envelope of
 * one {@code MemoryRequest}, the same for every transport (REST binds it with {@code WriteCall}, gRPC from its request
 * fields, MCP from the tool arguments). Validated before anything is published.
 *
 * @param sessionId the refinement session the write belongs to, or null (outside any)
 */
public record WriteContext(String space, Actor actor, String requestId, Integer expectedVersion, String sessionId) {

    /**
     * @param space path variable
     * @param actor the authenticated caller's actor
     * @param idempotencyKey {@code Idempotency-Key} (null: a random UUID)
     * @param bodyVersion {@code expected_version} from the body, if any
     * @param ifMatch {@code If-Match} header, if any
     */
    public static WriteContext of(
            String space, Actor actor, String idempotencyKey, Integer bodyVersion, String ifMatch) {
        return new WriteContext(
                Spaces.require(space),
                actor,
                RequestIds.fromHeader(idempotencyKey),
                ExpectedVersions.resolve(bodyVersion, ifMatch),
                null);
    }

    /** The same write expecting {@code version} of its target (null: any). */
    public WriteContext expecting(Integer version) {
        return new WriteContext(space, actor, requestId, version, sessionId);
    }

    /** The same write inside the refinement session {@code session} (null: outside any). */
    public WriteContext inSession(String session) {
        return new WriteContext(space, actor, requestId, expectedVersion, session);
    }
}
