package io.memorychain.api.chain;

import io.memorychain.api.backend.MemoryBackend;
import io.memorychain.api.error.FeatureNotAvailableException;
import jakarta.inject.Singleton;

/**
 * The chain verifier over the events topic. The reader and verifier ({@code KafkaChainReader.verifySpace(space)},
 * {@code ChainVerifier} in memory-events) are being written on another branch: until they are merged this answers
 * 501 NOT_AVAILABLE. Everything they need is reachable from {@link MemoryBackend}: bootstrap servers, topics,
 * registry and the public key ring.
 */
@Singleton
public class KafkaChainVerification implements ChainVerification {

    private final MemoryBackend backend;

    public KafkaChainVerification(MemoryBackend backend) {
        this.backend = backend;
    }

    @Override
    public ChainVerificationResult verify(String space) {
        // MERGE: var report = new KafkaChainReader(backend.bootstrapServers(), backend.topics(), backend.registry(),
        //                                         backend.publicKeys())
        //            .verifySpace(space);
        //        return report.ok() ? ChainVerificationResult.ok(report.events())
        //            : ChainVerificationResult.broken(report.events(), report.firstBadSeq(), report.problem().name(), report.message());
        throw new FeatureNotAvailableException("Chain verification (KafkaChainReader/ChainVerifier) is not available in "
                + "this build yet; it is being merged from another branch (events topic " + backend.topics().events() + ")");
    }
}
