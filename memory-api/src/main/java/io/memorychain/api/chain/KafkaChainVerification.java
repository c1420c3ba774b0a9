package io.memorychain.api.chain;

import io.memorychain.api.backend.ChainMeters;
import io.memorychain.api.backend.MemoryBackend;
import io.memorychain.events.chain.ChainHead;
import io.memorychain.events.chain.KafkaChainReader;
import io.memorychain.events.chain.SignatureMode;
import jakarta.inject.Singleton;
import java.util.Map;

/** Verifies a space's chain by reading it from the events topic and checking every hash, link and signature. */
@Singleton
public class KafkaChainVerification implements ChainVerification {

    private final MemoryBackend backend;
    private final ChainMeters meters;

    public KafkaChainVerification(MemoryBackend backend, ChainMeters meters) {
        this.backend = backend;
        this.meters = meters;
    }

    @Override
    public ChainVerificationResult verify(String space) {
        return ChainVerificationResult.of(head(space).result());
    }

    /** Verifies the chain (counted on /prometheus) and answers its head. */
    @Override
    public ChainHead head(String space) {
        ChainHead head = new KafkaChainReader(Map.of("bootstrap.servers", backend.bootstrapServers()),
                backend.topics().events(), backend.registry(), backend.publicKeys(), SignatureMode.ALL).headOf(space);
        meters.verified(head.result().ok());
        return head;
    }
}
