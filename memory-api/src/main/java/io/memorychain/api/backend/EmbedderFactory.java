package io.memorychain.api.backend;

import io.memorychain.api.config.EmbeddingsConfig;
import io.memorychain.embeddings.OnnxSentenceEmbedder;
import io.micronaut.context.annotation.Bean;
import io.micronaut.context.annotation.Factory;
import jakarta.inject.Singleton;

/**
 * The embedding model of {@code memory.embeddings.model} from its Maven artifact, loaded once, offline; ONNX Runtime's
 * arena allocator per {@code memory.embeddings.arena-allocator}, its threads per
 * {@code memory.embeddings.intra-op-threads}.
 */
@Factory
class EmbedderFactory {

    @Singleton
    @Bean(preDestroy = "close")
    OnnxSentenceEmbedder embedder(EmbeddingsConfig config) {
        return OnnxSentenceEmbedder.builder(config.embeddingModel())
                .arenaAllocator(config.isArenaAllocator())
                .intraOpThreads(config.getIntraOpThreads())
                .build();
    }
}
