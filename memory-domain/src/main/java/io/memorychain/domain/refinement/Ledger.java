package io.memorychain.domain.refinement;

import io.memorychain.avro.Memory;
import io.memorychain.avro.MemoryKind;
import io.memorychain.avro.MemoryState;
import io.memorychain.avro.Tier;
import io.memorychain.domain.core.CoreFormatter;
import java.util.Collection;
import java.util.List;

/**
 * What a refinement session works on. The ledger is the space's active core-tier memories, blocks excluded (blocks are
 * replaced with block updates, never consolidated or deleted); core tokens are counted exactly as the core view counts
 * them: the formatted core text (active blocks + core-tier memories) with cl100k_base.
 */
public final class Ledger {

    private Ledger() {}

    /** Part of core memory: active, and a block or core tier. */
    public static boolean inCore(Memory m) {
        return m.getState() == MemoryState.ACTIVE && (m.getKind() == MemoryKind.BLOCK || m.getTier() == Tier.CORE);
    }

    /** Part of the ledger given to the agent: active core-tier memories that are not blocks. */
    public static boolean inLedger(Memory m) {
        return m.getState() == MemoryState.ACTIVE && m.getKind() != MemoryKind.BLOCK && m.getTier() == Tier.CORE;
    }

    /** Core tokens of a space whose memories (any state, id order) these are. */
    public static int coreTokens(Collection<Memory> memories) {
        List<Memory> core = memories.stream().filter(Ledger::inCore).toList();
        return CoreFormatter.format(core).tokens();
    }
}
