package io.memorychain.projector.retrieval.eval;

import static io.memorychain.projector.retrieval.eval.LabelledMemory.require;

import java.util.Set;

/** A typed relation edge between two memories of the same space (docs/architecture.md §6). */
public record Link(String from, String to, String type) {

    /** The relation vocabulary the set may use. */
    public static final Set<String> TYPES = Set.of(
            "develops", "uses", "part-of", "depends-on", "decided-on", "prefers", "avoids", "relates-to", "related_to");

    public Link {
        require(from != null && to != null, "link needs from and to");
        require(TYPES.contains(type), "link " + from + " -> " + to + ": unknown type " + type);
    }
}
