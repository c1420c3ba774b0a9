package io.memorychain.domain.core;

import io.memorychain.avro.Memory;
import java.util.List;
import java.util.function.Predicate;

/**
 * What an agent runtime injects as core memory.
 *
 * @param text the sections ("## Who I Am", "## About the User", ...) ready for a system prompt
 * @param tokens token count of {@code text} (cl100k_base)
 * @param memories the active blocks and core-tier memories it was built from
 */
public record CoreView(String text, int tokens, List<Memory> memories) {

    /** The core view built from only the memories kept (e.g. those an agent's category allowlist lets it read). */
    public CoreView retain(Predicate<Memory> keep) {
        List<Memory> kept = memories.stream().filter(keep).toList();
        return kept.size() == memories.size() ? this : CoreFormatter.format(kept);
    }
}
