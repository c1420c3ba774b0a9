package io.memorychain.api.backend;

import io.memorychain.embeddings.Embedder;
import io.memorychain.projector.view.MemoryViews;
import java.time.Clock;

/**
 * What a feature reads: the projection's views on this instance, the clock ranking is computed with, the query
 * embedder, and how the chain's texts are decrypted. A port of the running chain ({@link MemoryBackend}); a feature
 * asks for the narrowest it needs.
 */
public interface ChainReads {

    /** The embedding model of this instance (embeds queries; the embedder embeds memories with the same model). */
    Embedder embedder();

    /** The clock decay and recency are computed with (the sequencer's clock: event times come from it). */
    default Clock clock() {
        return Clock.systemUTC();
    }

    /** The projection's views on this instance. */
    MemoryViews views();

    /**
     * How this process decrypts the chain's memory texts (docs/architecture.md §12, erasure); readers of the events
     * topic that need text apply it. Plain by default (backends without encryption).
     */
    default io.memorychain.events.content.ChainContent content() {
        return io.memorychain.events.content.ChainContent.PLAINTEXT;
    }

    /** A memory's data key as the key topic holds it (live or destroyed); empty without encryption or record. */
    default java.util.Optional<io.memorychain.events.content.DataKey> dataKey(String space, String memoryId) {
        return java.util.Optional.empty();
    }
}
