package io.memorychain.api.backend;

import io.memorychain.api.config.ConsolidateConfig;
import io.memorychain.api.config.LifecycleConfig;
import io.memorychain.api.config.LlmModelConfig;
import io.memorychain.api.config.MemoryConfig;
import io.memorychain.api.config.RefinementConfig;
import io.memorychain.api.config.ReflectConfig;
import io.memorychain.api.config.RetrievalConfig;
import io.memorychain.api.config.TomConfig;
import io.memorychain.domain.category.CategoryPolicy;
import jakarta.inject.Singleton;

/**
 * Starts what the service runs beside the chain (docs/architecture.md §12), each worker as its own configuration
 * section says; if one fails to start, those already started are stopped before the failure is passed on.
 */
@Singleton
class InProcessWorkersFactory {

    private final InProcessWorkers.Config config;

    InProcessWorkersFactory(
            RefinementConfig refinement,
            LifecycleConfig lifecycle,
            TomConfig tom,
            ConsolidateConfig consolidate,
            ReflectConfig reflect,
            LlmModelConfig llm,
            RetrievalConfig retrieval,
            CategoryPolicy categories,
            MemoryConfig memory) {
        this.config = new InProcessWorkers.Config(
                refinement, lifecycle, tom, consolidate, reflect, llm, retrieval, categories, memory.getBlockLabels());
    }

    InProcessWorkers start(InProcessWorkers.Chain chain) {
        InProcessWorkers workers = new InProcessWorkers();
        try {
            workers.start(chain, config);
        } catch (RuntimeException | Error e) {
            MemoryChainBackend.closeQuietly("workers", workers);
            throw e;
        }
        return workers;
    }
}
