package io.memorychain.console.memories;

import io.memorychain.api.error.ApiException;
import io.memorychain.api.memories.MemoryJson;
import io.memorychain.api.request.Enums;
import io.memorychain.api.retrieval.QueryBody;
import io.memorychain.avro.DecayStatus;
import io.memorychain.avro.MemoryKind;
import io.memorychain.avro.MemoryState;
import io.memorychain.avro.Tier;
import io.memorychain.console.web.Links;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The Memories page's GET form, so that a search is a bookmarkable URL: a text (then memory.query with its filters) or
 * none (then the space's list, paged by cursor), and the filters. Blank fields are no filter.
 *
 * @param after the list's cursor (the last id of the previous page)
 * @param back the cursors of the pages before this one, comma-separated (the "previous" links), at most
 *     {@link #MAX_BACK}
 * @param page the search's page, from 0
 */
public record MemorySearch(
        String q,
        String category,
        String kind,
        String tier,
        String state,
        String decay,
        String tags,
        String from,
        String to,
        String after,
        String back,
        int page) {

    /** Memories per page. */
    public static final int PAGE_SIZE = 20;
    /** Cursors kept for "previous" links. */
    static final int MAX_BACK = 50;
    /** The search asks memory.query for at most this many (its own bound): pages past it are not offered. */
    static final int MAX_RESULTS = 100;

    public static final List<String> KINDS = options(MemoryKind.class);
    public static final List<String> TIERS = options(Tier.class);
    public static final List<String> STATES = options(MemoryState.class);
    public static final List<String> DECAYS = options(DecayStatus.class);

    public MemorySearch {
        q = blankToNull(q);
        category = blankToNull(category);
        kind = json(MemoryKind.class, "kind", kind);
        tier = json(Tier.class, "tier", tier);
        state = json(MemoryState.class, "state", state);
        decay = json(DecayStatus.class, "decay stage", decay);
        tags = blankToNull(tags);
        from = blankToNull(from);
        to = blankToNull(to);
        after = blankToNull(after);
        back = blankToNull(back);
        if (page < 0 || page * PAGE_SIZE >= MAX_RESULTS) {
            throw ApiException.invalid("page must be between 0 and " + (MAX_RESULTS / PAGE_SIZE - 1));
        }
        date("from", from);
        date("to", to);
    }

    /** Whether there is a text to search for (else: the list). */
    public boolean text() {
        return q != null;
    }

    public List<String> tagList() {
        return tags == null
                ? List.of()
                : Arrays.stream(tags.split(","))
                        .map(String::strip)
                        .filter(t -> !t.isEmpty())
                        .toList();
    }

    /** Whether any filter the list route does not take itself is set (the page then filters what it reads). */
    boolean listFilters() {
        return tier != null || decay != null || tags != null || from != null || to != null;
    }

    /**
     * The memory.query body: the text, category, kind, tags (each must be there) and creation dates as its filters;
     * superseded or dormant memories included when the state or decay stage asks for them; each result with its memory
     * ({@code return: full}).
     */
    QueryBody query(int topK) {
        Map<String, Object> filters = new LinkedHashMap<>();
        if (category != null) {
            filters.put("category", category);
        }
        if (kind != null) {
            filters.put("kind", kind);
        }
        List<String> tagList = tagList();
        if (tagList.size() == 1) {
            filters.put("tags", tagList.get(0));
        } else if (tagList.size() > 1) {
            filters.put(
                    "AND", tagList.stream().map(t -> (Object) Map.of("tags", t)).toList());
        }
        Map<String, Object> created = new LinkedHashMap<>();
        if (from != null) {
            created.put("gte", from);
        }
        if (to != null) {
            created.put("lt", date("to", to).plusDays(1).toString());
        }
        if (!created.isEmpty()) {
            filters.put("created_at", created);
        }
        return new QueryBody(
                null,
                q,
                null,
                filters.isEmpty() ? null : filters,
                topK,
                "full",
                null,
                null,
                "superseded".equals(state) ? Boolean.TRUE : null,
                "dormant".equals(decay) ? Boolean.TRUE : null,
                null,
                null,
                null,
                null,
                null);
    }

    /**
     * Whether a memory the service answered passes the filters the service did not apply: for a search its tier, state
     * (active unless asked) and decay stage; for the list its tier, decay stage, tags and creation dates.
     */
    boolean keeps(MemoryJson m) {
        if (tier != null && !tier.equals(m.tier()) || decay != null && !decay.equals(m.decayStatus())) {
            return false;
        }
        if (text()) {
            return state == null ? "active".equals(m.state()) : state.equals(m.state());
        }
        if (!m.tags().containsAll(tagList())) {
            return false;
        }
        Instant created = Instant.parse(m.createdAt());
        return (from == null || !created.isBefore(start(date("from", from))))
                && (to == null || created.isBefore(start(date("to", to).plusDays(1))));
    }

    /** This search's URL with another cursor and page (null: none). */
    public String url(String space, String withAfter, String withBack, Integer withPage) {
        Map<String, String> params = new LinkedHashMap<>();
        params.put("q", q);
        params.put("category", category);
        params.put("kind", kind);
        params.put("tier", tier);
        params.put("state", state);
        params.put("decay", decay);
        params.put("tags", tags);
        params.put("from", from);
        params.put("to", to);
        params.put("after", withAfter);
        params.put("back", withBack);
        params.put("page", withPage == null || withPage == 0 ? null : String.valueOf(withPage));
        return Links.withQuery("/console/s/" + space + "/memories", params);
    }

    /** The list's next page: after {@code next}, with this page's cursor kept for "previous". */
    public String nextList(String space, String next) {
        List<String> cursors = new ArrayList<>(backList());
        cursors.add(after == null ? "" : after);
        while (cursors.size() > MAX_BACK) {
            cursors.remove(0);
        }
        return url(space, next, String.join(",", cursors), null);
    }

    /** The list's previous page, or null on the first. */
    public String previousList(String space) {
        if (after == null) {
            return null;
        }
        List<String> cursors = new ArrayList<>(backList());
        String previous = cursors.isEmpty() ? null : cursors.remove(cursors.size() - 1);
        return url(
                space,
                previous == null || previous.isEmpty() ? null : previous,
                cursors.isEmpty() ? null : String.join(",", cursors),
                null);
    }

    private List<String> backList() {
        return back == null ? List.of() : Arrays.asList(back.split(",", -1));
    }

    private static Instant start(LocalDate day) {
        return day.atStartOfDay().toInstant(ZoneOffset.UTC);
    }

    private static LocalDate date(String field, String value) {
        if (value == null) {
            return null;
        }
        try {
            return LocalDate.parse(value);
        } catch (DateTimeParseException e) {
            throw ApiException.invalid(field + " must be a date (YYYY-MM-DD), was '" + value + "'");
        }
    }

    private static <E extends Enum<E>> String json(Class<E> type, String field, String value) {
        return Enums.json(Enums.parse(type, field, blankToNull(value)));
    }

    private static <E extends Enum<E>> List<String> options(Class<E> type) {
        return Arrays.stream(type.getEnumConstants()).map(Enums::json).toList();
    }

    private static String blankToNull(String s) {
        return s == null || s.isBlank() ? null : s.strip();
    }
}
