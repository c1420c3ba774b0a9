package io.memorychain.api.reflections;

import io.memorychain.api.backend.MemoryBackend;
import io.memorychain.api.error.ApiException;
import io.memorychain.api.error.ErrorCodes;
import io.memorychain.api.request.Enums;
import io.memorychain.api.request.PathIds;
import io.memorychain.api.request.Texts;
import io.memorychain.api.write.WriteContext;
import io.memorychain.api.write.WriteExecutor;
import io.memorychain.avro.DecideReflection;
import io.memorychain.avro.MemoryOutcome;
import io.memorychain.avro.ReflectionDecisionType;
import io.memorychain.avro.RequestReflection;
import io.memorychain.avro.view.Reflection;
import io.memorychain.avro.view.ReflectionStatus;
import io.memorychain.domain.Rules;
import jakarta.inject.Singleton;
import java.util.ArrayList;
import java.util.List;

/**
 * The reflection engine's surface (docs/architecture.md §18), transport-neutral: the reflection log and its evolution
 * record, one reflection, the manual trigger, and the decision (approve, approve with changes, partial, reject). Who
 * may decide and what a decision applies are the sequencer's rules; this class checks the input before anything is
 * published and writes through the {@link WriteExecutor} (read-your-writes).
 */
@Singleton
public class ReflectionService {

    private final MemoryBackend backend;
    private final WriteExecutor writes;

    public ReflectionService(MemoryBackend backend, WriteExecutor writes) {
        this.backend = backend;
        this.writes = writes;
    }

    /** The log, oldest first ({@code status} null for all), and the evolution record. */
    public ReflectionLogJson log(String space, String status) {
        ReflectionStatus wanted = status == null || status.isBlank() ? null
                : Enums.parse(ReflectionStatus.class, "status", status);
        List<Reflection> all = backend.views().reflections(space);
        List<String> evolution = new ArrayList<>();
        for (Reflection r : all) {
            if (r.getStatus() == ReflectionStatus.APPROVED || r.getStatus() == ReflectionStatus.PARTIALLY_APPROVED) {
                r.getDocument().getEvolutionInsights().forEach(i -> evolution.add("#" + r.getDocument().getNumber()
                        + ": " + i));
            }
        }
        return new ReflectionLogJson(all.stream().filter(r -> wanted == null || r.getStatus() == wanted)
                .map(ReflectionJson::of).toList(), evolution);
    }

    /** One reflection; 404 NOT_FOUND for unknown ids. */
    public Reflection get(String space, String id) {
        if (!PathIds.plausible(id)) {
            throw notFound(space, id);
        }
        return backend.views().reflection(space, id).orElseThrow(() -> notFound(space, id));
    }

    /** The manual trigger: records ReflectionRequested, which the reflection worker answers; the accepted outcome. */
    public MemoryOutcome request(WriteContext ctx, String reason) {
        if (reason != null && reason.length() > Rules.MAX_REASON) {
            throw ApiException.invalid("reason is at most " + Rules.MAX_REASON + " characters");
        }
        return writes.apply(ctx, new RequestReflection(reason));
    }

    /**
     * Decides a pending reflection and answers it as decided: 404 NOT_FOUND, 409 ALREADY_RESOLVED, 403 FORBIDDEN (a
     * worker, an admin or a sub-agent), 400 INVALID_ARGUMENT (a change id not in the reflection, a malformed body),
     * or the code of a change that no longer applies (nothing is applied then).
     */
    public Reflection decide(WriteContext ctx, String id, ReflectionDecisionBody body) {
        if (body == null || body.decision() == null) {
            throw ApiException.invalid("decision is required: "
                    + Enums.allowed(ReflectionDecisionType.class));
        }
        if (!PathIds.plausible(id)) {
            throw notFound(ctx.space(), id);
        }
        ReflectionDecisionType decision = Enums.parse(ReflectionDecisionType.class, "decision", body.decision());
        if (body.reason() != null && body.reason().length() > Rules.MAX_REASON) {
            throw ApiException.invalid("reason is at most " + Rules.MAX_REASON + " characters");
        }
        DecideReflection op = DecideReflection.newBuilder().setReflectionId(id).setDecision(decision)
                .setReason(body.reason()).setChangeIds(body.changeIds() == null ? List.of() : List.copyOf(body.changeIds()))
                .setEditedChanges(body.editedChanges() == null ? List.of()
                        : body.editedChanges().stream().map(ReflectionChangeJson::toChange).toList())
                .build();
        MemoryOutcome outcome = writes.apply(ctx, op);
        return backend.views().reflection(ctx.space(), id).orElseThrow(() -> new ApiException(ErrorCodes.INTERNAL,
                "Decided as seq " + outcome.getSeq() + " but reflection " + id + " cannot be read back",
                outcome.getRequestId()));
    }

    private static ApiException notFound(String space, String id) {
        return ApiException.notFound("No reflection '" + Texts.abbreviate(id) + "' in space " + space);
    }
}
