package io.memorychain.api.erasure;

import io.memorychain.api.backend.MemoryBackend;
import io.memorychain.api.chain.ChainVerificationResult;
import io.memorychain.api.error.ApiException;
import io.memorychain.api.error.ErrorCodes;
import io.memorychain.api.request.PathIds;
import io.memorychain.api.request.Spaces;
import io.memorychain.api.write.WriteContext;
import io.memorychain.api.write.WriteExecutor;
import io.memorychain.api.write.WriteResult;
import io.memorychain.avro.EraseMemory;
import io.memorychain.avro.MemoryErased;
import io.memorychain.avro.MemoryEvent;
import io.memorychain.avro.PurgeMemory;
import io.memorychain.domain.Purges;
import io.memorychain.events.chain.Canonical;
import io.memorychain.events.chain.ChainVerifier;
import io.memorychain.events.chain.SignatureMode;
import io.memorychain.events.chain.SpaceChainReader;
import io.memorychain.events.content.DataKey;
import jakarta.inject.Singleton;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Hard deletion, transport-neutral (docs/architecture.md §12): erasure by crypto-shredding ({@code EraseMemory}: admins
 * and users), the admin's explicit purge of a soft-deleted memory ({@code PurgeMemory}), and the proof of an erasure.
 * Who may do what is the sequencer's rule; this layer checks the input and waits for the outcome.
 */
@Singleton
public class Erasures {

    private final MemoryBackend backend;
    private final WriteExecutor writes;

    public Erasures(MemoryBackend backend, WriteExecutor writes) {
        this.backend = backend;
        this.writes = writes;
    }

    public WriteResult erase(WriteContext ctx, String id, String reason) {
        PathIds.require(ctx.space(), id);
        return writes.execute(ctx, new EraseMemory(id, requireReason(reason)));
    }

    public WriteResult purge(WriteContext ctx, String id, String reason) {
        PathIds.require(ctx.space(), id);
        return writes.execute(ctx, new PurgeMemory(id, requireReason(reason)));
    }

    /**
     * Reads the space's chain from the events topic (ciphertext as written), verifying every hash, link and signature
     * up to the head, and answers the memory's {@code MemoryErased} event with its destroyed key record.
     *
     * @throws ApiException NOT_FOUND for an unknown memory, INVALID_STATE when it is not erased
     */
    public ErasureProof proof(String space, String id) {
        Spaces.require(space);
        if (!PathIds.plausible(id) || backend.views().memory(space, id).isEmpty()) {
            throw ApiException.notFound("No memory " + id + " in space " + space);
        }
        if (!Purges.isErased(backend.views().memory(space, id).orElseThrow())) {
            throw new ApiException(ErrorCodes.INVALID_STATE, "memory " + id + " is not erased");
        }
        ChainVerifier verifier = new ChainVerifier(space, backend.publicKeys(), SignatureMode.ALL);
        AtomicReference<MemoryEvent> erased = new AtomicReference<>();
        AtomicReference<MemoryEvent> head = new AtomicReference<>();
        new SpaceChainReader(
                        Map.of("bootstrap.servers", backend.bootstrapServers()),
                        backend.topics().events(),
                        backend.registry(),
                        Duration.ofMinutes(2))
                .read(
                        space,
                        event -> {
                            verifier.accept(event);
                            head.set(event);
                            if (event.getPayload() instanceof MemoryErased e
                                    && e.getMemoryId().equals(id)) {
                                erased.set(event);
                            }
                        },
                        (read, total) -> {});
        MemoryEvent event = erased.get();
        if (event == null) {
            throw new ApiException(
                    ErrorCodes.INVALID_STATE,
                    "memory " + id + " is erased in the views but its MemoryErased event is not on the chain read");
        }
        MemoryErased payload = (MemoryErased) event.getPayload();
        ErasureProof.Event proofEvent = new ErasureProof.Event(
                event.getSeq(),
                Canonical.hex(Canonical.toArray(event.getHash())),
                Canonical.hex(Canonical.toArray(event.getSignature())),
                event.getKeyId(),
                event.getOccurredAt().toString(),
                event.getActor().getType().name().toLowerCase(java.util.Locale.ROOT) + ":"
                        + event.getActor().getId(),
                event.getRequestId(),
                payload.getReason(),
                payload.getDataKeyId(),
                payload.getKeyCreatedSeq(),
                payload.getWasPurged(),
                List.copyOf(payload.getDestroyedSubjects()));
        Optional<DataKey> key = backend.dataKey(space, id);
        ErasureProof.KeyRecord keyRecord = new ErasureProof.KeyRecord(
                backend.topics().keys(),
                key.isPresent(),
                key.map(DataKey::erased).orElse(false),
                key.map(DataKey::keyId).orElse(null),
                key.map(DataKey::createdSeq).orElse(null),
                key.map(DataKey::erasedSeq).orElse(null));
        MemoryEvent last = head.get();
        ErasureProof.Chain chain = new ErasureProof.Chain(
                ChainVerificationResult.of(verifier.result()),
                last == null ? 0 : last.getSeq(),
                last == null ? null : Canonical.hex(Canonical.toArray(last.getHash())));
        List<ErasureProof.SubjectKey> subjectKeys = payload.getDestroyedSubjects().stream()
                .map(subject -> {
                    Optional<DataKey> k = backend.dataKey(space, subject);
                    return new ErasureProof.SubjectKey(
                            subject,
                            k.isPresent(),
                            k.map(DataKey::erased).orElse(false),
                            k.map(DataKey::keyId).orElse(null),
                            k.map(DataKey::erasedSeq).orElse(null));
                })
                .toList();
        return new ErasureProof(space, id, proofEvent, keyRecord, chain, subjectKeys);
    }

    private static String requireReason(String reason) {
        if (reason == null || reason.isBlank()) {
            throw ApiException.invalid("reason is required");
        }
        return reason;
    }
}
