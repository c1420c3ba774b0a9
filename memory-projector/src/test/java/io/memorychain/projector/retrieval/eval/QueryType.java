package io.memorychain.projector.retrieval.eval;

import java.util.Locale;

/** What a labelled query exercises; written in lower case in the set's JSON. */
public enum QueryType {
    /** Same meaning as the target, (almost) no shared content words: vectors should find it, keywords not. */
    PARAPHRASE,
    /** Names, codes, identifiers and version numbers, with near-identical distractors. */
    EXACT,
    /** A time window (as filters in days ago) or "latest" wording. */
    TEMPORAL,
    /** Answerable only by following one or two relation links from an entity the query names. */
    MULTIHOP,
    /** Scope, pinned or importance filters select among otherwise similar memories. */
    FILTERED,
    /** The answer is a consolidated memory; its superseded inputs must not come back. */
    SUPERSEDED,
    /** A category allowlist restricts the result. */
    CATEGORY;

    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }
}
