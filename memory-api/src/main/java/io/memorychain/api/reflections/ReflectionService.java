package io.memorychain.api.reflections;

import io.memorychain.api.backend.ChainReads;
import io.memorychain.api.categories.CategoryReads;
import io.memorychain.api.error.ApiException;
import io.memorychain.api.error.ErrorCodes;
import io.memorychain.api.request.Enums;
import io.memorychain.api.request.PathIds;
import io.memorychain.api.request.Texts;
import io.memorychain.api.write.WriteContext;
import io.memorychain.api.write.WriteExecutor;
import io.memorychain.avro.Actor;
import io.memorychain.avro.DecideReflection;
import io.memorychain.avro.Memory;
import io.memorychain.avro.MemoryOutcome;
import io.memorychain.avro.ReflectionChange;
import io.memorychain.avro.ReflectionDecisionType;
import io.memorychain.avro.ReflectionDocument;
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

    /** What a confined reader sees instead of a reflection's summary when it drew on memories it may not read. */
    public static final String HIDDEN =
            "(details hidden: this reflection drew on memories of categories this caller " + "may not read)";

    private final ChainReads backend;
    private final WriteExecutor writes;
    private final CategoryReads categories;

    public ReflectionService(ChainReads backend, WriteExecutor writes, CategoryReads categories) {
        this.backend = backend;
        this.writes = writes;
        this.categories = categories;
    }

    /**
     * The log, oldest first ({@code status} null for all), and the evolution record, as {@code reader} may see them
     * ({@link #visible}).
     */
    public ReflectionLogJson log(String space, Actor reader, String status) {
        ReflectionStatus wanted =
                status == null || status.isBlank() ? null : Enums.parse(ReflectionStatus.class, "status", status);
        List<Reflection> all = backend.views().reflections(space).stream()
                .map(r -> visible(space, reader, r))
                .toList();
        List<String> evolution = new ArrayList<>();
        for (Reflection r : all) {
            if (r.getStatus() == ReflectionStatus.APPROVED || r.getStatus() == ReflectionStatus.PARTIALLY_APPROVED) {
                r.getDocument()
                        .getEvolutionInsights()
                        .forEach(i -> evolution.add("#" + r.getDocument().getNumber() + ": " + i));
            }
        }
        return new ReflectionLogJson(
                all.stream()
                        .filter(r -> wanted == null || r.getStatus() == wanted)
                        .map(ReflectionJson::of)
                        .toList(),
                evolution);
    }

    /** One reflection as {@code reader} may see it ({@link #visible}); 404 NOT_FOUND for unknown ids. */
    public Reflection get(String space, String id, Actor reader) {
        if (!PathIds.plausible(id)) {
            throw notFound(space, id);
        }
        return visible(space, reader, backend.views().reflection(space, id).orElseThrow(() -> notFound(space, id)));
    }

    /**
     * The reflection as {@code reader} may see it, like the audit log (docs/architecture.md §13): for an agent confined
     * by a category allowlist, a reflection that names a memory (an episode, a change's target, an applied change) or a
     * category it may not read keeps its id, status, trigger, seq range, counts and who decided, but loses the text
     * drawn from every episode (summary, priorities, guidance, insights, contradictions, questions, the decision's
     * reason), and its episode ids and changes are only the readable ones. Other readers see it whole. Categories are
     * the memories' current ones.
     */
    public Reflection visible(String space, Actor reader, Reflection r) {
        if (categories.listable(reader) == null) {
            return r;
        }
        ReflectionDocument d = r.getDocument();
        boolean whole = d.getEpisodeIds().stream().allMatch(id -> readable(space, reader, id))
                && d.getChanges().stream().allMatch(c -> readable(space, reader, c))
                && r.getEditedChanges().stream().allMatch(c -> readable(space, reader, c))
                && r.getMemoryIds().stream().allMatch(id -> readable(space, reader, id));
        if (whole) {
            return r;
        }
        ReflectionDocument redacted = ReflectionDocument.newBuilder(d)
                .setEpisodeIds(d.getEpisodeIds().stream()
                        .filter(id -> readable(space, reader, id))
                        .toList())
                .setChanges(d.getChanges().stream()
                        .filter(c -> readable(space, reader, c))
                        .toList())
                .setSummary(HIDDEN)
                .setPriorities(List.of())
                .setGuidance(null)
                .setEvolutionInsights(List.of())
                .setContradictions(List.of())
                .setQuestions(List.of())
                .build();
        List<String> applied = new ArrayList<>();
        List<String> memories = new ArrayList<>();
        for (int i = 0; i < r.getAppliedChangeIds().size(); i++) {
            String memory = i < r.getMemoryIds().size() ? r.getMemoryIds().get(i) : null;
            if (readable(space, reader, memory)) {
                applied.add(r.getAppliedChangeIds().get(i));
                memories.add(memory);
            }
        }
        return Reflection.newBuilder(r)
                .setDocument(redacted)
                .setReason(null)
                .setAppliedChangeIds(applied)
                .setMemoryIds(memories)
                .setEditedChanges(r.getEditedChanges().stream()
                        .filter(c -> readable(space, reader, c))
                        .toList())
                .build();
    }

    private boolean readable(String space, Actor reader, ReflectionChange c) {
        return categories.readable(reader, c.getCategory())
                && readable(space, reader, c.getMemoryId())
                && readable(space, reader, c.getToId());
    }

    private boolean readable(String space, Actor reader, String memoryId) {
        return memoryId == null
                || categories.readable(
                        reader,
                        backend.views()
                                .memory(space, memoryId)
                                .map(Memory::getCategory)
                                .orElse(null));
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
     * worker, an admin or a sub-agent), 400 INVALID_ARGUMENT (a change id not in the reflection, a malformed body), or
     * the code of a change that no longer applies (nothing is applied then).
     */
    public Reflection decide(WriteContext ctx, String id, ReflectionDecisionBody body) {
        if (body == null || body.decision() == null) {
            throw ApiException.invalid("decision is required: " + Enums.allowed(ReflectionDecisionType.class));
        }
        if (!PathIds.plausible(id)) {
            throw notFound(ctx.space(), id);
        }
        ReflectionDecisionType decision = Enums.parse(ReflectionDecisionType.class, "decision", body.decision());
        if (body.reason() != null && body.reason().length() > Rules.MAX_REASON) {
            throw ApiException.invalid("reason is at most " + Rules.MAX_REASON + " characters");
        }
        DecideReflection op = DecideReflection.newBuilder()
                .setReflectionId(id)
                .setDecision(decision)
                .setReason(body.reason())
                .setChangeIds(body.changeIds() == null ? List.of() : List.copyOf(body.changeIds()))
                .setEditedChanges(
                        body.editedChanges() == null
                                ? List.of()
                                : body.editedChanges().stream()
                                        .map(ReflectionChangeJson::toChange)
                                        .toList())
                .build();
        MemoryOutcome outcome = writes.apply(ctx, op);
        return backend.views()
                .reflection(ctx.space(), id)
                .map(r -> visible(ctx.space(), ctx.actor(), r))
                .orElseThrow(() -> new ApiException(
                        ErrorCodes.INTERNAL,
                        "Decided as seq " + outcome.getSeq() + " but reflection " + id + " cannot be read back",
                        outcome.getRequestId()));
    }

    private static ApiException notFound(String space, String id) {
        return ApiException.notFound("No reflection '" + Texts.abbreviate(id) + "' in space " + space);
    }
}
