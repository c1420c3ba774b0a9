package io.memorychain.domain.refinement;

import io.memorychain.avro.DuplicateRemoval;
import io.memorychain.avro.Memory;
import io.memorychain.avro.MemoryKind;
import io.memorychain.avro.MemoryState;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Content-blind exact-duplicate cleanup (docs/architecture.md §9): only {@code content_hash} (SHA-256 of the normalized
 * content) and metadata are compared, never the text. Among the active, non-block memories with the same hash and tier,
 * one is kept: a constitutional one if there is any, else the one with the earliest {@code created_at} (then the
 * smallest id); every other one that is not constitutional is removed. The tier is part of the key so that a
 * working-tier copy never removes a core memory (or the reverse).
 */
public final class DuplicateScan {

    private static final Comparator<Memory> KEEP_FIRST = Comparator.comparing((Memory m) -> !m.getConstitutional())
            .thenComparing(Memory::getCreatedAt)
            .thenComparing(Memory::getId);

    private DuplicateScan() {}

    /** The duplicates to remove from these memories (any state), in memory id order. */
    public static List<DuplicateRemoval> plan(List<Memory> memories) {
        Map<String, List<Memory>> groups = new LinkedHashMap<>();
        for (Memory m : memories) {
            if (m.getState() == MemoryState.ACTIVE && m.getKind() != MemoryKind.BLOCK) {
                groups.computeIfAbsent(m.getTier() + "\0" + m.getContentHash(), k -> new ArrayList<>())
                        .add(m);
            }
        }
        List<DuplicateRemoval> removals = new ArrayList<>();
        for (List<Memory> group : groups.values()) {
            if (group.size() < 2) {
                continue;
            }
            Memory keep = group.stream().min(KEEP_FIRST).orElseThrow();
            for (Memory m : group) {
                if (m != keep && !m.getConstitutional()) {
                    removals.add(new DuplicateRemoval(m.getId(), keep.getId(), m.getContentHash()));
                }
            }
        }
        removals.sort(Comparator.comparing(DuplicateRemoval::getMemoryId));
        return removals;
    }
}
