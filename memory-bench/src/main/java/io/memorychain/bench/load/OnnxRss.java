package io.memorychain.bench.load;

import io.memorychain.embeddings.EmbeddingModel;
import io.memorychain.embeddings.OnnxSentenceEmbedder;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * The resident memory an embedder adds to a process, with and without ONNX Runtime's arena allocator
 * (docs/benchmarks.md "Memory of the embedded service"): VmRSS before the model, after loading it, after
 * {@code --short} memories of the write harness's kind, and after {@code --long} passages truncated at the model's
 * window, with the time per memory of each phase (one caller thread). Run once per setting, each in a fresh JVM, so one
 * does not inherit the other's heap:
 *
 * <p>{@code java -Xmx256m -XX:+UseSerialGC -cp memory-bench/target/benchmarks.jar io.memorychain.bench.load.OnnxRss
 * [--model e5-small] [--arena false] [--short 400] [--long 40]}
 */
public final class OnnxRss {

    private static final String[] WORDS = ("user prefers dark mode deploys on fridays uses typescript likes espresso "
                    + "meeting notes project deadline budget review travel plans allergy peanuts timezone berlin kubernetes "
                    + "cluster invoice quarterly goals hiring roadmap release candidate customer feedback latency")
            .split(" ");

    private OnnxRss() {}

    public static void main(String[] args) throws IOException {
        var opts = HarnessSupport.options(args, "[--model e5-small] [--arena false] [--short 400] [--long 40]");
        EmbeddingModel model = EmbeddingModel.fromConfigName(opts.getOrDefault("model", "e5-small"));
        boolean arena = Boolean.parseBoolean(opts.getOrDefault("arena", "false"));
        int shortCount = Integer.parseInt(opts.getOrDefault("short", "400"));
        int longCount = Integer.parseInt(opts.getOrDefault("long", "40"));
        Random random = new Random(11);
        List<String> shortTexts = new ArrayList<>();
        for (int i = 0; i < shortCount; i++) {
            shortTexts.add(sentence(random));
        }
        List<String> longTexts = new ArrayList<>();
        for (int i = 0; i < longCount; i++) {
            StringBuilder text = new StringBuilder();
            while (text.length() < 3_000) {
                text.append(sentence(random)).append(' ');
            }
            longTexts.add(text.toString());
        }
        System.out.printf("model %s, arena allocator %s, load average %s%n", model, arena, loadAverage());
        System.out.printf("before the model: %d MiB%n", rssMib());
        try (OnnxSentenceEmbedder embedder =
                OnnxSentenceEmbedder.builder(model).arenaAllocator(arena).build()) {
            System.out.printf("model loaded: %d MiB%n", rssMib());
            phase(embedder, shortTexts, "short memories");
            phase(embedder, longTexts, "long passages");
            phase(embedder, shortTexts, "short memories again");
        }
        System.out.printf("load average %s%n", loadAverage());
    }

    private static void phase(OnnxSentenceEmbedder embedder, List<String> texts, String what) throws IOException {
        long started = System.nanoTime();
        for (String text : texts) {
            embedder.embed(text);
        }
        double ms = (System.nanoTime() - started) / 1e6 / texts.size();
        System.out.printf("after %d %s: %d MiB, %.2f ms each%n", texts.size(), what, rssMib(), ms);
    }

    /** A memory like the write harness's ({@link LoadGenerator}): 20-59 words and a number. */
    private static String sentence(Random random) {
        String[] words = WORDS;
        StringBuilder text = new StringBuilder();
        for (int i = 20 + random.nextInt(40); i > 0; i--) {
            text.append(words[random.nextInt(words.length)]).append(' ');
        }
        return text.append('#').append(random.nextInt(1_000_000)).toString();
    }

    private static long rssMib() throws IOException {
        return Files.readAllLines(Path.of("/proc/self/status")).stream()
                .filter(l -> l.startsWith("VmRSS:"))
                .mapToLong(l -> Long.parseLong(l.replaceAll("\\D", "")) / 1024)
                .findFirst()
                .orElse(-1);
    }

    private static String loadAverage() throws IOException {
        return Files.readString(Path.of("/proc/loadavg")).trim();
    }
}
