package io.memorychain.api.backend;

import io.memorychain.embeddings.MiniLmEmbedder;
import io.micronaut.context.annotation.Bean;
import io.micronaut.context.annotation.Factory;
import jakarta.inject.Singleton;

/** The embedding model: all-MiniLM-L6-v2 (int8) from the Maven artifact, loaded once, offline. */
@Factory
public class EmbedderFactory {

    @Singleton
    @Bean(preDestroy = "close")
    MiniLmEmbedder embedder() {
        return MiniLmEmbedder.create();
    }
}
