package io.memorychain.api.config;

import io.memorychain.embeddings.EmbeddingModel;
import io.micronaut.context.annotation.ConfigurationProperties;
import jakarta.validation.constraints.NotBlank;

/**
 * {@code memory.embeddings.*}: which sentence-embedding model embeds memories and queries (docs/architecture.md §7).
 * Changing it starts a new embedder application that re-embeds every memory from the chain in the background; until
 * a memory has a vector of the configured model it is found by keywords only.
 */
@ConfigurationProperties("memory.embeddings")
public class EmbeddingsConfig {

    /** {@code e5-small} (default), {@code bge-small} or {@code minilm}; anything else stops startup naming them. */
    @NotBlank
    private String model = EmbeddingModel.DEFAULT.configName();

    public String getModel() {
        return model;
    }

    public void setModel(String model) {
        this.model = model;
    }

    /** The configured model; an unknown name fails naming the property and the accepted names. */
    public EmbeddingModel embeddingModel() {
        try {
            return EmbeddingModel.fromConfigName(model);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("memory.embeddings.model: " + e.getMessage(), e);
        }
    }
}
