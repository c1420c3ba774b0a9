package io.memorychain.api.markdown;

import java.util.Objects;

/**
 * One request an edited file maps to.
 *
 * @param line line of the entry in the new file (for deletions: in the file as it was)
 * @param action what it does
 * @param target the memory id (updates, deletions) or block label; null for a new memory
 * @param op the {@code MemoryRequest.op} record: CreateMemory, UpdateMemory, DeleteMemory or UpdateBlock
 */
record FileChange(int line, Action action, String target, Object op) {

    public enum Action {
        CREATED,
        UPDATED,
        DELETED,
        BLOCK_UPDATED
    }

    public FileChange {
        Objects.requireNonNull(action, "action");
        Objects.requireNonNull(op, "op");
    }
}
