package io.memorychain.projector.retrieval.eval;

import static io.memorychain.projector.retrieval.eval.LabelledMemory.require;

/** A memory space of the set and who its agent is. */
public record Space(String id, String description) {

    public Space {
        require(id != null && !id.isBlank(), "space without id");
    }
}
