package io.memorychain.projector;

import io.memorychain.embeddings.MiniLmEmbedder;

/** The real embedding model, loaded once per test JVM (loading takes a second or two) and shared by tests. */
public final class SharedEmbedder {

    private static MiniLmEmbedder embedder;

    private SharedEmbedder() {
    }

    public static synchronized MiniLmEmbedder get() {
        if (embedder == null) {
            embedder = MiniLmEmbedder.create();
            Runtime.getRuntime().addShutdownHook(new Thread(embedder::close, "embedder-close"));
        }
        return embedder;
    }
}
