/**
 * The labelled retrieval set and its evaluation, for any retriever.
 *
 * <ul>
 *   <li>{@link io.memorychain.projector.retrieval.eval.RetrievalSet#load()} reads and validates
 *       {@code src/test/resources/retrieval/retrieval-set.json}: hand-written memories of four spaces, consolidations,
 *       relation links and labelled queries (see the file's own description for the conventions).
 *   <li>Implement {@link io.memorychain.projector.retrieval.eval.Retriever} (query in, keys out; keys are the memory
 *       ids) and call {@link io.memorychain.projector.retrieval.eval.RetrievalEvaluation#run}: the report gives
 *       recall@5, MRR@10 and must-not violations overall, per query type and per space;
 *       {@link io.memorychain.projector.retrieval.eval.ReportTable} prints reports side by side.
 *   <li>{@link io.memorychain.projector.retrieval.eval.AvroMemories} turns the set into the {@code Memory} records a
 *       projection would hold (superseded inputs included), and
 *       {@link io.memorychain.projector.retrieval.eval.IndexedRetrievalSet} loads them, embedded, into a
 *       {@code MemoryIndex} and exposes the raw index as a retriever (the baseline of {@code RawIndexRetrievalTest}).
 *       Relation traversal can use {@link io.memorychain.projector.retrieval.eval.RetrievalSet#links()} and
 *       {@code within(key, hops)}.
 *   <li>Public data: {@link io.memorychain.projector.retrieval.eval.Locomo} reads LoCoMo conversations (only the
 *       allowlisted ones, by exact entry name) from the release zip named by {@code -Dlocomo.zip} or
 *       {@code LOCOMO_ZIP}; {@link io.memorychain.projector.retrieval.eval.LocomoSplit} writes them through the chain
 *       and offers BM25, vector, naive RRF and {@code memory.query} as retrievers;
 *       {@link io.memorychain.projector.retrieval.eval.LocomoEvaluation} scores evidence turns (hit@5, hit@10,
 *       recall@10, MRR) per category. {@code LocomoRetrievalTest} holds the floors; {@code LocomoFusionGrid},
 *       {@code LabelledFusionGrid} and {@code LocomoModelComparison} are run by name only.
 * </ul>
 */
package io.memorychain.projector.retrieval.eval;
