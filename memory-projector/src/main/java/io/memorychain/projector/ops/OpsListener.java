package io.memorychain.projector.ops;

/** Told of every operational event the ops app counts (for {@code memory_ops_total}). */
@FunctionalInterface
public interface OpsListener {

    OpsListener NONE = (node, op, status) -> {};

    void counted(String node, String op, String status);
}
