package io.memorychain.bench;

import io.memorychain.embeddings.EmbeddingModel;
import io.memorychain.embeddings.OnnxSentenceEmbedder;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Cost of embedding with {@link OnnxSentenceEmbedder} per {@link EmbeddingModel} ({@code model}: minilm, bge-small,
 * e5-small; int8, ONNX Runtime, one caller thread): one ~20-word memory, a short search query in the query form, a
 * batch of {@value #BATCH} memories through {@code embedAll} (the figure is per batch: divide by {@value #BATCH} for a
 * text), and one text long enough to be truncated at the model's window (256 tokens for minilm, 512 for the others: the
 * worst case per memory). {@code intraOpThreads} 1 (the default) runs each model call on the caller's thread only; 0
 * adds ONNX Runtime's pool of one (non-spinning) thread per core. {@code arenaAllocator} true keeps ONNX Runtime's
 * arena and memory patterns (faster allocation, but the process keeps its peak).
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@State(Scope.Benchmark)
@Fork(
        value = 1,
        jvmArgsAppend = {"-Xmx1g"})
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 3)
public class EmbeddingBenchmark {

    static final int BATCH = 64;

    private static final String[] WHO = {
        "The user",
        "Ana",
        "The team lead",
        "Our customer",
        "The on-call engineer",
        "My manager",
        "The designer",
        "The new intern"
    };
    private static final String[] LIKES = {
        "prefers dark mode in the editor",
        "wants answers in Spanish",
        "is allergic to peanuts and shellfish",
        "uses Kubernetes for every deployment",
        "reviews pull requests early in the morning",
        "keeps meeting notes in a shared document",
        "likes short bullet points over long prose",
        "travels to Lisbon twice a month"
    };
    private static final String[] WHEN = {
        "since last spring",
        "when working from home",
        "during busy release weeks",
        "unless a customer is waiting",
        "after the quarterly planning",
        "on every project this year",
        "while the old laptop is being repaired",
        "according to the last retrospective"
    };

    @Param({"minilm", "bge-small", "e5-small"})
    public String model;

    @Param({"1", "0"})
    public int intraOpThreads;

    /**
     * ONNX Runtime's CPU arena and memory patterns: on by default, off in run.sh (docs/benchmarks.md "Memory of the
     * embedded service").
     */
    @Param({"false", "true"})
    public boolean arenaAllocator;

    private OnnxSentenceEmbedder embedder;
    private List<String> sentences;
    private String longText;
    private int next;

    @Setup(Level.Trial)
    public void setUp() {
        embedder = OnnxSentenceEmbedder.builder(EmbeddingModel.fromConfigName(model))
                .intraOpThreads(intraOpThreads)
                .arenaAllocator(arenaAllocator)
                .build();
        sentences = new ArrayList<>(BATCH);
        for (int i = 0; i < BATCH; i++) {
            sentences.add(WHO[i % WHO.length] + " " + LIKES[(i / WHO.length) % LIKES.length] + " "
                    + WHEN[(i * 3) % WHEN.length] + ", noted in memory number " + i + " of this space.");
        }
        StringBuilder text = new StringBuilder();
        for (int i = 0; text.length() < 10_000; i++) {
            text.append(sentences.get(i % BATCH)).append(' ');
        }
        longText = text.toString();
        double words = sentences.stream()
                .mapToInt(s -> s.split("\\s+").length)
                .average()
                .orElse(0);
        System.out.printf(
                "%n[setup] %s, %d sentences of %.1f words on average, long text of %d chars%n",
                embedder.modelId(), BATCH, words, longText.length());
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        embedder.close();
    }

    /** One ~20-word sentence (a different one each call). */
    @Benchmark
    public float[] embedSentence() {
        String sentence = sentences.get(next);
        next = (next + 1) % BATCH;
        return embedder.embed(sentence);
    }

    /** One short search question, embedded in the query form (with the model's query prefix, if any). */
    @Benchmark
    public float[] embedQuery() {
        String sentence = sentences.get(next);
        next = (next + 1) % BATCH;
        return embedder.embedQuery("what does " + sentence.substring(0, sentence.indexOf(' ', 12)) + " prefer?");
    }

    /** {@value #BATCH} ~20-word sentences through {@code embedAll}: the time is for the whole batch. */
    @Benchmark
    public List<float[]> embedAll64() {
        return embedder.embedAll(sentences);
    }

    /** A 10,000-character text, truncated to the model's window (256 or 512 tokens). */
    @Benchmark
    public float[] embedLongText() {
        return embedder.embed(longText);
    }
}
