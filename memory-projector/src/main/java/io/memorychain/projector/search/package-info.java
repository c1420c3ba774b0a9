/**
 * The per-task search index behind {@code memory.query} (docs/architecture.md §6, §7): Lucene 10 with BM25 text and
 * HNSW vectors, hybrid reciprocal rank fusion, and every restriction (space, lifecycle state, scope filters, ranges,
 * the agent's category allowlist) applied inside the search rather than after the top-k cut.
 *
 * <p>Analysis: the prose field uses Lucene's {@code EnglishAnalyzer} (memories and queries are English sentences
 * written by agents and people; stemming lets "deploying" match "deployment" and stop words keep long natural queries
 * from matching everything). Stemming and the standard tokenizer would split or mangle identifiers, so a second field
 * indexes code-like tokens ({@code INV-2024-117}, {@code v1.2.3}, {@code ops@acme.io}) whole: an exact identifier in a
 * query is a rare, high-scoring term there.
 *
 * <p>Entry point: {@link io.memorychain.projector.search.MemoryIndex}.
 */
package io.memorychain.projector.search;
