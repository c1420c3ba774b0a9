package io.memorychain.api.write;

import io.memorychain.api.request.ExpectedVersions;
import io.memorychain.api.request.RequestIds;
import io.memorychain.api.request.Spaces;
import io.memorychain.avro.Actor;

/**
 * Who writes where, under which request id, expecting which version: the envelope of one {@code MemoryRequest}.
 * Built from the path and headers, validated before anything is published.
 */
public record WriteContext(String space, Actor actor, String requestId, Integer expectedVersion) {

    /**
     * @param space           path variable
     * @param actor           the authenticated caller's actor
     * @param idempotencyKey  {@code Idempotency-Key} (null: a random UUID)
     * @param bodyVersion     {@code expected_version} from the body, if any
     * @param ifMatch         {@code If-Match} header, if any
     */
    public static WriteContext of(String space, Actor actor, String idempotencyKey, Integer bodyVersion, String ifMatch) {
        return new WriteContext(Spaces.require(space), actor, RequestIds.fromHeader(idempotencyKey),
                ExpectedVersions.resolve(bodyVersion, ifMatch));
    }
}
