package io.memorychain.projector.search;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.memorychain.projector.search.FilterExpr.And;
import io.memorychain.projector.search.FilterExpr.Condition;
import io.memorychain.projector.search.FilterExpr.Field;
import io.memorychain.projector.search.FilterExpr.Not;
import io.memorychain.projector.search.FilterExpr.Op;
import io.memorychain.projector.search.FilterExpr.Or;
import io.memorychain.projector.search.InvalidFilterException.Reason;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class FilterParserTest {

    private static SearchFilters parse(Object tree) {
        return FilterParser.parse(tree, "filters");
    }

    private static void refused(Object tree, Reason reason, String path) {
        assertThatThrownBy(() -> parse(tree)).isInstanceOfSatisfying(InvalidFilterException.class, e -> {
            assertThat(e.reason()).isEqualTo(reason);
            assertThat(e.path()).isEqualTo(path);
            assertThat(e.getMessage()).startsWith(path + ": ");
        });
    }

    @Test
    void theIssueExampleBecomesAnAndOfARangeAnOrAndANot() {
        Map<String, Object> tree = Map.of(
                "AND",
                List.of(
                        Map.of("importance", Map.of("gte", 4)),
                        Map.of(
                                "OR",
                                List.of(
                                        Map.of("tags", Map.of("contains", "travel")),
                                        Map.of("category", Map.of("in", List.of("work", "family"))))),
                        Map.of("NOT", Map.of("kind", "episodic"))));

        SearchFilters f = parse(tree);

        assertThat(f.where())
                .isEqualTo(new And(List.of(
                        new Condition(Field.IMPORTANCE, Op.GTE, 4),
                        new Or(List.of(
                                new Condition(Field.TAGS, Op.CONTAINS, "travel"),
                                new Condition(Field.CATEGORY, Op.IN, List.of("work", "family")))),
                        new Not(new Condition(Field.KIND, Op.EQ, "EPISODIC")))));
        assertThat(f.category()).isNull();
    }

    @Test
    void theFlatFormsOfEarlierVersionsKeepFillingThePlainFields() {
        Map<String, Object> tree = new LinkedHashMap<>();
        tree.put("user_id", "ana");
        tree.put("category", "work");
        tree.put("pinned", true);
        tree.put("importance_min", 2);
        tree.put("importance_max", 4);
        tree.put("updated_after", "2025-07-01");
        tree.put("updated_before", "2025-08-01T10:00:00Z");
        tree.put("agent_id", null);
        tree.put("tags", null);

        SearchFilters f = parse(tree);

        assertThat(f)
                .isEqualTo(SearchFilters.builder()
                        .userId("ana")
                        .category("work")
                        .pinned(true)
                        .importanceMin(2)
                        .importanceMax(4)
                        .updatedAfter(Instant.parse("2025-07-01T00:00:00Z"))
                        .updatedBefore(Instant.parse("2025-08-01T10:00:00Z"))
                        .build());
        assertThat(parse(null)).isEqualTo(SearchFilters.NONE);
        assertThat(parse(Map.of())).isEqualTo(SearchFilters.NONE);
    }

    @Test
    void plainValuesMeanEqualityAndContainsForTags() {
        SearchFilters f = parse(Map.of("tags", "travel"));
        assertThat(f.where()).isEqualTo(new Condition(Field.TAGS, Op.CONTAINS, "travel"));

        assertThat(parse(Map.of("thread_id", "t-1")).where()).isEqualTo(new Condition(Field.THREAD_ID, Op.EQ, "t-1"));
        assertThat(parse(Map.of("created_at", Map.of("gte", "2025-01-01", "lt", "2025-02-01")))
                        .where())
                .isInstanceOf(And.class);
    }

    @Test
    void severalOperatorsOnOneFieldAllMustHoldAndLegacyNamesWorkInsideGroups() {
        SearchFilters f = parse(Map.of(
                "OR",
                List.of(
                        Map.of("importance", Map.of("gt", 1, "lte", 3)),
                        Map.of("importance_min", 5),
                        Map.of("updated_before", "2025-07-01"))));

        Or or = (Or) f.where();
        assertThat(or.parts().get(0)).isInstanceOf(And.class);
        assertThat(((And) or.parts().get(0)).parts())
                .containsExactlyInAnyOrder(
                        new Condition(Field.IMPORTANCE, Op.GT, 1), new Condition(Field.IMPORTANCE, Op.LTE, 3));
        assertThat(or.parts().get(1)).isEqualTo(new Condition(Field.IMPORTANCE, Op.GTE, 5));
        assertThat(or.parts().get(2))
                .isEqualTo(new Condition(Field.UPDATED_AT, Op.LT, Instant.parse("2025-07-01T00:00:00Z")));
    }

    @Test
    void numbersArriveAsAnyNumericTypeButMustBeWhole() {
        assertThat(parse(Map.of("importance", Map.of("gte", 4L))).where())
                .isEqualTo(new Condition(Field.IMPORTANCE, Op.GTE, 4));
        assertThat(parse(Map.of("importance", Map.of("gte", 4.0))).where())
                .isEqualTo(new Condition(Field.IMPORTANCE, Op.GTE, 4));
        assertThat(parse(Map.of("importance", new BigDecimal("3"))).where())
                .isEqualTo(new Condition(Field.IMPORTANCE, Op.EQ, 3));
        refused(Map.of("importance", Map.of("gte", 4.5)), Reason.INVALID_VALUE, "filters.importance.gte");
    }

    @Test
    void anUnknownFieldIsRefusedWithItsPath() {
        refused(Map.of("colour", "red"), Reason.UNKNOWN_FIELD, "filters.colour");
        refused(
                Map.of("AND", List.of(Map.of("importance", 3), Map.of("OR", List.of(Map.of("mood", "x"))))),
                Reason.UNKNOWN_FIELD,
                "filters.AND[1].OR[0].mood");
    }

    @Test
    void anUnknownOrInapplicableOperatorIsRefusedWithItsPath() {
        refused(
                Map.of("importance", Map.of("between", List.of(1, 3))),
                Reason.UNKNOWN_OPERATOR,
                "filters.importance.between");
        refused(Map.of("category", Map.of("gt", "a")), Reason.UNKNOWN_OPERATOR, "filters.category.gt");
        refused(
                Map.of("NOT", Map.of("created_at", Map.of("in", List.of("2025-01-01")))),
                Reason.UNKNOWN_OPERATOR,
                "filters.NOT.created_at.in");
    }

    @Test
    void aValueOfTheWrongTypeIsRefusedWithItsPath() {
        refused(Map.of("importance", Map.of("gte", "high")), Reason.INVALID_VALUE, "filters.importance.gte");
        refused(Map.of("created_at", Map.of("lt", "yesterday")), Reason.INVALID_VALUE, "filters.created_at.lt");
        refused(Map.of("category", Map.of("in", List.of("work", 3))), Reason.INVALID_VALUE, "filters.category.in[1]");
        refused(Map.of("category", Map.of("in", List.of())), Reason.INVALID_VALUE, "filters.category.in");
        refused(Map.of("category", List.of("work")), Reason.INVALID_VALUE, "filters.category");
        refused(Map.of("kind", "dream"), Reason.INVALID_VALUE, "filters.kind");
        refused(Map.of("pinned", "yes"), Reason.INVALID_VALUE, "filters.pinned");
        refused(Map.of("AND", Map.of("importance", 3)), Reason.INVALID_VALUE, "filters.AND");
        refused(Map.of("OR", List.of("importance")), Reason.INVALID_VALUE, "filters.OR[0]");
        refused(Map.of("NOT", Map.of()), Reason.INVALID_VALUE, "filters.NOT");
        Map<String, Object> nullInside = new LinkedHashMap<>();
        nullInside.put("user_id", null);
        refused(Map.of("NOT", nullInside), Reason.INVALID_VALUE, "filters.NOT.user_id");
        refused(List.of(), Reason.INVALID_VALUE, "filters");
        refused(Map.of("importance_min", 5, "importance_max", 2), Reason.INVALID_VALUE, "filters");
    }

    @Test
    void nestingDeeperThanFiveLevelsIsRefused() {
        Object five = Map.of("importance", 3);
        for (int i = 0; i < 5; i++) {
            five = Map.of("NOT", five);
        }
        assertThat(parse(five).where()).isInstanceOf(Not.class);

        refused(Map.of("NOT", five), Reason.TOO_DEEP, "filters.NOT.NOT.NOT.NOT.NOT.NOT");
    }
}
