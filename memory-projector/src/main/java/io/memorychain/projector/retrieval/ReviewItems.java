package io.memorychain.projector.retrieval;

import io.memorychain.avro.ReviewMode;
import io.memorychain.avro.view.Proposal;
import io.memorychain.avro.view.SpaceGovernance;
import io.memorychain.domain.contradiction.Contradictions;
import io.memorychain.projector.view.MemoryViews;
import java.util.List;
import java.util.Set;

/**
 * The review items /context shows (docs/architecture.md §10): how many sub-agent proposals wait for review (batch: the
 * main agent reviews them at session start or end; manual: a user decides), and the contradictions the user is to be
 * asked about (resolved ask_user), each until it is resolved.
 */
final class ReviewItems {

    private ReviewItems() {}

    /** Open proposals whose category the reader may read ({@code allowed} null: all). */
    static ContextResult.PendingReview pending(MemoryViews views, String space, Set<String> allowed) {
        int batch = 0;
        int manual = 0;
        for (Proposal p : views.openProposals(space)) {
            String category = p.getProposal().getCategory();
            if (category != null && allowed != null && !allowed.contains(category)) {
                continue;
            }
            if (p.getReviewMode() == ReviewMode.MANUAL) {
                manual++;
            } else {
                batch++;
            }
        }
        return new ContextResult.PendingReview(batch, manual);
    }

    static List<ContextResult.Question> questions(SpaceGovernance g) {
        return Contradictions.askingUser(g).stream()
                .map(c -> new ContextResult.Question(c.getId(), c.getFirstId(), c.getSecondId()))
                .toList();
    }

    /** The section text: empty when nothing waits. */
    static String section(
            MemoryViews views,
            String space,
            ContextResult.PendingReview review,
            List<ContextResult.Question> questions) {
        StringBuilder sb = new StringBuilder();
        if (review.batch() > 0 || review.manual() > 0) {
            sb.append("## Pending Review");
            if (review.batch() > 0) {
                sb.append("\n- ")
                        .append(review.batch())
                        .append(" sub-agent proposal")
                        .append(review.batch() == 1 ? "" : "s")
                        .append(" wait")
                        .append(review.batch() == 1 ? "s" : "")
                        .append(" for your review (commit, reject or defer)");
            }
            if (review.manual() > 0) {
                sb.append("\n- ")
                        .append(review.manual())
                        .append(" proposal")
                        .append(review.manual() == 1 ? "" : "s")
                        .append(" under manual review wait")
                        .append(review.manual() == 1 ? "s" : "")
                        .append(" for the user's decision");
            }
        }
        if (!questions.isEmpty()) {
            if (!sb.isEmpty()) {
                sb.append("\n\n");
            }
            sb.append("## Questions for the User (contradictions)");
            for (ContextResult.Question q : questions) {
                sb.append("\n- Which is right? \"")
                        .append(text(views, space, q.firstId()))
                        .append("\" or \"")
                        .append(text(views, space, q.secondId()))
                        .append("\" [")
                        .append(q.id())
                        .append(']');
            }
        }
        return sb.toString();
    }

    private static String text(MemoryViews views, String space, String id) {
        String text = id.startsWith("p")
                ? views.proposal(space, id)
                        .map(p -> p.getProposal().getContent())
                        .orElse(id)
                : views.memory(space, id).map(m -> m.getContent()).orElse(id);
        String line = text.replace('\n', ' ').strip();
        return line.length() > 160 ? line.substring(0, 157) + "..." : line;
    }
}
