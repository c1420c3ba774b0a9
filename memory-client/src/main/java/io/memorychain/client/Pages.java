package io.memorychain.client;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.function.Function;

/**
 * Iterators over the API's pages: each page is fetched when the previous one is used up, following its cursor.
 * {@code for (JsonNode m : Pages.memories(client, "assistant", Map.of("kind", "episodic"))) ...}
 */
public final class Pages implements Iterable<JsonNode> {

    private final Function<Map<String, ?>, JsonNode> fetch;
    private final Map<String, ?> query;
    private final String nextField;
    private final String cursorParam;

    Pages(Function<Map<String, ?>, JsonNode> fetch, Map<String, ?> query, String nextField, String cursorParam) {
        this.fetch = fetch;
        this.query = query == null ? Map.of() : Map.copyOf(query);
        this.nextField = nextField;
        this.cursorParam = cursorParam;
    }

    /** Every memory {@code listMemories} answers for the query (kind, category, state, limit as page size, as_of). */
    public static Pages memories(MemoryChainClient client, String space, Map<String, ?> query) {
        return new Pages(q -> client.listMemories(space, q), query, "next", "after");
    }

    /** Every audit entry {@code listAudit} answers for the query (after_seq, memory_id, actor, type, since, until). */
    public static Pages audit(MemoryChainClient client, String space, Map<String, ?> query) {
        return new Pages(q -> client.listAudit(space, q), query, "next_after_seq", "after_seq");
    }

    @Override
    public Iterator<JsonNode> iterator() {
        return new Iterator<>() {
            private final Deque<JsonNode> buffer = new ArrayDeque<>();
            private String cursor = query.containsKey(cursorParam) ? String.valueOf(query.get(cursorParam)) : null;
            private boolean last;

            @Override
            public boolean hasNext() {
                while (buffer.isEmpty() && !last) {
                    Map<String, Object> q = new HashMap<>(query);
                    if (cursor != null) {
                        q.put(cursorParam, cursor);
                    }
                    JsonNode page = fetch.apply(q);
                    page.path("items").forEach(buffer::add);
                    JsonNode next = page.path(nextField);
                    cursor = next.isMissingNode()
                                    || next.isNull()
                                    || next.asText().isEmpty()
                            ? null
                            : next.asText();
                    last = cursor == null;
                }
                return !buffer.isEmpty();
            }

            @Override
            public JsonNode next() {
                if (!hasNext()) {
                    throw new NoSuchElementException();
                }
                return buffer.poll();
            }
        };
    }
}
