package io.memorychain.domain;

import io.memorychain.avro.Memory;
import io.memorychain.avro.MemoryState;
import java.time.Instant;
import java.util.List;

/**
 * Purged memories (docs/architecture.md §12): a {@code MemoryPurged} event turns a soft-deleted memory into a tombstone
 * whose text is {@link #MARKER}. The write model keeps the tombstone (so nothing can restore, change or roll it back);
 * the views drop it and replace its text wherever they kept a copy. The chain itself still holds the earlier events'
 * (encrypted) content; {@code MemoryErased} destroys its data key (crypto-shredding, {@link #erase}), after which that
 * content is unreadable everywhere.
 */
public final class Purges {

    /** What replaces a purged memory's content (and its text in history, audit and thread changes). */
    public static final String MARKER = "[purged]";

    private Purges() {}

    /** What an erased memory's text reads as, in the tombstone and wherever a reader meets its destroyed key. */
    public static final String ERASED = "[erased]";

    public static boolean isPurged(Memory memory) {
        return memory != null && memory.getPurgedAt() != null;
    }

    /** An erased memory (docs/architecture.md §12): a tombstone whose text is {@link #ERASED}. */
    public static boolean isErased(Memory memory) {
        return isPurged(memory) && ERASED.equals(memory.getContent());
    }

    /**
     * Edits a copy of the memory into an erased tombstone (a purged one keeps its {@code purged_at}): its text reads
     * {@link #ERASED} from here on. A tombstone is not a live memory: one that was active or archived becomes
     * soft-deleted, like a purged one, so no list, core view, context or job takes it for a memory (a superseded one
     * stays superseded, for its lineage); being purged, it can never be restored.
     */
    public static void erase(Memory memory, Instant at) {
        Instant purgedAt = memory.getPurgedAt();
        scrub(memory);
        memory.setContent(ERASED);
        memory.setContentHash(ContentHash.of(ERASED));
        memory.setPurgedAt(purgedAt != null ? purgedAt : at);
        if (memory.getState() != MemoryState.SUPERSEDED) {
            memory.setState(MemoryState.SOFT_DELETED);
        }
    }

    /** Edits a copy of the memory into its tombstone: no content, summary or tags; purged at {@code at}. */
    public static void tombstone(Memory memory, Instant at) {
        scrub(memory);
        memory.setPurgedAt(at);
    }

    /** Replaces the text of a snapshot (content, summary, tags) by the marker, in place; null is left alone. */
    public static Memory scrub(Memory memory) {
        if (memory != null) {
            memory.setContent(MARKER);
            memory.setSummary(null);
            memory.setTags(List.of());
            memory.setContentHash(ContentHash.of(MARKER));
        }
        return memory;
    }
}
