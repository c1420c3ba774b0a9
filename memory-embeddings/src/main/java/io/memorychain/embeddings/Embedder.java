package io.memorychain.embeddings;

import java.util.List;

/**
 * Turns text into a dense vector for semantic search (the vector half of hybrid retrieval, docs/architecture.md §7).
 *
 * <p><b>Where it runs.</b> An embedding is computed once per memory version, on the write path, and travels with
 * the event that creates or updates the memory. Replaying the chain into fresh views therefore never recomputes
 * embeddings: a replay reads the vectors it was given, so it is fast and gives the same index whatever model a
 * node happens to run. {@link #modelId()} is recorded next to every vector; when a worker finds a vector whose
 * model id differs from its embedder's, it re-embeds that memory (vectors of different models are not comparable).
 *
 * <p><b>Vectors.</b> Every vector has {@link #dimensions()} components and unit L2 norm, so cosine similarity is a
 * plain dot product. A vector is a function of the model and the text only: the same text always gives the same
 * vector, whether it is embedded alone or inside {@link #embedAll(List)}.
 *
 * <p>Implementations document their thread-safety; {@link MiniLmEmbedder} is safe for concurrent use.
 */
public interface Embedder {

    /**
     * A stable identifier of everything that determines the vectors (model, weights version, pooling, truncation),
     * for example {@code all-MiniLM-L6-v2-q@1.20.0-beta30#mean-256}. Two embedders with equal ids produce the same
     * vectors for the same text; a different id means stored vectors must be recomputed.
     */
    String modelId();

    /** Number of components of every vector. */
    int dimensions();

    /**
     * Embeds one text. Any string is accepted: blank text gives the model's vector for an empty sequence, and text
     * longer than the model's input window is truncated (only its beginning is embedded).
     *
     * @param text the text; not null
     * @return a new unit-length vector of {@link #dimensions()} components
     */
    float[] embed(String text);

    /**
     * Embeds many texts, in batches. The result has one vector per text, in the same order, and each vector is
     * equal to what {@link #embed(String)} returns for that text.
     *
     * @param texts the texts; neither the list nor any element is null
     * @return an unmodifiable list of new unit-length vectors
     */
    List<float[]> embedAll(List<String> texts);
}
