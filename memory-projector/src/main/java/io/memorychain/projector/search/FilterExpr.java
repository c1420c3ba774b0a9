package io.memorychain.projector.search;

import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * A boolean filter over memory metadata (docs/architecture.md §7): conditions on fields combined with AND, OR and NOT.
 * Built by {@link FilterParser} from the {@code filters} object of {@code memory.query}; translated into a Lucene
 * filter inside the search (so the top-k is taken among matching memories) and evaluated on memories reached by
 * traversal with the same semantics. A memory without a value for a field (no user id, say) matches no condition on
 * that field, so {@code NOT} of such a condition matches it.
 */
public sealed interface FilterExpr {

    /** Every part matches. */
    record And(List<FilterExpr> parts) implements FilterExpr {
        public And {
            parts = List.copyOf(parts);
        }
    }

    /** At least one part matches. */
    record Or(List<FilterExpr> parts) implements FilterExpr {
        public Or {
            parts = List.copyOf(parts);
        }
    }

    /** The part does not match. */
    record Not(FilterExpr part) implements FilterExpr {
        public Not {
            Objects.requireNonNull(part, "part");
        }
    }

    /**
     * Some day of the memory ({@link MemoryDates#all}: its creation day or a date its content mentions) falls in one of
     * {@code spans} (docs/architecture.md §7, dates). Built from the dates of a query, never parsed from JSON.
     */
    record Dates(List<DateSpan> spans) implements FilterExpr {
        public Dates {
            spans = List.copyOf(spans);
            if (spans.isEmpty()) {
                throw new IllegalArgumentException("a date filter needs at least one span");
            }
        }
    }

    /**
     * {@code field op values}: one value for {@code eq, gt, gte, lt, lte, contains}, one or more for {@code in}. Values
     * are typed by the field: {@link String} (a kind as its enum name), {@link Integer}, {@link Instant} or
     * {@link Boolean}.
     */
    record Condition(Field field, Op op, List<Object> values) implements FilterExpr {
        public Condition {
            Objects.requireNonNull(field, "field");
            Objects.requireNonNull(op, "op");
            values = List.copyOf(values);
            if (values.isEmpty() || op != Op.IN && values.size() != 1) {
                throw new IllegalArgumentException(op.label() + " takes "
                        + (op == Op.IN ? "at least one value" : "one value") + ", got " + values.size());
            }
            if (!field.allows(op)) {
                throw new IllegalArgumentException("operator " + op.label() + " does not apply to " + field.label());
            }
        }

        public Condition(Field field, Op op, Object value) {
            this(field, op, List.of(value));
        }

        public Object value() {
            return values.get(0);
        }
    }

    /** The type of a field's values, which decides the operators it takes. */
    enum Type {
        /** Exact text: {@code eq, in}. */
        TEXT(List.of(Op.EQ, Op.IN)),
        /** A list of texts (tags): {@code contains} (also as {@code eq}), {@code in} (contains any of). */
        TEXT_LIST(List.of(Op.EQ, Op.CONTAINS, Op.IN)),
        /** A whole number: every comparison and {@code in}. */
        INTEGER(List.of(Op.EQ, Op.GT, Op.GTE, Op.LT, Op.LTE, Op.IN)),
        /** A point in time (ISO-8601 date or date-time): comparisons. */
        TIME(List.of(Op.EQ, Op.GT, Op.GTE, Op.LT, Op.LTE)),
        /** true or false: {@code eq}. */
        BOOLEAN(List.of(Op.EQ));

        private final List<Op> ops;

        Type(List<Op> ops) {
            this.ops = ops;
        }

        public List<Op> ops() {
            return ops;
        }
    }

    /** The fields a filter may name, by their JSON names. */
    enum Field {
        CREATED_AT(Type.TIME),
        UPDATED_AT(Type.TIME),
        IMPORTANCE(Type.INTEGER),
        CATEGORY(Type.TEXT),
        TAGS(Type.TEXT_LIST),
        KIND(Type.TEXT),
        USER_ID(Type.TEXT),
        AGENT_ID(Type.TEXT),
        RUN_ID(Type.TEXT),
        ACTOR_ID(Type.TEXT),
        ROLE(Type.TEXT),
        THREAD_ID(Type.TEXT),
        PINNED(Type.BOOLEAN);

        private final Type type;

        Field(Type type) {
            this.type = type;
        }

        public Type type() {
            return type;
        }

        public boolean allows(Op op) {
            return type.ops.contains(op);
        }

        /** The JSON name: {@code created_at}, {@code tags}... */
        public String label() {
            return name().toLowerCase(Locale.ROOT);
        }

        /** The field named {@code label}, or null. */
        public static Field of(String label) {
            for (Field f : values()) {
                if (f.label().equals(label)) {
                    return f;
                }
            }
            return null;
        }
    }

    /** Comparison operators, by their JSON names. */
    enum Op {
        EQ,
        GT,
        GTE,
        LT,
        LTE,
        IN,
        CONTAINS;

        public String label() {
            return name().toLowerCase(Locale.ROOT);
        }

        /** The operator named {@code label}, or null. */
        public static Op of(String label) {
            for (Op op : values()) {
                if (op.label().equals(label)) {
                    return op;
                }
            }
            return null;
        }
    }
}
