package io.memorychain.projector.retrieval;

import io.memorychain.avro.Memory;
import java.util.List;

/**
 * The answer to a {@link QueryRequest}.
 *
 * @param header the delta header ("Memory updates since rev X: ...") or empty
 * @param revision the thread's current revision (pass it as {@code since_rev} next time)
 * @param items the memories, best first
 * @param tokens tokens of the rendered answer (header, bullets and related bullets), cl100k_base
 * @param omitted how many ranked memories were left out because they did not fit the budget
 */
public record QueryResult(String header, long revision, List<Item> items, int tokens, int omitted) {

    /**
     * One returned memory.
     *
     * @param text the bullet: {@code [category] summary-or-content}
     * @param score the final ranking score (higher is better; comparable within one answer only)
     * @param decay decay status at query time
     * @param memory the memory itself (full format only, else null)
     * @param related up to two memories linked to it, as short bullets
     */
    public record Item(
            String id,
            String category,
            String text,
            double score,
            DecayModel.Status decay,
            Memory memory,
            List<Related> related) {}

    /** A memory related to a result through a relation edge. */
    public record Related(String id, String relation, double strength, String text) {}

    /** The answer as text, as an agent would have it injected: header, then one bullet per memory. */
    public String render() {
        StringBuilder sb = new StringBuilder(header);
        for (Item item : items) {
            if (!sb.isEmpty()) {
                sb.append('\n');
            }
            sb.append(QueryRendering.bullet(item));
        }
        return sb.toString();
    }
}
