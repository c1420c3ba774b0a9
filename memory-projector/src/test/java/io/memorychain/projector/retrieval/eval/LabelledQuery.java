package io.memorychain.projector.retrieval.eval;

import static io.memorychain.projector.retrieval.eval.LabelledMemory.require;

import java.util.List;

/**
 * One labelled query.
 *
 * @param categories an allowlist (null: every category, like {@code SearchRequest#allowedCategories})
 * @param via for {@link QueryType#MULTIHOP}: the entity memories the query names, where traversal starts
 * @param expected the correct answers, most relevant first
 * @param mustNot memories no correct search may return (superseded, or outside the filters or categories)
 * @param note the annotator's rationale (free text)
 */
public record LabelledQuery(
        String id,
        String space,
        QueryType type,
        String text,
        QueryFilters filters,
        List<String> categories,
        List<String> via,
        List<String> expected,
        List<String> mustNot,
        String note) {

    public LabelledQuery {
        require(id != null && !id.isBlank(), "query without id");
        require(space != null && !space.isBlank(), "query " + id + " has no space");
        require(type != null, "query " + id + " has no type");
        require(text != null && !text.isBlank(), "query " + id + " has no text");
        require(expected != null && !expected.isEmpty(), "query " + id + " expects nothing");
        filters = filters == null ? QueryFilters.NONE : filters;
        categories = categories == null ? null : List.copyOf(categories);
        via = via == null ? List.of() : List.copyOf(via);
        expected = List.copyOf(expected);
        mustNot = mustNot == null ? List.of() : List.copyOf(mustNot);
    }

    /** True when the memory passes the filters and the category allowlist (state and space are not checked). */
    public boolean admits(LabelledMemory m) {
        return filters.admits(m) && (categories == null || m.category() != null && categories.contains(m.category()));
    }
}
