package io.memorychain.projector.search;

import io.memorychain.avro.MemoryKind;
import io.memorychain.projector.search.FilterExpr.Condition;
import io.memorychain.projector.search.FilterExpr.Field;
import io.memorychain.projector.search.FilterExpr.Op;
import io.memorychain.projector.search.InvalidFilterException.Reason;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Reads the {@code filters} object of {@code memory.query} (docs/architecture.md §7) from its JSON tree (maps, lists,
 * strings, numbers, booleans: what a JSON library, a protobuf {@code Struct} or an MCP tool call gives), the same way
 * for every transport.
 *
 * <p>An object is the AND of its entries. An entry is
 *
 * <ul>
 *   <li>{@code "AND": [obj, ...]}, {@code "OR": [obj, ...]} or {@code "NOT": obj}, nested at most {@value #MAX_DEPTH}
 *       deep;
 *   <li>a field ({@link Field}: created_at, updated_at, importance, category, tags, kind, user_id, agent_id, run_id,
 *       actor_id, role, thread_id, pinned) with a plain value (equality; for tags: contains) or an object of operators
 *       {@code {"gte": 4, "lt": 9}} (all must hold): {@code eq, gt, gte, lt, lte, in, contains} as the field's
 *       {@linkplain FilterExpr.Type type} allows;
 *   <li>a legacy range name: {@code importance_min} (gte), {@code importance_max} (lte), {@code updated_after} (gte),
 *       {@code updated_before} (lt).
 * </ul>
 *
 * The flat forms of earlier versions keep their meaning: at the top level they fill the plain {@link SearchFilters}
 * fields (with their checks), and a top-level null is no constraint; anything else becomes
 * {@link SearchFilters#where()}. Dates are ISO-8601 dates (midnight UTC) or date-times. Every refusal is an
 * {@link InvalidFilterException} naming the path of the offending part.
 */
public final class FilterParser {

    /** Deepest nesting of AND / OR / NOT. */
    public static final int MAX_DEPTH = 5;
    /** Most values of one {@code in}. */
    public static final int MAX_IN_VALUES = 100;

    static final String AND = "AND";
    static final String OR = "OR";
    static final String NOT = "NOT";
    private static final Set<String> LEGACY_RANGES =
            Set.of("importance_min", "importance_max", "updated_after", "updated_before");

    private FilterParser() {}

    /**
     * The filters of {@code tree} (null: none), read from the root path {@code root} (e.g. {@code filters}).
     *
     * @throws InvalidFilterException when any part is refused
     */
    public static SearchFilters parse(Object tree, String root) {
        if (tree == null) {
            return SearchFilters.NONE;
        }
        Map<?, ?> object = object(tree, root);
        SearchFilters.Builder legacy = SearchFilters.builder();
        List<FilterExpr> rest = new ArrayList<>();
        for (Map.Entry<?, ?> e : object.entrySet()) {
            String key = String.valueOf(e.getKey());
            String path = root + "." + key;
            if (e.getValue() == null) {
                continue; // as in earlier versions: a top-level null is no constraint
            }
            if (!flat(legacy, key, e.getValue(), path)) {
                rest.add(entry(key, e.getValue(), path, 0));
            }
        }
        SearchFilters built;
        try {
            built = legacy.where(rest.isEmpty() ? null : rest.size() == 1 ? rest.get(0) : new FilterExpr.And(rest))
                    .build();
        } catch (InvalidFilterException e) {
            throw e;
        } catch (IllegalArgumentException e) {
            throw new InvalidFilterException(Reason.INVALID_VALUE, root, e.getMessage());
        }
        return built;
    }

    /** A top-level entry in a form of earlier versions, put into its plain field; false when it is not one. */
    private static boolean flat(SearchFilters.Builder b, String key, Object value, String path) {
        if (value == null || value instanceof Map || value instanceof List) {
            return false;
        }
        switch (key) {
            case "user_id" -> b.userId(text(value, path));
            case "agent_id" -> b.agentId(text(value, path));
            case "run_id" -> b.runId(text(value, path));
            case "actor_id" -> b.actorId(text(value, path));
            case "role" -> b.role(text(value, path));
            case "category" -> b.category(text(value, path));
            case "pinned" -> b.pinned(bool(value, path));
            case "importance_min" -> b.importanceMin(integer(value, path));
            case "importance_max" -> b.importanceMax(integer(value, path));
            case "updated_after" -> b.updatedAfter(time(value, path));
            case "updated_before" -> b.updatedBefore(time(value, path));
            default -> {
                return false;
            }
        }
        return true;
    }

    /** One entry of an object at nesting {@code depth}. */
    private static FilterExpr entry(String key, Object value, String path, int depth) {
        switch (key) {
            case AND, OR -> {
                checkDepth(path, depth);
                if (!(value instanceof List<?> list) || list.isEmpty()) {
                    throw new InvalidFilterException(
                            Reason.INVALID_VALUE, path, key + " takes a non-empty list of filter objects");
                }
                List<FilterExpr> parts = new ArrayList<>(list.size());
                for (int i = 0; i < list.size(); i++) {
                    parts.add(group(list.get(i), path + "[" + i + "]", depth + 1));
                }
                return parts.size() == 1
                        ? parts.get(0)
                        : AND.equals(key) ? new FilterExpr.And(parts) : new FilterExpr.Or(parts);
            }
            case NOT -> {
                checkDepth(path, depth);
                return new FilterExpr.Not(group(value, path, depth + 1));
            }
            default -> {
                return field(key, value, path);
            }
        }
    }

    private static void checkDepth(String path, int depth) {
        if (depth >= MAX_DEPTH) {
            throw new InvalidFilterException(
                    Reason.TOO_DEEP, path, "AND / OR / NOT nested deeper than " + MAX_DEPTH + " levels");
        }
    }

    /** An object inside AND / OR / NOT: the AND of its entries. */
    private static FilterExpr group(Object value, String path, int depth) {
        Map<?, ?> object = object(value, path);
        if (object.isEmpty()) {
            throw new InvalidFilterException(Reason.INVALID_VALUE, path, "an empty filter object");
        }
        List<FilterExpr> parts = new ArrayList<>(object.size());
        for (Map.Entry<?, ?> e : object.entrySet()) {
            String key = String.valueOf(e.getKey());
            parts.add(entry(key, e.getValue(), path + "." + key, depth));
        }
        return parts.size() == 1 ? parts.get(0) : new FilterExpr.And(parts);
    }

    /** {@code field: value} or {@code field: {op: value, ...}}, or a legacy range name. */
    private static FilterExpr field(String key, Object value, String path) {
        if (LEGACY_RANGES.contains(key)) {
            Field field = key.startsWith("importance") ? Field.IMPORTANCE : Field.UPDATED_AT;
            Op op = switch (key) {
                case "importance_min", "updated_after" -> Op.GTE;
                case "importance_max" -> Op.LTE;
                default -> Op.LT;
            };
            return new Condition(field, op, value(field, value, path));
        }
        Field field = Field.of(key);
        if (field == null) {
            throw new InvalidFilterException(
                    Reason.UNKNOWN_FIELD,
                    path,
                    "unknown field '" + key + "'; expected "
                            + Arrays.stream(Field.values()).map(Field::label).collect(Collectors.joining(", "))
                            + " or AND, OR, NOT");
        }
        if (!(value instanceof Map<?, ?> ops)) {
            if (value instanceof List) {
                throw new InvalidFilterException(
                        Reason.INVALID_VALUE, path, "a list needs an operator: {\"in\": [...]}");
            }
            return new Condition(
                    field, field.type() == FilterExpr.Type.TEXT_LIST ? Op.CONTAINS : Op.EQ, value(field, value, path));
        }
        if (ops.isEmpty()) {
            throw new InvalidFilterException(Reason.INVALID_VALUE, path, "an empty operator object");
        }
        List<FilterExpr> conditions = new ArrayList<>(ops.size());
        for (Map.Entry<?, ?> e : ops.entrySet()) {
            String name = String.valueOf(e.getKey());
            String opPath = path + "." + name;
            Op op = Op.of(name);
            if (op == null || !field.allows(op)) {
                throw new InvalidFilterException(
                        Reason.UNKNOWN_OPERATOR,
                        opPath,
                        (op == null ? "unknown operator '" : "operator '") + name
                                + (op == null ? "'" : "' does not apply to " + field.label())
                                + "; " + field.label() + " takes "
                                + field.type().ops().stream().map(Op::label).collect(Collectors.joining(", ")));
            }
            if (op == Op.IN) {
                if (!(e.getValue() instanceof List<?> list) || list.isEmpty() || list.size() > MAX_IN_VALUES) {
                    throw new InvalidFilterException(
                            Reason.INVALID_VALUE, opPath, "in takes a list of 1 to " + MAX_IN_VALUES + " values");
                }
                List<Object> values = new ArrayList<>(list.size());
                for (int i = 0; i < list.size(); i++) {
                    values.add(value(field, list.get(i), opPath + "[" + i + "]"));
                }
                conditions.add(new Condition(field, op, values));
            } else {
                conditions.add(new Condition(field, op, value(field, e.getValue(), opPath)));
            }
        }
        return conditions.size() == 1 ? conditions.get(0) : new FilterExpr.And(conditions);
    }

    /** A value of the field's type. */
    private static Object value(Field field, Object value, String path) {
        return switch (field.type()) {
            case TEXT -> field == Field.KIND ? kind(value, path) : text(value, path);
            case TEXT_LIST -> text(value, path);
            case INTEGER -> integer(value, path);
            case TIME -> time(value, path);
            case BOOLEAN -> bool(value, path);
        };
    }

    private static Map<?, ?> object(Object value, String path) {
        if (value instanceof Map<?, ?> map) {
            return map;
        }
        throw new InvalidFilterException(Reason.INVALID_VALUE, path, "expected a JSON object, got " + describe(value));
    }

    private static String text(Object value, String path) {
        if (value instanceof String s) {
            return s;
        }
        throw new InvalidFilterException(Reason.INVALID_VALUE, path, "expected a string, got " + describe(value));
    }

    private static String kind(Object value, String path) {
        String s = text(value, path);
        try {
            return MemoryKind.valueOf(s.toUpperCase(Locale.ROOT)).name();
        } catch (IllegalArgumentException e) {
            throw new InvalidFilterException(
                    Reason.INVALID_VALUE,
                    path,
                    "unknown kind '" + s + "'; expected one of "
                            + Arrays.stream(MemoryKind.values())
                                    .map(k -> k.name().toLowerCase(Locale.ROOT))
                                    .collect(Collectors.joining(", ")));
        }
    }

    private static Integer integer(Object value, String path) {
        if (value instanceof Integer i) {
            return i;
        }
        if (value instanceof Number n) {
            try {
                BigDecimal exact = n instanceof BigDecimal d
                        ? d
                        : n instanceof BigInteger b ? new BigDecimal(b) : new BigDecimal(n.toString());
                return exact.intValueExact();
            } catch (ArithmeticException | NumberFormatException e) {
                // not a whole number in int range
            }
        }
        throw new InvalidFilterException(Reason.INVALID_VALUE, path, "expected a whole number, got " + describe(value));
    }

    private static Boolean bool(Object value, String path) {
        if (value instanceof Boolean b) {
            return b;
        }
        throw new InvalidFilterException(Reason.INVALID_VALUE, path, "expected true or false, got " + describe(value));
    }

    /** An ISO-8601 date (midnight UTC) or date-time with an offset. */
    private static Instant time(Object value, String path) {
        String s = text(value, path);
        try {
            return LocalDate.parse(s).atStartOfDay(ZoneOffset.UTC).toInstant();
        } catch (DateTimeException notADate) {
            try {
                return OffsetDateTime.parse(s).toInstant();
            } catch (DateTimeException e) {
                throw new InvalidFilterException(
                        Reason.INVALID_VALUE,
                        path,
                        "expected an ISO-8601 date or date-time such as 2025-07-01 or 2025-07-01T09:30:00Z, got '" + s
                                + "'");
            }
        }
    }

    private static String describe(Object value) {
        if (value == null) {
            return "null";
        }
        if (value instanceof String s) {
            return "the string '" + s + "'";
        }
        if (value instanceof Map) {
            return "an object";
        }
        if (value instanceof List) {
            return "a list";
        }
        return value.getClass().getSimpleName().toLowerCase(Locale.ROOT) + " " + value;
    }
}
