package io.memorychain.api.grants;

import io.memorychain.api.backend.ChainReads;
import io.memorychain.api.error.ApiException;
import io.memorychain.api.error.ErrorCodes;
import io.memorychain.api.request.PathIds;
import io.memorychain.api.request.Texts;
import io.memorychain.api.write.WriteContext;
import io.memorychain.api.write.WriteExecutor;
import io.memorychain.avro.ConsentGrant;
import io.memorychain.avro.MemoryOutcome;
import io.memorychain.avro.RequestGrant;
import io.memorychain.avro.RevokeGrant;
import io.memorychain.avro.view.Grant;
import io.memorychain.domain.Grants;
import io.memorychain.domain.Rules;
import jakarta.inject.Singleton;
import java.util.List;

/**
 * Mechanic's Exception grants (docs/architecture.md §13), transport-neutral: an admin requests, the space's agent or
 * user consents or declines, the owner or the grantee revokes; the grants of a space and the reads recorded under one.
 * Who may do what is the sequencer's rule ({@code GrantDecider}); this class checks the input before anything is
 * published and writes through the {@link WriteExecutor} (read-your-writes).
 */
@Singleton
public class GrantService {

    private final ChainReads backend;
    private final WriteExecutor writes;

    public GrantService(ChainReads backend, WriteExecutor writes) {
        this.backend = backend;
        this.writes = writes;
    }

    /** Records AccessGrantRequested; the grant as requested (pending). */
    public GrantJson request(WriteContext ctx, GrantBody body) {
        if (body == null || body.purpose() == null || body.purpose().isBlank()) {
            throw ApiException.invalid("purpose is required: say why the content must be read");
        }
        if (body.purpose().length() > Rules.MAX_REASON) {
            throw ApiException.invalid("purpose is at most " + Rules.MAX_REASON + " characters");
        }
        long max = Grants.MAX_DURATION.toSeconds();
        if (body.durationSeconds() == null || body.durationSeconds() < 1 || body.durationSeconds() > max) {
            throw ApiException.invalid("duration_seconds is required: 1 to " + max + " (24 h)");
        }
        List<String> ids = body.memoryIds() == null ? List.of() : List.copyOf(body.memoryIds());
        if (ids.size() > Grants.MAX_IDS) {
            throw ApiException.invalid("memory_ids: at most " + Grants.MAX_IDS);
        }
        String grantee =
                body.grantee() == null || body.grantee().isBlank() ? ctx.actor().getId() : body.grantee();
        MemoryOutcome outcome =
                writes.apply(ctx, new RequestGrant(grantee, body.purpose(), body.durationSeconds(), ids));
        return readBack(ctx.space(), outcome.getMemoryId(), outcome);
    }

    /** Records AccessGranted (expires_at = now + duration); the grant, now active. */
    public GrantJson consent(WriteContext ctx, String id) {
        requirePlausible(ctx.space(), id);
        return readBack(ctx.space(), id, writes.apply(ctx, new ConsentGrant(id)));
    }

    /** Records AccessRevoked: reads under the grant stop at once. */
    public GrantJson revoke(WriteContext ctx, String id, String reason) {
        requirePlausible(ctx.space(), id);
        if (reason != null && reason.length() > Rules.MAX_REASON) {
            throw ApiException.invalid("reason is at most " + Rules.MAX_REASON + " characters");
        }
        return readBack(ctx.space(), id, writes.apply(ctx, new RevokeGrant(id, reason)));
    }

    /** The space's grants, oldest first. */
    public List<GrantJson> list(String space) {
        return backend.views().grants(space).stream()
                .map(g -> GrantJson.of(g, backend.clock().instant()))
                .toList();
    }

    public GrantJson get(String space, String id) {
        return GrantJson.of(find(space, id), backend.clock().instant());
    }

    /** Every content read recorded under the grant, oldest first. */
    public GrantReadJson.Page reads(String space, String id) {
        find(space, id);
        return new GrantReadJson.Page(backend.views().grantReads(space, id).stream()
                .map(GrantReadJson::of)
                .toList());
    }

    private Grant find(String space, String id) {
        requirePlausible(space, id);
        return backend.views().grant(space, id).orElseThrow(() -> notFound(space, id));
    }

    private GrantJson readBack(String space, String id, MemoryOutcome outcome) {
        Grant grant = backend.views()
                .grant(space, id)
                .orElseThrow(() -> new ApiException(
                        ErrorCodes.INTERNAL,
                        "Accepted as seq " + outcome.getSeq() + " but grant " + id + " cannot be read back",
                        outcome.getRequestId()));
        return GrantJson.of(grant, backend.clock().instant());
    }

    private static void requirePlausible(String space, String id) {
        if (!PathIds.plausible(id)) {
            throw notFound(space, id);
        }
    }

    private static ApiException notFound(String space, String id) {
        return ApiException.notFound("No grant '" + Texts.abbreviate(id) + "' in space " + space);
    }
}
