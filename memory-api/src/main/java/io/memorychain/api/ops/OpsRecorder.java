package io.memorychain.api.ops;

import io.memorychain.avro.Actor;

/**
 * The port any endpoint calls to record an operational event (seed 004 section 14, docs/architecture.md §2
 * {@code memory.ops.v1}): what it did, where, and how it went. Never blocks and never fails the caller. The write-side
 * ops of accepted changes come from the chain (the ops app); endpoints record what the chain does not show: reads
 * ({@code search}), refused writes ({@code error} with the code), and steps such as {@code classify}.
 */
@FunctionalInterface
public interface OpsRecorder {

    /** Records nothing. */
    OpsRecorder NONE = op -> {};

    void record(Op op);

    /** {@code record(space, actor, node, op, status)} without details. */
    default void record(String space, Actor actor, String node, String op, String status) {
        record(Op.of(space, actor, node, op, status));
    }

    /**
     * One operational event as an endpoint sees it; the recorder stamps the time.
     *
     * @param node hotpath, context, episodic, worker or api
     * @param op classify, search, create, update, merge, delete, link, ttl, ...
     * @param status ok, error or skipped
     * @param code for status error: the error code
     * @param sim the best neighbour score, when known
     */
    record Op(
            String space,
            Actor actor,
            String node,
            String op,
            String status,
            String code,
            String memoryId,
            String category,
            Double sim,
            String userId,
            String threadId) {

        public static Op of(String space, Actor actor, String node, String op, String status) {
            return new Op(space, actor, node, op, status, null, null, null, null, null, null);
        }

        public Op withCode(String value) {
            return new Op(space, actor, node, op, status, value, memoryId, category, sim, userId, threadId);
        }

        public Op withMemory(String id, String memoryCategory) {
            return new Op(space, actor, node, op, status, code, id, memoryCategory, sim, userId, threadId);
        }

        public Op withSim(Double value) {
            return new Op(space, actor, node, op, status, code, memoryId, category, value, userId, threadId);
        }

        public Op withScope(String user, String thread) {
            return new Op(space, actor, node, op, status, code, memoryId, category, sim, user, thread);
        }
    }
}
