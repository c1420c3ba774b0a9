package io.memorychain.api.messages;

import io.memorychain.api.memories.Memories;
import io.memorychain.api.retrieval.QueryBody;
import io.memorychain.api.retrieval.QueryJson;
import io.memorychain.api.retrieval.Retrieval;
import io.memorychain.api.write.WriteContext;
import io.memorychain.api.write.WriteResult;
import io.memorychain.avro.Actor;
import jakarta.inject.Singleton;

/**
 * The two steps of forgetting (seed 001 §8.3), shared by the message endpoint's forget and the MCP tool
 * {@code memory_forget}: find the matches with memory.query (the caller's category allowlist applies), then soft-delete
 * confirmed ones through the normal delete path (audited on the chain, restorable). There is no hard delete.
 */
@Singleton
public class Forgetting {

    public static final String HARD_DELETE = "not available: forgotten memories are soft-deleted (restorable, kept on "
            + "the chain); erasure is a governance operation";

    private final Retrieval retrieval;
    private final Memories memories;

    public Forgetting(Retrieval retrieval, Memories memories) {
        this.retrieval = retrieval;
        this.memories = memories;
    }

    /** The best {@code topK} active memories for {@code query} the caller may read, with their full memory. */
    public QueryJson.Answer matches(String space, Actor caller, String query, int topK) {
        return retrieval.query(
                space,
                caller,
                new QueryBody(
                        null, query, null, null, topK, "full", null, null, null, null, null, null, null, null, null));
    }

    /** Soft-deletes one memory, as the caller, with the reason on the chain. */
    public WriteResult forget(WriteContext ctx, String id, String reason) {
        return memories.delete(ctx, id, reason);
    }
}
