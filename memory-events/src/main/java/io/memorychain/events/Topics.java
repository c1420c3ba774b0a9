package io.memorychain.events;

import java.util.List;
import java.util.Objects;

/**
 * The one topic catalogue. Topologies, publishers and tools receive an instance; no topic name is written anywhere
 * else. {@link #withPrefix(String)} gives tests their own topics on a shared broker.
 *
 * @param requests change requests, key = space
 * @param events the chain, key = space; written only by the sequencer; retention forever
 * @param outcomes one outcome per request, key = request id
 * @param deadLetters records that could not be deserialized, with their source coordinates in headers
 * @param access which memories the read path returned (off-chain, feeds decay), key = space
 * @param embeddings derived embeddings of memory contents (off-chain, written by the embedder), key = space
 * @param schemas the embedded schema registry's compacted storage topic
 * @param apiKeys the API's key records (hashed secrets), compacted, 1 partition, key = key id
 * @param ops operational events (off-chain, seed 004 section 14): the write-side ops derived from the chain and the
 *     read-side ops and refused writes recorded by the API, key = space
 * @param keys the memories' content data keys (docs/architecture.md §12, erasure), compacted, key = space NUL memory
 *     id; written only by the sequencer
 * @param checkpoints agents' saved working state (the supervisor checkpointer), off-chain, compacted, 1 partition, key
 *     = space NUL user id NUL thread id NUL checkpoint id; created by the API like the key topic
 */
public record Topics(
        String requests,
        String events,
        String outcomes,
        String deadLetters,
        String access,
        String embeddings,
        String schemas,
        String apiKeys,
        String ops,
        String keys,
        String checkpoints) {

    public Topics {
        Objects.requireNonNull(requests);
        Objects.requireNonNull(events);
        Objects.requireNonNull(outcomes);
        Objects.requireNonNull(deadLetters);
        Objects.requireNonNull(access);
        Objects.requireNonNull(embeddings);
        Objects.requireNonNull(schemas);
        Objects.requireNonNull(apiKeys);
        Objects.requireNonNull(ops);
        Objects.requireNonNull(keys);
        Objects.requireNonNull(checkpoints);
    }

    public static Topics defaults() {
        return withPrefix("");
    }

    public static Topics withPrefix(String prefix) {
        return new Topics(
                prefix + "memory.requests.v1",
                prefix + "memory.events.v1",
                prefix + "memory.outcomes.v1",
                prefix + "memory.dlq.v1",
                prefix + "memory.access.v1",
                prefix + "memory.embeddings.v1",
                prefix + "_memory_schemas",
                prefix + "memory.api-keys.v1",
                prefix + "memory.ops.v1",
                prefix + "memory.keys.v1",
                prefix + "memory.checkpoints.v1");
    }

    /** Topics that carry requests, events and outcomes (co-partitioned by space where keyed by space). */
    public List<String> dataTopics() {
        return List.of(requests, events, outcomes, deadLetters, access, embeddings, ops, keys);
    }

    /** Topics keyed by space that processors read together with the events: they need the events' partition count. */
    public List<String> coPartitioned() {
        return List.of(requests, events, access, embeddings, ops);
    }
}
