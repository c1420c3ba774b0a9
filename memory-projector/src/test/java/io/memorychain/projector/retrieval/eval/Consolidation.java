package io.memorychain.projector.retrieval.eval;

import static io.memorychain.projector.retrieval.eval.LabelledMemory.require;

import java.util.List;

/**
 * Memories {@code inputs} replaced by the memory {@code result} (a MemoriesConsolidated event): the inputs are
 * SUPERSEDED by it, the result is ACTIVE and keeps the earliest creation time of its inputs.
 */
public record Consolidation(String result, List<String> inputs, String reason) {

    public Consolidation {
        require(result != null && !result.isBlank(), "consolidation without result");
        require(inputs != null && !inputs.isEmpty(), "consolidation " + result + " has no inputs");
        inputs = List.copyOf(inputs);
    }
}
