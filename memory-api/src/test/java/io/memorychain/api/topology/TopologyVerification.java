package io.memorychain.api.topology;

import io.memorychain.api.chain.ChainVerification;
import io.memorychain.api.chain.ChainVerificationResult;
import io.memorychain.api.chain.KafkaChainVerification;
import io.memorychain.avro.MemoryEvent;
import io.memorychain.events.chain.ChainHead;
import io.memorychain.events.chain.ChainVerifier;
import io.memorychain.events.chain.SignatureMode;
import io.micronaut.context.annotation.Replaces;
import io.micronaut.context.annotation.Requires;
import jakarta.inject.Singleton;

/** The real chain verifier over the events the topology backend's sequencer produced. */
@Singleton
@Requires(env = TopologyBackend.ENV)
@Replaces(KafkaChainVerification.class)
public class TopologyVerification implements ChainVerification {

    private final TopologyBackend backend;

    public TopologyVerification(TopologyBackend backend) {
        this.backend = backend;
    }

    @Override
    public ChainVerificationResult verify(String space) {
        return ChainVerificationResult.of(head(space).result());
    }

    @Override
    public ChainHead head(String space) {
        ChainVerifier verifier = new ChainVerifier(space, backend.publicKeys(), SignatureMode.ALL);
        synchronized (backend) {
            for (MemoryEvent e : backend.harness().chain()) {
                if (e.getSpace().equals(space)) {
                    verifier.accept(e);
                }
            }
        }
        return verifier.head();
    }
}
