package io.memorychain.projector.retrieval;

import io.memorychain.avro.Memory;
import io.memorychain.avro.MemoryEmbedding;
import io.memorychain.avro.view.Relation;
import io.memorychain.projector.view.MemoryViews;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** The views one query reads, each memory and edge list read once per query. */
final class QueryReads {
    private final MemoryViews views;
    private final String space;
    private final Map<String, Optional<Memory>> memories = new HashMap<>();
    private final Map<String, List<Relation>> relations = new HashMap<>();
    /** Cosine similarity to the query of the search's candidates (absent: no embedding of their content). */
    final Map<String, Double> cosines = new HashMap<>();

    QueryReads(MemoryViews views, String space) {
        this.views = views;
        this.space = space;
    }

    Optional<Memory> memory(String id) {
        return memories.computeIfAbsent(id, x -> views.memory(space, x));
    }

    List<Relation> relations(String id) {
        return relations.computeIfAbsent(id, x -> views.relations(space, x));
    }

    Optional<MemoryEmbedding> embedding(String id) {
        return views.embedding(space, id);
    }

    /**
     * A memory's cosine to the query: the one known (the search's, or one read before), else its stored embedding's,
     * remembered; null when it has none of its current content.
     */
    Double cosine(String id, float[] vector) {
        Double known = cosines.get(id);
        if (known == null) {
            known = storedCosine(id, vector);
            if (known != null) {
                cosines.put(id, known);
            }
        }
        return known;
    }

    /** The cosine of a memory's stored embedding to the query, if it is of its current content (null otherwise). */
    private Double storedCosine(String id, float[] vector) {
        if (vector == null) {
            return null;
        }
        Optional<Memory> m = memory(id);
        return m.flatMap(memory -> embedding(id).filter(e -> e.getContentHash().equals(memory.getContentHash())))
                .map(e -> cosine(vector, e.getVector()))
                .orElse(null);
    }

    private static double cosine(float[] unitQuery, List<Float> unitVector) {
        double dot = 0;
        for (int i = 0; i < unitQuery.length; i++) {
            dot += unitQuery[i] * unitVector.get(i);
        }
        return dot;
    }
}
