package io.memorychain.api.retrieval;

import io.memorychain.api.backend.MemoryBackend;
import io.memorychain.api.config.RetrievalConfig;
import io.memorychain.domain.category.CategoryPolicy;
import io.memorychain.llm.rerank.TeiRerankClient;
import io.memorychain.projector.retrieval.ContextAssembler;
import io.memorychain.projector.retrieval.DecayModel;
import io.memorychain.projector.retrieval.QueryService;
import io.memorychain.projector.retrieval.RankingWeights;
import io.memorychain.projector.retrieval.Reranker;
import io.micronaut.context.annotation.Factory;
import jakarta.inject.Singleton;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The read services of memory.query and context assembly, over the backend's views and embedder. */
@Factory
class RetrievalBeans {

    private static final Logger log = LoggerFactory.getLogger(RetrievalBeans.class);

    @Singleton
    QueryService queryService(MemoryBackend backend, RetrievalConfig config, Optional<CategoryPolicy> policy) {
        RetrievalConfig.Reranker rerank = config.getReranker();
        return new QueryService(
                backend.views(),
                backend.embedder(),
                policy.orElseGet(CategoryPolicy::unrestricted),
                new DecayModel(config.getDecayLambda()),
                RankingWeights.DEFAULTS,
                backend::recordAccess,
                backend.clock(),
                reranker(rerank),
                rerank.getTopN());
    }

    /** The configured cross-encoder (memory-llm's HTTP client behind the projector's port), or none. */
    static Reranker reranker(RetrievalConfig.Reranker config) {
        if (config.url().isEmpty()) {
            return Reranker.NONE;
        }
        TeiRerankClient client = new TeiRerankClient(config.url().get(), config.getTimeout());
        log.info(
                "memory.query reranks its best {} candidates with {} (timeout {})",
                config.getTopN(),
                client.endpoint(),
                config.getTimeout());
        return client::scores;
    }

    @Singleton
    ContextAssembler contextAssembler(MemoryBackend backend, QueryService queries, Optional<CategoryPolicy> policy) {
        return new ContextAssembler(backend.views(), queries, policy.orElseGet(CategoryPolicy::unrestricted));
    }
}
