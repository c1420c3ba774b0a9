package io.memorychain.console.history;

import io.memorychain.api.audit.AuditQuery;
import io.memorychain.api.error.ApiException;
import io.memorychain.console.web.Links;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The audit page's filter form as the browser sends it (a GET form, so a filtered timeline is a bookmarkable address):
 * actor, event types, memory id, block label, a range of UTC days and the page size. It becomes the {@link AuditQuery}
 * REST's {@code /audit} builds from the same fields; the days are the form's only translation (from the first day's
 * start to the end of the last day).
 */
public record AuditFilters(String actor, String type, String memory, String label, String from, String to, int limit) {

    /** Page sizes the form offers (an address may ask for any size from 1 to {@link #MAX_LIMIT}). */
    public static final List<Integer> LIMITS = List.of(25, 50, 100);

    public static final int DEFAULT_LIMIT = 50;
    public static final int MAX_LIMIT = 100;

    public static AuditFilters of(
            String actor, String type, String memory, String label, String from, String to, Integer limit) {
        return new AuditFilters(
                clean(actor),
                clean(type),
                clean(memory),
                clean(label),
                clean(from),
                clean(to),
                limit != null && limit >= 1 && limit <= MAX_LIMIT ? limit : DEFAULT_LIMIT);
    }

    /** The query these filters ask; 400 INVALID_ARGUMENT for a day that is not YYYY-MM-DD or a range ending first. */
    public AuditQuery query() {
        String since = from == null
                ? null
                : day("from", from).atStartOfDay(ZoneOffset.UTC).toInstant().toString();
        String until = to == null
                ? null
                : day("to", to)
                        .plusDays(1)
                        .atStartOfDay(ZoneOffset.UTC)
                        .toInstant()
                        .toString();
        return AuditQuery.of(memory, actor, type, label, since, until, "desc");
    }

    /** The page sizes to offer: the usual ones and this page's own. */
    public List<Integer> limits() {
        return LIMITS.contains(limit)
                ? LIMITS
                : java.util.stream.Stream.concat(LIMITS.stream(), java.util.stream.Stream.of(limit))
                        .sorted()
                        .toList();
    }

    /** Whether any filter is set. */
    public boolean any() {
        return actor != null || type != null || memory != null || label != null || from != null || to != null;
    }

    /** The page's address with these filters and, when given, a cursor ({@code before}: older than that seq). */
    public String href(String base, Long before) {
        Map<String, String> params = new LinkedHashMap<>();
        params.put("actor", actor);
        params.put("type", type);
        params.put("memory", memory);
        params.put("label", label);
        params.put("from", from);
        params.put("to", to);
        params.put("limit", limit == DEFAULT_LIMIT ? null : Integer.toString(limit));
        params.put("before", before == null ? null : before.toString());
        return Links.withQuery(base, params);
    }

    private static LocalDate day(String field, String value) {
        try {
            return LocalDate.parse(value);
        } catch (DateTimeParseException e) {
            throw ApiException.invalid(field + " must be a day such as 2026-11-28, was '" + value + "'");
        }
    }

    private static String clean(String value) {
        return value == null || value.isBlank() ? null : value.strip();
    }
}
