package io.memorychain.api.proposals;

import io.memorychain.api.backend.MemoryBackend;
import io.memorychain.api.config.ProposalConfig;
import io.memorychain.api.request.InputRules;
import io.memorychain.api.write.WriteExecutor;
import io.memorychain.domain.category.CategoryAccess;
import io.memorychain.projector.proposal.ProposalConflicts;
import io.micronaut.context.annotation.Factory;
import jakarta.inject.Singleton;

/** Wires the proposal service with the configured conflict band and the backend's embedding model. */
@Factory
class ProposalBeans {

    @Singleton
    ProposalService proposalService(
            MemoryBackend backend,
            WriteExecutor writes,
            CategoryAccess access,
            InputRules rules,
            ProposalConfig config) {
        ProposalConflicts conflicts = backend.embedder() == null
                ? null
                : new ProposalConflicts(
                        backend.embedder(), config.band(backend.embedder().modelId()));
        return new ProposalService(backend, writes, access, new ProposalRequests(rules), conflicts);
    }
}
