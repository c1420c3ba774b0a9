package io.memorychain.embeddings;

import ai.djl.huggingface.tokenizers.Encoding;
import ai.djl.huggingface.tokenizers.HuggingFaceTokenizer;
import ai.onnxruntime.OnnxTensor;
import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtException;
import ai.onnxruntime.OrtSession;
import java.io.IOException;
import java.io.InputStream;
import java.nio.FloatBuffer;
import java.nio.LongBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Benchmark only (memory-bench, in this package to read the model's classpath resources): the alternative that
 * {@link OnnxSentenceEmbedder} rejects, a padded batch of passages through the model in one run (attention mask 0 on
 * the padding, mean pooling over each text's own tokens), so that the embedding harness can measure its speed and
 * compare its vectors bit for bit with the production embedder's. Mean-pooling models only; one intra-op thread.
 */
public final class PaddedBatchProbe implements AutoCloseable {

    private final EmbeddingModel model;
    private final OrtEnvironment environment = OrtEnvironment.getEnvironment();
    private final OrtSession session;
    private final HuggingFaceTokenizer tokenizer;
    private final boolean needsTokenTypes;

    public PaddedBatchProbe(EmbeddingModel model) throws OrtException, IOException {
        if (model.pooling() != EmbeddingModel.Pooling.MEAN) {
            throw new IllegalArgumentException("mean-pooling models only: " + model);
        }
        this.model = model;
        try (InputStream onnx = open(model.modelResource());
                OrtSession.SessionOptions options = new OrtSession.SessionOptions()) {
            options.setIntraOpNumThreads(1);
            this.session = environment.createSession(onnx.readAllBytes(), options);
        }
        this.needsTokenTypes = session.getInputNames().contains("token_type_ids");
        try (InputStream json = open(model.tokenizerResource())) {
            this.tokenizer = HuggingFaceTokenizer.newInstance(
                    json,
                    Map.of("padding", "false", "truncation", "true", "maxLength", Integer.toString(model.maxTokens())));
        }
    }

    /** Token count of a passage, prefix and special tokens included. */
    public int tokens(String text) {
        return tokenizer.encode(model.passagePrefix() + text).getIds().length;
    }

    /** The passages' vectors from one padded model run over all of them. */
    public List<float[]> embedPadded(List<String> texts) throws OrtException {
        Encoding[] encodings = tokenizer.batchEncode(
                texts.stream().map(t -> model.passagePrefix() + t).toList());
        int width = 0;
        for (Encoding e : encodings) {
            width = Math.max(width, e.getIds().length);
        }
        long[] ids = new long[encodings.length * width];
        long[] mask = new long[ids.length];
        long[] types = new long[ids.length];
        for (int i = 0; i < encodings.length; i++) {
            long[] own = encodings[i].getIds();
            System.arraycopy(own, 0, ids, i * width, own.length);
            java.util.Arrays.fill(mask, i * width, i * width + own.length, 1L);
        }
        long[] shape = {encodings.length, width};
        try (OnnxTensor inputIds = OnnxTensor.createTensor(environment, LongBuffer.wrap(ids), shape);
                OnnxTensor attention = OnnxTensor.createTensor(environment, LongBuffer.wrap(mask), shape);
                OnnxTensor typeIds = OnnxTensor.createTensor(environment, LongBuffer.wrap(types), shape)) {
            Map<String, OnnxTensor> inputs = needsTokenTypes
                    ? Map.of("input_ids", inputIds, "attention_mask", attention, "token_type_ids", typeIds)
                    : Map.of("input_ids", inputIds, "attention_mask", attention);
            try (OrtSession.Result result = session.run(inputs)) {
                FloatBuffer hidden = ((OnnxTensor) result.get(0)).getFloatBuffer();
                List<float[]> vectors = new ArrayList<>(encodings.length);
                int dims = EmbeddingModel.DIMENSIONS;
                for (int i = 0; i < encodings.length; i++) {
                    int count = encodings[i].getIds().length;
                    FloatBuffer own = hidden.slice(i * width * dims, count * dims);
                    vectors.add(OnnxSentenceEmbedder.normalize(OnnxSentenceEmbedder.meanPool(own, count)));
                }
                return vectors;
            }
        }
    }

    private static InputStream open(String resource) {
        InputStream in = PaddedBatchProbe.class.getClassLoader().getResourceAsStream(resource);
        if (in == null) {
            throw new IllegalStateException(resource + " is not on the classpath");
        }
        return in;
    }

    @Override
    public void close() throws OrtException {
        session.close();
        tokenizer.close();
    }
}
