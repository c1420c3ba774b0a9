package io.memorychain.api.retrieval;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.memorychain.api.memories.MemoryJson;
import io.memorychain.api.request.Enums;
import io.memorychain.projector.retrieval.ContextResult;
import io.memorychain.projector.retrieval.QueryResult;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.serde.annotation.Serdeable;
import java.util.List;

/** Response shapes of /query and /context. */
public final class QueryJson {

    private QueryJson() {
    }

    @Serdeable
    public record Related(String id, String relation, double strength, String text) {
    }

    @Serdeable
    public record Item(String id, @Nullable String category, String text, double score, String decay, List<Related> related,
                @Nullable MemoryJson memory) {
    }

    @Serdeable
    public record Answer(String header, long revision, List<Item> items, int tokens, int omitted, String text) {
    }

    @Serdeable
    public record Context(String text, int tokens, long revision, @JsonProperty("core_truncated") boolean coreTruncated,
                   @JsonProperty("memory_ids") List<String> memoryIds, int omitted) {
    }

    static Answer of(QueryResult r) {
        return new Answer(r.header(), r.revision(), r.items().stream().map(QueryJson::item).toList(), r.tokens(),
                r.omitted(), r.render());
    }

    static Context of(ContextResult r) {
        return new Context(r.text(), r.tokens(), r.revision(), r.coreTruncated(), r.memoryIds(), r.omitted());
    }

    private static Item item(QueryResult.Item i) {
        return new Item(i.id(), i.category(), i.text(), Math.round(i.score() * 10_000) / 10_000.0, Enums.json(i.decay()),
                i.related().stream().map(r -> new Related(r.id(), r.relation(), r.strength(), r.text())).toList(),
                i.memory() == null ? null : MemoryJson.of(i.memory()));
    }
}
