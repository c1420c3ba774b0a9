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

    /**
     * ONNX Runtime's CPU arena allocator and memory patterns (README "Memory of the embedded service"): on (default),
     * the buffers are reused but the process keeps the peak of the longest passage it has embedded; off, each model
     * run allocates and frees its buffers. The vectors are the same either way.
     */
    private boolean arenaAllocator = true;

    public boolean isArenaAllocator() {
        return arenaAllocator;
    }

    public void setArenaAllocator(boolean arenaAllocator) {
        this.arenaAllocator = arenaAllocator;
    }

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
