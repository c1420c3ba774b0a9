package io.memorychain.projector.retrieval.eval;

import java.util.List;

/** Anything that answers a labelled query with memory keys (= ids), best first. */
@FunctionalInterface
public interface Retriever {

    /**
     * @param query the query: space, text, filters and categories to honour
     * @param topK how many keys at most
     * @return at most {@code topK} distinct keys, best first
     */
    List<String> retrieve(LabelledQuery query, int topK);
}
