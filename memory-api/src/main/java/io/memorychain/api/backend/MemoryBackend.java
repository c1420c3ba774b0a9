package io.memorychain.api.backend;

import io.memorychain.avro.MemoryAccess;
import io.memorychain.avro.MemoryOutcome;
import io.memorychain.avro.MemoryRequest;
import io.memorychain.avro.OperationalEvent;
import io.memorychain.embeddings.Embedder;
import io.memorychain.events.Topics;
import io.memorychain.events.chain.Checkpoint;
import io.memorychain.events.chain.KeyRing;
import io.memorychain.events.chain.PublicKeyInfo;
import io.memorychain.events.registry.SchemaRegistry;
import io.memorychain.llm.UsageCounters;
import io.memorychain.projector.ops.OpsCounts;
import io.memorychain.projector.ops.OpsTotals;
import io.memorychain.projector.support.StreamsLag;
import io.memorychain.projector.view.MemoryViews;
import io.memorychain.projector.view.SpaceOwner;
import java.net.URI;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.streams.KafkaStreams;

/**
 * What the REST layer needs from the running chain: a way to publish requests and the local views. The production
 * implementation is {@link MemoryChainBackend}; HTTP-level tests replace it with the real topologies on TopologyTestDriver.
 */
public interface MemoryBackend {

    /** Publishes the request; completes with the sequencer's outcome (see {@code MemoryPublisher#publish}). */
    CompletableFuture<MemoryOutcome> publish(MemoryRequest request);

    /** Publishes a read access (asynchronously, off the chain); it feeds the access stats behind decay. */
    void recordAccess(MemoryAccess access);

    /**
     * Publishes an operational event (asynchronously, off the chain, to memory.ops.v1: docs/architecture.md §2);
     * losing one only weakens the counts. Default: dropped.
     */
    default void recordOp(OperationalEvent op) {}

    /** The operational event counts of this instance (view-ops, docs/architecture.md §6); empty when not kept here. */
    default Optional<OpsCounts> opsCounts() {
        return Optional.empty();
    }

    /** Operational events counted by this process since it started, by node, op and status (memory_ops_total). */
    default OpsTotals opsTotals() {
        return new OpsTotals();
    }

    /** The embedding model of this instance (embeds queries; the embedder embeds memories with the same model). */
    Embedder embedder();

    /** The clock decay and recency are computed with (the sequencer's clock: event times come from it). */
    default Clock clock() {
        return Clock.systemUTC();
    }

    /** The projection's views on this instance. */
    MemoryViews views();

    /** Bootstrap servers of the Kafka cluster in use (embedded or external). */
    String bootstrapServers();

    /** The topic catalogue in use. */
    Topics topics();

    /** The schema registry in use (for readers of the chain such as the verifier). */
    SchemaRegistry registry();

    /**
     * How this process decrypts the chain's memory texts (docs/architecture.md §12, erasure); readers of the events
     * topic that need text apply it. Plain by default (backends without encryption).
     */
    default io.memorychain.events.content.ChainContent content() {
        return io.memorychain.events.content.ChainContent.PLAINTEXT;
    }

    /** A memory's data key as the key topic holds it (live or destroyed); empty without encryption or record. */
    default java.util.Optional<io.memorychain.events.content.DataKey> dataKey(String space, String memoryId) {
        return java.util.Optional.empty();
    }

    /** Public keys that verify the chain's signatures. */
    KeyRing publicKeys();

    /**
     * The chain signing keys this service holds (docs/architecture.md §4, key rotation): the default key and the keys
     * spaces rotated to; empty when the service signs nothing itself.
     */
    default java.util.Optional<io.memorychain.events.chain.SigningKeys> signingKeys() {
        return java.util.Optional.empty();
    }

    /** The chain public keys as published ({@code GET /v1/chain/keys}, {@code data/keys/public-keys.json}). */
    List<PublicKeyInfo> publishedKeys();

    /** Signs a checkpoint of a verified head with this service's chain key (docs/chain-format.md §8). */
    Checkpoint signCheckpoint(String space, long seq, byte[] hash);

    /** State of each Kafka Streams application by name ({@code sequencer}, {@code projection}), e.g. RUNNING. */
    Map<String, String> streamStates();

    /**
     * The recent stream-thread failures by application name (docs/architecture.md §19, "Faults"), each with its
     * {@code code} ({@code STORAGE_FULL}, {@code STATE_STORE_FAILURE}, {@code STREAM_THREAD_FAILED}), the
     * {@code store} it names (if any), {@code error}, {@code at} and {@code count}; empty when all is well. A failed
     * thread is replaced, so a persistent fault shows here while the states read RUNNING again.
     */
    default Map<String, Map<String, Object>> streamFailures() {
        return Map.of();
    }

    /**
     * Figures of the background workers running in this process, by name: a map (e.g. {@code lifecycle}: state, lag,
     * last_check_at, last_evaluated, requested_total; {@code tom}: state, lag, last_check_at, last_run_at, runs,
     * requested_total, ...) or, for a worker that is wanted but cannot run, why ({@code tom: "skipped: no model"});
     * empty when none runs here.
     */
    default Map<String, Object> workerFigures() {
        return Map.of();
    }

    /** LLM usage of this process's jobs by purpose (for {@code /prometheus}); empty when no job calls a model. */
    default UsageCounters llmUsage() {
        return new UsageCounters();
    }

    /**
     * The search indexes of this process's projection tasks (for {@code /prometheus}): {@code rebuilds} and
     * {@code reuses} since start, and {@code building_graphs}, the indexes building their HNSW graphs in the
     * background (kNN is exact and slower meanwhile); empty when this process holds no index.
     */
    default Map<String, Long> searchIndexFigures() {
        return Map.of();
    }

    /** The Kafka Streams applications of this process by name (their client metrics go to {@code /prometheus}). */
    default Map<String, KafkaStreams> streamsApplications() {
        return Map.of();
    }

    /** Records of each Streams application's input topics not yet consumed, by application name. */
    default Map<String, Long> streamsLags() {
        Map<String, Long> lags = new LinkedHashMap<>();
        streamsApplications().forEach((app, streams) -> lags.put(app, StreamsLag.of(streams)));
        return lags;
    }

    /**
     * Which instance serves the space's views now (docs/architecture.md §19): this one, another one (forward there),
     * or none while the projection rebalances. Default: this one (a single instance).
     */
    default SpaceOwner ownerOf(String space) {
        return SpaceOwner.UNROUTED;
    }

    /**
     * How far this instance's own copy of the space's views (a standby replica, or the active task while it restores)
     * has applied the space (docs/architecture.md §19); empty when this instance holds no such copy. Default: none.
     *
     * @param owner what {@link #ownerOf} said (its partition, when known)
     */
    default java.util.OptionalLong standbyAppliedSeq(String space, SpaceOwner owner) {
        return java.util.OptionalLong.empty();
    }

    /** This instance's advertised REST base URL ({@code memory.instance.advertised-url}); empty: routing is off. */
    default Optional<URI> advertisedUrl() {
        return Optional.empty();
    }

    /**
     * The Kafka cluster the chain runs on, for the features that keep topics of their own beside it (API keys,
     * checkpoints); empty for a backend without one (the HTTP tests over TopologyTestDriver).
     */
    default Optional<KafkaLog> kafkaLog() {
        return Optional.empty();
    }
}
