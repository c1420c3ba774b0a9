package io.memorychain.api.chain;

import io.memorychain.api.backend.ChainMeters;
import io.memorychain.api.backend.MemoryBackend;
import io.memorychain.events.chain.ChainHead;
import io.memorychain.events.chain.KafkaChainReader;
import io.memorychain.events.chain.SignatureMode;
import jakarta.inject.Singleton;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Verifies a space's chain by reading it from the events topic and checking every hash, link and signature. The first
 * call reads the space's partition from its beginning; later calls continue after the head the previous one verified
 * (the offset it read up to, the seq and hash it reached), so a call costs the events written since, not the whole
 * chain. The topic is append-only (only the sequencer writes it, unlimited retention), so the records below that offset
 * are the ones verified; {@code full} (REST {@code ?full=true}), a restart, or {@code memory-worker verify} reads
 * everything again. A broken verdict is never cached: the next call starts from seq 1.
 */
@Singleton
public class KafkaChainVerification implements ChainVerification {

    private final MemoryBackend backend;
    private final ChainMeters meters;
    private final Map<String, KafkaChainReader.Position> verified = new ConcurrentHashMap<>();
    private final Map<String, VerifiedHead> last = new ConcurrentHashMap<>();

    public KafkaChainVerification(MemoryBackend backend, ChainMeters meters) {
        this.backend = backend;
        this.meters = meters;
    }

    @Override
    public java.util.Optional<VerifiedHead> last(String space) {
        return java.util.Optional.ofNullable(last.get(space));
    }

    @Override
    public ChainVerificationResult verify(String space) {
        return verify(space, false);
    }

    @Override
    public ChainVerificationResult verify(String space, boolean full) {
        KafkaChainReader.Position from = full ? null : verified.get(space);
        ChainHead head = verify(space, from);
        ChainVerificationResult result = ChainVerificationResult.of(head.result());
        return from == null || !result.ok() ? result : result.resumedAfter(from.seq());
    }

    /** Verifies the chain (counted on /prometheus) and answers its head. */
    @Override
    public ChainHead head(String space) {
        return verify(space, verified.get(space));
    }

    private ChainHead verify(String space, KafkaChainReader.Position from) {
        KafkaChainReader.Resumable verdict = new KafkaChainReader(
                        Map.of("bootstrap.servers", backend.bootstrapServers()),
                        backend.topics().events(),
                        backend.registry(),
                        backend.publicKeys(),
                        SignatureMode.ALL)
                .headAfter(space, from);
        if (verdict.next() == null) {
            verified.remove(space);
        } else {
            verified.put(space, verdict.next());
        }
        meters.verified(verdict.head().result().ok());
        ChainHead head = verdict.head();
        last.put(
                space,
                new VerifiedHead(
                        head.seq(),
                        head.result().events(),
                        backend.clock().instant(),
                        head.result().ok(),
                        head.result().problem() == null
                                ? null
                                : head.result().problem().name()));
        return head;
    }
}
