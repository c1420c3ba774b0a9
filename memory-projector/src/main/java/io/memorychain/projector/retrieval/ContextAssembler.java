package io.memorychain.projector.retrieval;

import io.memorychain.avro.Actor;
import io.memorychain.avro.Memory;
import io.memorychain.avro.MemoryKind;
import io.memorychain.avro.MemoryState;
import io.memorychain.domain.category.CategoryPolicy;
import io.memorychain.domain.core.CoreFormatter;
import io.memorychain.domain.core.CoreView;
import io.memorychain.projector.search.FilterExpr;
import io.memorychain.projector.search.SearchFilters;
import io.memorychain.projector.view.ListQuery;
import io.memorychain.projector.view.MemoryViews;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Assembles the context an agent runtime injects at the start of a turn (docs/architecture.md §7, context), in priority
 * order within {@code max_tokens}: the unacknowledged critical-change alerts (§21, seed 001 §12.5), core memory (blocks
 * and core-tier memories the agent may read), the user profile (§21), the delta header of the thread, memories of
 * categories whose context mode is {@code all}, then working memories retrieved for the message. Tokens are counted on
 * the final text, so the answer never exceeds the budget.
 */
public final class ContextAssembler {

    static final int WORKING_TOP_K = 20;
    static final int ALWAYS_ON_LIMIT = 50;
    /** The working query's filter when the message does not ask for a procedure. */
    private static final SearchFilters NO_PROCEDURES = SearchFilters.builder()
            .where(new FilterExpr.Not(new FilterExpr.Condition(
                    FilterExpr.Field.KIND, FilterExpr.Op.EQ, List.of(MemoryKind.PROCEDURAL.name()))))
            .build();

    private final MemoryViews views;
    private final QueryService queries;
    private final CategoryPolicy policy;

    public ContextAssembler(MemoryViews views, QueryService queries, CategoryPolicy policy) {
        this.views = views;
        this.queries = queries;
        this.policy = policy;
    }

    public ContextResult assemble(ContextRequest r, Actor actor) {
        return assemble(r, actor, QueryStages.NONE);
    }

    /**
     * As {@link #assemble(ContextRequest, Actor)}, recording where the time went: {@code core} (core memory, alerts,
     * profile and the always-on categories), the working query's stages, then {@code assemble}.
     */
    public ContextResult assemble(ContextRequest r, Actor actor, QueryStages stages) {
        long started = System.nanoTime();
        QueryRequest probe = new QueryRequest(
                r.space(),
                r.agent(),
                r.message(),
                null,
                null,
                WORKING_TOP_K,
                QueryRequest.Format.BULLETS,
                null,
                null,
                false,
                false,
                r.threadId(),
                r.sinceRev());
        Set<String> allowed = queries.allowedCategories(probe);
        CoreView fullCore = CoreFormatter.format(views.core(r.space()).memories().stream()
                .filter(m -> readable(m, allowed))
                .toList());
        Set<String> ids = new LinkedHashSet<>();
        fullCore.memories().forEach(m -> ids.add(m.getId()));

        Sections sections = new Sections(r.maxTokens());
        io.memorychain.avro.view.SpaceGovernance governance = views.governance(r.space());
        sections.addCut(alerts(governance));
        ContextResult.PendingReview review = ReviewItems.pending(views, r.space(), allowed);
        List<ContextResult.Question> questions = ReviewItems.questions(governance);
        sections.addCut(ReviewItems.section(views, r.space(), review, questions));
        CoreView core = addCore(sections, fullCore);
        boolean coreTruncated = core.memories().size() < fullCore.memories().size();
        List<String> coreOmitted =
                fullCore
                        .memories()
                        .subList(core.memories().size(), fullCore.memories().size())
                        .stream()
                        .map(Memory::getId)
                        .toList();
        List<String> warnings = coreTruncated
                ? List.of(String.format(
                        java.util.Locale.ROOT,
                        "max_tokens %d is too small for core memory (%d tokens): %d of its %d memories were left out "
                                + "(core_omitted); core memory is meant to be loaded whole, so ask for at least %d tokens",
                        r.maxTokens(),
                        fullCore.tokens(),
                        coreOmitted.size(),
                        fullCore.memories().size(),
                        fullCore.tokens()))
                : List.of();
        sections.addCut(profile(governance));

        // procedural memories (how to do things) only when the message asks how to do something
        boolean procedures = ProcedureIntent.asks(r.message());
        List<String> lines = new ArrayList<>();
        List<String> lineIds = new ArrayList<>();
        for (CategoryPolicy.Category c : policy.categories().values().stream()
                .sorted(Comparator.comparing(CategoryPolicy.Category::name))
                .toList()) {
            if (c.context() != CategoryPolicy.ContextMode.ALL || !policy.allows(r.agent(), c.name())) {
                continue;
            }
            for (Memory m : views.list(
                            r.space(), new ListQuery(null, c.name(), MemoryState.ACTIVE, null, ALWAYS_ON_LIMIT))
                    .items()) {
                if ((procedures || m.getKind() != MemoryKind.PROCEDURAL) && ids.add(m.getId())) {
                    lines.add("- " + QueryRendering.text(m));
                    lineIds.add(m.getId());
                }
            }
        }
        stages.since("core", started);
        // the query gives the delta header and the working memories, ranked, within what is left of the budget
        QueryResult working = queries.query(
                new QueryRequest(
                        r.space(),
                        r.agent(),
                        r.message(),
                        null,
                        procedures ? null : NO_PROCEDURES,
                        WORKING_TOP_K,
                        QueryRequest.Format.BULLETS,
                        Math.max(1, sections.remaining()),
                        null,
                        false,
                        false,
                        r.threadId(),
                        r.sinceRev()),
                actor,
                ids,
                stages);
        long queried = System.nanoTime();
        if (!working.header().isEmpty()) {
            sections.add(working.header());
        }
        List<String> included =
                new ArrayList<>(core.memories().stream().map(Memory::getId).toList());
        for (QueryResult.Item item : working.items()) {
            lines.add(QueryRendering.bullet(item));
            lineIds.add(item.id());
        }
        int omitted = working.omitted();
        int fitted = sections.addList("## Relevant Memories", lines);
        omitted += lines.size() - fitted;
        included.addAll(lineIds.subList(0, fitted));
        String text = sections.text();
        ContextResult result = new ContextResult(
                text,
                QueryRendering.tokens(text),
                working.revision(),
                coreTruncated,
                List.copyOf(included),
                omitted,
                fullCore.tokens(),
                coreOmitted,
                warnings,
                review,
                questions);
        stages.since("assemble", queried);
        return result;
    }

    /**
     * Adds core memory whole when it fits; else the longest leading run of whole core memories (blocks first, in the
     * core view's order) that fits, so a memory is either in the context entire or named in {@code core_omitted}: core
     * text is never cut silently. Returns the core view actually added.
     */
    private static CoreView addCore(Sections sections, CoreView core) {
        if (core.text().isEmpty() || sections.add(core.text())) {
            return core;
        }
        List<Memory> memories = core.memories();
        for (int n = memories.size() - 1; n > 0; n--) {
            CoreView part = CoreFormatter.format(memories.subList(0, n));
            if (sections.add(part.text())) {
                return part;
            }
        }
        return CoreFormatter.format(List.of());
    }

    /** Every unacknowledged alert, so the agent surfaces it to the user until someone acknowledges it. */
    static String alerts(io.memorychain.avro.view.SpaceGovernance g) {
        List<io.memorychain.avro.view.CriticalAlert> open =
                io.memorychain.domain.governance.Governance.unacknowledged(g);
        if (open.isEmpty()) {
            return "";
        }
        StringBuilder sb = new StringBuilder("## Critical Change Alerts (pending user acknowledgment)");
        for (io.memorychain.avro.view.CriticalAlert a : open) {
            sb.append("\n- CRITICAL: block ")
                    .append(a.getLabel())
                    .append(" was modified (v")
                    .append(a.getVersion())
                    .append(") by ")
                    .append(a.getChangeActor().getType().name().toLowerCase(java.util.Locale.ROOT))
                    .append(':')
                    .append(a.getChangeActor().getId())
                    .append(" on ")
                    .append(a.getAlertedAt())
                    .append(" (seq ")
                    .append(a.getChangeSeq())
                    .append("). Ask the user whether it was intentional. [")
                    .append(a.getId())
                    .append(']');
        }
        return sb.toString();
    }

    /** The user profile's fields, one per line. */
    static String profile(io.memorychain.avro.view.SpaceGovernance g) {
        if (g == null || g.getFields().isEmpty()) {
            return "";
        }
        StringBuilder sb = new StringBuilder("## User Profile");
        g.getFields()
                .forEach(f -> sb.append("\n- ").append(f.getName()).append(": ").append(f.getValue()));
        return sb.toString();
    }

    private static boolean readable(Memory m, Set<String> allowed) {
        return m.getCategory() == null || allowed == null || allowed.contains(m.getCategory());
    }

    /** Sections joined by blank lines, each added only while the whole text stays within the budget. */
    private static final class Sections {
        private final int budget;
        private final List<String> parts = new ArrayList<>();

        Sections(int budget) {
            this.budget = budget;
        }

        String text() {
            return String.join("\n\n", parts);
        }

        int remaining() {
            return budget - QueryRendering.tokens(text()) - (parts.isEmpty() ? 0 : 1);
        }

        boolean add(String section) {
            parts.add(section);
            if (QueryRendering.tokens(text()) <= budget) {
                return true;
            }
            parts.remove(parts.size() - 1);
            return false;
        }

        /** Adds the section whole if it fits, else as many of its leading lines as fit; false when cut. */
        boolean addCut(String section) {
            if (section.isEmpty() || add(section)) {
                return true;
            }
            String[] lines = section.split("\n");
            for (int n = lines.length - 1; n > 0; n--) {
                if (add(String.join("\n", Arrays.copyOf(lines, n)))) {
                    return false;
                }
            }
            return false;
        }

        /** Adds a heading and as many of the items as fit, in order; returns how many fitted. */
        int addList(String heading, List<String> items) {
            int fitted = 0;
            StringBuilder sb = new StringBuilder(heading);
            for (String item : items) {
                String candidate = sb + "\n" + item;
                if (fitted == 0 ? add(candidate) : replaceLast(candidate)) {
                    sb.append('\n').append(item);
                    fitted++;
                }
            }
            return fitted;
        }

        private boolean replaceLast(String section) {
            String previous = parts.remove(parts.size() - 1);
            if (add(section)) {
                return true;
            }
            parts.add(previous);
            return false;
        }
    }
}
