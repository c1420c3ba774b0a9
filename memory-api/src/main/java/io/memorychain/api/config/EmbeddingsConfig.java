package io.memorychain.api.config;

import io.memorychain.embeddings.EmbeddingModel;
import io.micronaut.context.annotation.ConfigurationProperties;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;

/**
 * {@code memory.embeddings.*}: which sentence-embedding model embeds memories and queries (docs/architecture.md §7).
 * Changing it starts a new embedder application that re-embeds every memory from the chain in the background; until a
 * memory has a vector of the configured model it is found by keywords only.
 */
@ConfigurationProperties("memory.embeddings")
public class EmbeddingsConfig {

    /** {@code e5-small} (default), {@code bge-small} or {@code minilm}; anything else stops startup naming them. */
    @NotBlank
    private String model = EmbeddingModel.DEFAULT.configName();

    /**
     * ONNX Runtime's CPU arena allocator and memory patterns (docs/benchmarks.md "Memory of the embedded service"): on
     * (default), the buffers are reused but the process keeps the peak of the longest passage it has embedded; off,
     * each model run allocates and frees its buffers. The vectors are the same either way.
     */
    private boolean arenaAllocator = true;

    /**
     * Threads ONNX Runtime uses inside one model run, for memories and queries alike: 1 (default) runs on the caller's
     * thread; more, or 0 for one per core, lets one embedding use idle cores (docs/benchmarks.md "Embeddings"). The
     * vectors are bit-identical whatever the count ({@code EmbeddingModelsTest}).
     */
    @Min(0)
    @Max(64)
    private int intraOpThreads = 1;

    /**
     * Stream threads of the embedder application: each embeds the memories of its own partitions of the events topic
     * ({@code memory.kafka.partitions}), so with two or more partitions, two threads embed two memories at once on two
     * cores (docs/benchmarks.md "Embeddings"). Threads beyond the partitions stay idle. The vectors are the same.
     */
    @Min(1)
    @Max(16)
    private int streamThreads = 1;

    public int getStreamThreads() {
        return streamThreads;
    }

    public void setStreamThreads(int streamThreads) {
        this.streamThreads = streamThreads;
    }

    public int getIntraOpThreads() {
        return intraOpThreads;
    }

    public void setIntraOpThreads(int intraOpThreads) {
        this.intraOpThreads = intraOpThreads;
    }

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
