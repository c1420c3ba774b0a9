package io.memorychain.api.refinement;

import io.memorychain.api.backend.MemoryBackend;
import io.memorychain.api.config.RefinementConfig;
import io.memorychain.api.memories.MemoryRequests;
import io.memorychain.api.request.InputRules;
import io.memorychain.api.write.WriteExecutor;
import io.memorychain.domain.category.CategoryAccess;
import io.micronaut.context.annotation.Factory;
import jakarta.inject.Singleton;

/** Wires the refinement-session service with the configured target and the category policy. */
@Factory
class RefinementBeans {

    @Singleton
    RefinementSessions refinementSessions(
            MemoryBackend backend,
            WriteExecutor writes,
            MemoryRequests requests,
            InputRules rules,
            CategoryAccess access,
            RefinementConfig config) {
        return new RefinementSessions(backend, writes, requests, rules, access, config.getTargetTokens());
    }
}
