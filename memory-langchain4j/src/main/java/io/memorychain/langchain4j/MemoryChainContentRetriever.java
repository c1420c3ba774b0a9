package io.memorychain.langchain4j;

import com.fasterxml.jackson.databind.JsonNode;
import dev.langchain4j.rag.content.Content;
import dev.langchain4j.rag.content.retriever.ContentRetriever;
import dev.langchain4j.rag.query.Query;
import io.memorychain.client.MemoryChainClient;
import io.memorychain.client.Write;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A {@link ContentRetriever} over the space's {@code memory.query}: hybrid search with metadata filters, within a token
 * budget, optionally as the memory stood at a point in time. Each memory found is one {@link Content} (its text as the
 * query answers it).
 */
public final class MemoryChainContentRetriever implements ContentRetriever {

    private final MemoryChainClient client;
    private final String space;
    private final Map<String, Object> options;

    private MemoryChainContentRetriever(MemoryChainClient client, String space, Map<String, Object> options) {
        this.client = client;
        this.space = space;
        this.options = Map.copyOf(options);
    }

    public static Builder builder(MemoryChainClient client, String space) {
        return new Builder(client, space);
    }

    /** Builds a {@link MemoryChainContentRetriever}; unset options take the service's defaults. */
    public static final class Builder {
        private final MemoryChainClient client;
        private final String space;
        private final Map<String, Object> options = new HashMap<>();

        private Builder(MemoryChainClient client, String space) {
            this.client = client;
            this.space = space;
        }

        /** Metadata filters (the API's {@code filters}), e.g. {@code Map.of("importance", Map.of("gte", 4))}. */
        public Builder filters(Map<String, ?> filters) {
            options.put("filters", filters);
            return this;
        }

        /** At most this many tokens of memories. */
        public Builder budgetTokens(int tokens) {
            options.put("budget_tokens", tokens);
            return this;
        }

        public Builder topK(int k) {
            options.put("top_k", k);
            return this;
        }

        /** The memories as they stood at this time (ISO-8601). */
        public Builder asOf(String isoTime) {
            options.put("as_of", isoTime);
            return this;
        }

        public MemoryChainContentRetriever build() {
            return new MemoryChainContentRetriever(client, space, options);
        }
    }

    @Override
    public List<Content> retrieve(Query query) {
        Map<String, Object> body = new HashMap<>(options);
        body.put("query", query.text());
        JsonNode answer = client.query(space, body, Write.DEFAULT);
        List<Content> contents = new ArrayList<>();
        for (JsonNode item : answer.path("items")) {
            String text =
                    item.path("text").asText(item.path("memory").path("content").asText(""));
            if (!text.isBlank()) {
                contents.add(Content.from(text));
            }
        }
        return contents;
    }
}
