package io.memorychain.projector.linker;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;

/** Keeps the best {@code k} candidates with a score of at least {@code min}: best first, ties by id. */
final class Neighbours {

    /** One candidate neighbour and its cosine similarity to the new memory. */
    record Neighbour(String id, double score) {}

    private static final Comparator<Neighbour> BEST_FIRST =
            Comparator.comparingDouble(Neighbour::score).reversed().thenComparing(Neighbour::id);

    private final int k;
    private final double min;
    /** Worst of the kept candidates at the head. */
    private final PriorityQueue<Neighbour> kept;

    Neighbours(int k, double min) {
        this.k = k;
        this.min = min;
        this.kept = new PriorityQueue<>(k + 1, BEST_FIRST.reversed());
    }

    void offer(String id, double score) {
        if (!(score >= min)) {
            return; // also drops NaN
        }
        kept.add(new Neighbour(id, score));
        if (kept.size() > k) {
            kept.poll();
        }
    }

    List<Neighbour> best() {
        List<Neighbour> out = new ArrayList<>(kept);
        out.sort(BEST_FIRST);
        return out;
    }
}
