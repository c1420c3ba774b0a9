package io.memorychain.embeddings;

import java.util.List;

/**
 * Turns text into a dense vector for semantic search (the vector half of hybrid retrieval, docs/architecture.md §7).
 *
 * <p><b>Where it runs.</b> An embedding is computed once per memory version, on the write path, and travels with the
 * event that creates or updates the memory. Replaying the chain into fresh views therefore never recomputes embeddings:
 * a replay reads the vectors it was given, so it is fast and gives the same index whatever model a node happens to run.
 * {@link #modelId()} is recorded next to every vector; configuring another model re-embeds every memory with it, and
 * only vectors of the configured model are ever compared (vectors of different models are not comparable;
 * docs/architecture.md §7).
 *
 * <p><b>Vectors.</b> Every vector has {@link #dimensions()} components and unit L2 norm, so cosine similarity is a
 * plain dot product. A vector is a function of the model and the text only: the same text always gives the same vector,
 * whether it is embedded alone or inside {@link #embedAll(List)}.
 *
 * <p><b>Queries and passages.</b> Some models are trained to embed a search query differently from the text it should
 * find (an instruction or a {@code "query: "} prefix before the query, a {@code "passage: "} prefix before the text).
 * {@link #embed(String)} and {@link #embedAll(List)} embed stored text (memory contents; also when one memory is
 * compared with another); {@link #embedQuery(String)} embeds what a caller searches with. For a model without the
 * distinction both give the same vector.
 *
 * <p>Implementations document their thread-safety; {@link OnnxSentenceEmbedder} is safe for concurrent use.
 */
public interface Embedder {

    /**
     * A stable identifier of everything that determines the vectors (model, weights version, pooling, truncation), for
     * example {@code all-MiniLM-L6-v2-q@1.20.0-beta30#mean-256}; it also names the query and passage prefixes when the
     * model has them. Two embedders with equal ids produce the same vectors for the same text; a different id means
     * stored vectors must be recomputed.
     */
    String modelId();

    /** Number of components of every vector. */
    int dimensions();

    /**
     * Embeds one stored text (a passage: a memory's content). Any string is accepted: blank text gives the model's
     * vector for an empty sequence, and text longer than the model's input window is truncated (only its beginning is
     * embedded).
     *
     * @param text the text; not null
     * @return a new unit-length vector of {@link #dimensions()} components
     */
    float[] embed(String text);

    /**
     * Embeds a search query, with the model's query form, to be compared with vectors from {@link #embed(String)}.
     * Accepts any string, as {@link #embed(String)} does.
     *
     * @param text the query; not null
     * @return a new unit-length vector of {@link #dimensions()} components
     */
    float[] embedQuery(String text);

    /**
     * Embeds many stored texts (passages), in batches. The result has one vector per text, in the same order, and each
     * vector is equal to what {@link #embed(String)} returns for that text.
     *
     * @param texts the texts; neither the list nor any element is null
     * @return an unmodifiable list of new unit-length vectors
     */
    List<float[]> embedAll(List<String> texts);
}
