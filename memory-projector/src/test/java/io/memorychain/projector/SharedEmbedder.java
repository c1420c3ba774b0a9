package io.memorychain.projector;

import io.memorychain.embeddings.EmbeddingModel;
import io.memorychain.embeddings.OnnxSentenceEmbedder;
import java.util.EnumMap;
import java.util.Map;

/**
 * The real embedding models, each loaded once per test JVM (loading takes a few seconds) and shared by tests.
 * {@link #get()} is the default model, or the one named by {@code -Dembedding.model=minilm|bge-small|e5-small} (for the
 * evaluation grids); {@link #of(EmbeddingModel)} a given one (for the per-model calibration tests).
 */
public final class SharedEmbedder {

    private static final Map<EmbeddingModel, OnnxSentenceEmbedder> LOADED = new EnumMap<>(EmbeddingModel.class);

    private SharedEmbedder() {}

    public static OnnxSentenceEmbedder get() {
        return of(EmbeddingModel.fromConfigName(
                System.getProperty("embedding.model", EmbeddingModel.DEFAULT.configName())));
    }

    public static synchronized OnnxSentenceEmbedder of(EmbeddingModel model) {
        return LOADED.computeIfAbsent(model, m -> {
            OnnxSentenceEmbedder embedder = OnnxSentenceEmbedder.create(m);
            Runtime.getRuntime().addShutdownHook(new Thread(embedder::close, "embedder-close-" + m.configName()));
            return embedder;
        });
    }
}
