package io.memorychain.console.memories;

import io.memorychain.api.auth.Operation;
import io.memorychain.api.history.AsOfReads;
import io.memorychain.api.memories.MemoryJson;
import io.memorychain.api.memories.MemoryPage;
import io.memorychain.api.retrieval.QueryJson;
import io.memorychain.console.web.Console;
import io.memorychain.console.web.Visit;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Get;
import io.micronaut.http.annotation.PathVariable;
import io.micronaut.http.annotation.QueryValue;
import io.micronaut.scheduling.TaskExecutors;
import io.micronaut.scheduling.annotation.ExecuteOn;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The Memories pages of a space: the search (memory.query with its filters, as {@code POST /query}) or, without a text,
 * the list (as {@code GET /memories}, by cursor), both one bounded page at a time; the memory page
 * ({@link MemoryDetails}); and the erasure's confirmation page. The changes are {@link MemoryActions}.
 */
@Controller("/console/s/{space}/memories")
@ExecuteOn(TaskExecutors.BLOCKING)
public class MemoriesController {

    /** The list's batch when the page filters what it reads (tier, decay stage, tags, dates). */
    static final int SCAN_BATCH = 100;
    /** Memories read at most for one list page. */
    static final int MAX_SCAN = 1_000;

    /** One row of the list or of the search's results (score null for the list). */
    public record Row(MemoryJson memory, Double score) {}

    /** The page: rows and the links to the pages around it (null: none). */
    public record Results(List<Row> rows, String next, String previous, String note) {}

    private final Console console;
    private final AsOfReads lists;
    private final MemoryDetails details;

    public MemoriesController(Console console, AsOfReads lists, MemoryDetails details) {
        this.console = console;
        this.lists = lists;
        this.details = details;
    }

    @Get
    @SuppressWarnings("java:S107") // one parameter per form field
    public HttpResponse<?> memories(
            HttpRequest<?> request,
            @PathVariable String space,
            @Nullable @QueryValue String q,
            @Nullable @QueryValue String category,
            @Nullable @QueryValue String kind,
            @Nullable @QueryValue String tier,
            @Nullable @QueryValue String state,
            @Nullable @QueryValue String decay,
            @Nullable @QueryValue String tags,
            @Nullable @QueryValue String from,
            @Nullable @QueryValue String to,
            @Nullable @QueryValue String after,
            @Nullable @QueryValue String back,
            @Nullable @QueryValue Integer page) {
        return console.page(request, space, visit -> {
            MemorySearch search = new MemorySearch(
                    q, category, kind, tier, state, decay, tags, from, to, after, back, page == null ? 0 : page);
            visit.authorize(search.text() ? Operation.QUERY : Operation.LIST_MEMORIES);
            Map<String, Object> params = new HashMap<>();
            params.put("search", search);
            params.put("results", search.text() ? search(visit, search) : list(visit, search));
            return console.render(visit, "memories", "Memories", "memories", params);
        });
    }

    @Get("/{id}")
    public HttpResponse<?> memory(
            HttpRequest<?> request,
            @PathVariable String space,
            @PathVariable String id,
            @Nullable @QueryValue Boolean verify) {
        return console.page(request, space, visit -> {
            MemoryDetails.Details d = details.of(visit, id, Boolean.TRUE.equals(verify));
            Map<String, Object> params = new HashMap<>();
            params.put("d", d);
            params.put("actions", MemoryActions.Allowed.of(visit, d.memory(), d.tombstone()));
            return console.render(visit, "memories", "Memory " + id, "memory", params);
        });
    }

    /** The erasure's confirmation: a reason and a required checkbox, then the POST. */
    @Get("/{id}/erase")
    public HttpResponse<?> confirmErase(HttpRequest<?> request, @PathVariable String space, @PathVariable String id) {
        return console.page(request, space, visit -> {
            visit.authorize(Operation.ERASE_MEMORY);
            return console.render(visit, "memories", "Erase memory " + id, "erase", Map.of("id", id));
        });
    }

    private Results search(Visit visit, MemorySearch search) {
        int wanted = (search.page() + 1) * MemorySearch.PAGE_SIZE;
        int topK = Math.min(MemorySearch.MAX_RESULTS, wanted);
        QueryJson.Answer answer = lists.query(visit.space(), visit.actor(), search.query(topK));
        List<Row> all = answer.items().stream()
                .filter(i -> i.memory() != null && search.keeps(i.memory()))
                .map(i -> new Row(i.memory(), i.score()))
                .toList();
        int start = search.page() * MemorySearch.PAGE_SIZE;
        List<Row> rows = start >= all.size()
                ? List.of()
                : all.subList(start, Math.min(all.size(), start + MemorySearch.PAGE_SIZE));
        boolean more = answer.items().size() >= topK && topK < MemorySearch.MAX_RESULTS;
        String next = more ? search.url(visit.space(), null, null, search.page() + 1) : null;
        String previous = search.page() > 0 ? search.url(visit.space(), null, null, search.page() - 1) : null;
        String note = search.state() != null && !List.of("active", "superseded").contains(search.state())
                ? "The search covers active and superseded memories; clear the text to " + "list "
                        + search.state().replace('_', '-') + " ones."
                : null;
        return new Results(rows, next, previous, note);
    }

    private Results list(Visit visit, MemorySearch search) {
        List<Row> rows = new ArrayList<>();
        String cursor = search.after();
        String next = null;
        int read = 0;
        int batch = search.listFilters() ? SCAN_BATCH : MemorySearch.PAGE_SIZE;
        while (true) {
            MemoryPage page = lists.list(
                    visit.space(),
                    visit.actor(),
                    search.kind(),
                    search.category(),
                    search.state(),
                    cursor,
                    batch,
                    null);
            String last = null;
            for (MemoryJson m : page.items()) {
                read++;
                if (rows.size() == MemorySearch.PAGE_SIZE) {
                    next = last; // more after the page's last row
                    break;
                }
                last = m.id();
                if (search.keeps(m)) {
                    rows.add(new Row(m, null));
                }
            }
            if (next != null || page.next() == null) {
                break;
            }
            cursor = page.next();
            if (rows.size() == MemorySearch.PAGE_SIZE || read >= MAX_SCAN) {
                next = cursor;
                break;
            }
        }
        String note = read >= MAX_SCAN && rows.size() < MemorySearch.PAGE_SIZE
                ? "Read " + read + " memories for " + "this page; the next page goes on from there."
                : null;
        return new Results(
                rows,
                next == null ? null : search.nextList(visit.space(), next),
                search.previousList(visit.space()),
                note);
    }
}
