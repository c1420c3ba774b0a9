package io.memorychain.projector.proposal;

import java.util.Objects;

/**
 * Another open proposal or an active memory that an open proposal may contradict or repeat.
 *
 * @param id the other proposal's or memory's id
 * @param target what {@code id} names
 * @param kind CONFLICT: same subject, different content; DUPLICATE: the same content
 * @param similarity cosine similarity of the two texts' embeddings
 */
public record ProposalFlag(String id, Target target, Kind kind, double similarity) {

    public enum Target {
        PROPOSAL,
        MEMORY
    }

    public enum Kind {
        CONFLICT,
        DUPLICATE
    }

    public ProposalFlag {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(target, "target");
        Objects.requireNonNull(kind, "kind");
    }
}
