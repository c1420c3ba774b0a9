package io.memorychain.domain.refinement;

import io.memorychain.avro.RefinementCounts;
import java.util.ArrayList;
import java.util.List;

/**
 * The one-line outcome of a refinement session (docs/architecture.md §9), e.g. {@code Compressed 20 -> 3; saved ~812
 * tokens; protected 2 constitutional memories}: consolidation inputs -> the memories they became, core tokens at the
 * start minus now, memories protected; then updates, deletions and removed duplicates when there were any.
 */
public final class RefinementSummary {

    private RefinementSummary() {}

    public static String line(RefinementCounts counts, int tokensBefore, int tokensAfter) {
        List<String> parts = new ArrayList<>();
        parts.add("Compressed " + counts.getConsolidatedInputs() + " -> " + counts.getConsolidations());
        int saved = tokensBefore - tokensAfter;
        parts.add(saved >= 0 ? "saved ~" + saved + " tokens" : "grew by ~" + (-saved) + " tokens");
        parts.add("protected " + counts.getProtections() + " constitutional "
                + plural(counts.getProtections(), "memory", "memories"));
        if (counts.getUpdates() > 0) {
            parts.add("updated " + counts.getUpdates());
        }
        if (counts.getDeletions() > 0) {
            parts.add("deleted " + counts.getDeletions());
        }
        if (counts.getDuplicatesRemoved() > 0) {
            parts.add("removed " + counts.getDuplicatesRemoved() + " exact "
                    + plural(counts.getDuplicatesRemoved(), "duplicate", "duplicates"));
        }
        return String.join("; ", parts);
    }

    private static String plural(int n, String one, String many) {
        return n == 1 ? one : many;
    }
}
