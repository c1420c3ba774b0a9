package io.memorychain.api.write;

import io.memorychain.api.auth.Principal;
import io.memorychain.api.request.ExpectedVersions;
import io.memorychain.api.request.RequestIds;
import io.memorychain.avro.Actor;
import io.micronaut.core.annotation.Introspected;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.http.annotation.Header;
import io.micronaut.http.annotation.PathVariable;
import io.micronaut.http.annotation.RequestAttribute;
import io.swagger.v3.oas.annotations.Parameter;

/**
 * What every REST write endpoint binds from the request besides its body ({@code @RequestBean WriteCall call}): the
 * space in the path, the authenticated actor, {@code Idempotency-Key} and {@code If-Match}. It becomes the
 * transport-neutral {@link WriteContext} the application services take.
 *
 * @param space path variable
 * @param actor the caller's actor, set by the auth filter
 * @param idempotencyKey {@code Idempotency-Key}: a retry with the same key returns the first outcome (null: a fresh id)
 * @param ifMatch {@code If-Match}: the version (ETag) the change expects (null: any)
 */
@Introspected
public record WriteCall(
        @PathVariable String space,

        @Parameter(hidden = true) @RequestAttribute(Principal.ACTOR)
        Actor actor,

        @Nullable @Header(RequestIds.HEADER) String idempotencyKey,
        @Nullable @Header(ExpectedVersions.IF_MATCH) String ifMatch) {

    /** A write that creates something: no version to expect. */
    public WriteContext create() {
        return WriteContext.of(space, actor, idempotencyKey, null, null);
    }

    /**
     * A write that changes something existing.
     *
     * @param bodyVersion {@code expected_version} from the body, if any; it must agree with {@code If-Match}
     */
    public WriteContext change(@Nullable Integer bodyVersion) {
        return WriteContext.of(space, actor, idempotencyKey, bodyVersion, ifMatch);
    }
}
