package io.memorychain.projector;

import io.memorychain.embeddings.EmbeddingModel;
import io.memorychain.embeddings.OnnxSentenceEmbedder;

/** The real embedding model, loaded once per test JVM (loading takes a second or two) and shared by tests. */
public final class SharedEmbedder {

    private static OnnxSentenceEmbedder embedder;

    private SharedEmbedder() {
    }

    public static synchronized OnnxSentenceEmbedder get() {
        if (embedder == null) {
            embedder = OnnxSentenceEmbedder.create(EmbeddingModel.DEFAULT);
            Runtime.getRuntime().addShutdownHook(new Thread(embedder::close, "embedder-close"));
        }
        return embedder;
    }
}
