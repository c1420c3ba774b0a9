package io.memorychain.api.retrieval;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.memorychain.api.memories.MemoryJson;
import io.memorychain.api.request.Enums;
import io.memorychain.avro.Memory;
import io.memorychain.avro.MemoryState;
import io.memorychain.domain.core.CoreFormatter;
import io.memorychain.projector.retrieval.ContextResult;
import io.memorychain.projector.retrieval.QueryResult;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.serde.annotation.Serdeable;
import java.util.List;

/** Response shapes of /query and /context (the gRPC messages mirror them). */
public final class QueryJson {

    private QueryJson() {}

    @Serdeable
    public record Related(String id, String relation, double strength, String text) {}

    @Serdeable
    public record Item(
            String id,
            @Nullable String category,
            String text,
            double score,
            String decay,
            List<Related> related,
            @Nullable MemoryJson memory) {}

    @Serdeable
    public record Answer(String header, long revision, List<Item> items, int tokens, int omitted, String text) {}

    @Serdeable
    public record Context(
            String text,
            int tokens,
            long revision,
            @JsonProperty("core_truncated") boolean coreTruncated,
            @JsonProperty("memory_ids") List<String> memoryIds,
            int omitted,
            @JsonProperty("core_tokens") int coreTokens,
            @JsonProperty("core_omitted") List<String> coreOmitted,
            List<String> warnings,

            @JsonProperty("pending_proposals")
            @io.swagger.v3.oas.annotations.media.Schema(
                    name = "pending_proposals",
                    description =
                            "Open sub-agent proposals in batch review: the main agent reviews them (at session start or end)")
            int pendingProposals,

            @JsonProperty("manual_proposals")
            @io.swagger.v3.oas.annotations.media.Schema(
                    name = "manual_proposals",
                    description = "Open proposals under manual review: a user decides them")
            int manualProposals,

            @io.swagger.v3.oas.annotations.media.Schema(
                    description = "Contradictions to ask the user about (resolved ask_user), until resolved otherwise")
            List<Question> questions,

            OpenRefinement refinement) {

        /** The space's open refinement session, or null when none is open (declared: see SpecContractTest). */
        @Override
        public OpenRefinement refinement() {
            return refinement;
        }

        /** The same context telling the open refinement session. */
        public Context withRefinement(OpenRefinement open) {
            return new Context(
                    text,
                    tokens,
                    revision,
                    coreTruncated,
                    memoryIds,
                    omitted,
                    coreTokens,
                    coreOmitted,
                    warnings,
                    pendingProposals,
                    manualProposals,
                    questions,
                    open);
        }
    }

    /** The space's open refinement session as {@code /context} tells it (docs/architecture.md §9). */
    @Serdeable
    @io.swagger.v3.oas.annotations.media.Schema(name = "ContextRefinement")
    public record OpenRefinement(
            @JsonProperty("session_id") @io.swagger.v3.oas.annotations.media.Schema(name = "session_id")
            String sessionId,

            String trigger,

            @JsonProperty("started_at") @io.swagger.v3.oas.annotations.media.Schema(name = "started_at")
            String startedAt,

            @io.swagger.v3.oas.annotations.media.Schema(description = "Current core tokens and the target")
            String budget) {}

    /** A contradiction waiting for the user's answer. */
    @Serdeable
    @io.swagger.v3.oas.annotations.media.Schema(name = "ContextQuestion")
    public record Question(
            @io.swagger.v3.oas.annotations.media.Schema(description = "The contradiction id")
            String id,

            @JsonProperty("first_id") @io.swagger.v3.oas.annotations.media.Schema(name = "first_id")
            String firstId,

            @JsonProperty("second_id") @io.swagger.v3.oas.annotations.media.Schema(name = "second_id")
            String secondId) {}

    /** The memories whose content an answer carries: its items and their related memories. */
    public static List<String> memoryIds(Answer answer) {
        List<String> ids = new java.util.ArrayList<>();
        for (Item item : answer.items()) {
            ids.add(item.id());
            item.related().forEach(r -> ids.add(r.id()));
        }
        return ids;
    }

    static Answer of(QueryResult r) {
        return new Answer(
                r.header(),
                r.revision(),
                r.items().stream().map(QueryJson::item).toList(),
                r.tokens(),
                r.omitted(),
                r.render());
    }

    static Context of(ContextResult r) {
        return new Context(
                r.text(),
                r.tokens(),
                r.revision(),
                r.coreTruncated(),
                r.memoryIds(),
                r.omitted(),
                r.coreTokens(),
                r.coreOmitted(),
                r.warnings(),
                r.review().batch(),
                r.review().manual(),
                r.questions().stream()
                        .map(q -> new Question(q.id(), q.firstId(), q.secondId()))
                        .toList(),
                null);
    }

    private static Item item(QueryResult.Item i) {
        return new Item(
                i.id(),
                i.category(),
                i.text(),
                Math.round(i.score() * 10_000) / 10_000.0,
                Enums.json(i.decay()),
                i.related().stream()
                        .map(r -> new Related(r.id(), r.relation(), r.strength(), r.text()))
                        .toList(),
                i.memory() == null ? null : MemoryJson.of(i.memory()));
    }

    /**
     * The answer as it would have been at a point in time (docs/architecture.md §17): each item mapped to the memory's
     * version then, items of memories that did not exist or were not active (superseded too when asked) dropped, the
     * related bullets kept only for memories active then; the text rendered again from the items.
     *
     * @param versionAt a memory's version at the point, or null when it did not exist yet
     * @param readable whether the reader may read a version (its category)
     */
    static Answer asOf(
            Answer answer,
            java.util.function.Function<String, Memory> versionAt,
            java.util.function.Predicate<Memory> readable,
            boolean includeSuperseded) {
        List<Item> items = new java.util.ArrayList<>();
        for (Item item : answer.items()) {
            Memory then = versionAt.apply(item.id());
            if (then == null
                    || !(then.getState() == MemoryState.ACTIVE
                            || includeSuperseded && then.getState() == MemoryState.SUPERSEDED)
                    || !readable.test(then)) {
                continue;
            }
            List<Related> related = item.related().stream()
                    .filter(r -> {
                        Memory other = versionAt.apply(r.id());
                        return other != null && other.getState() == MemoryState.ACTIVE && readable.test(other);
                    })
                    .toList();
            String text = item.memory() != null && item.memory().content().equals(then.getContent())
                    ? item.text()
                    : then.getContent();
            items.add(new Item(
                    item.id(),
                    then.getCategory(),
                    text,
                    item.score(),
                    Enums.json(then.getDecayStatus()),
                    related,
                    MemoryJson.of(then)));
        }
        StringBuilder rendered = new StringBuilder(answer.header() == null ? "" : answer.header());
        for (Item item : items) {
            if (!rendered.isEmpty()) {
                rendered.append('\n');
            }
            rendered.append("- ").append(item.text());
        }
        String text = rendered.toString();
        return new Answer(
                answer.header(), answer.revision(), items, CoreFormatter.countTokens(text), answer.omitted(), text);
    }
}
