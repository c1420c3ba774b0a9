import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The load of {@code deploy/local/measure-rss.sh}: writes memories or runs {@code /query} calls over HTTP against a
 * running service, with a fixed seed so every measurement writes the same texts. JDK only, run from source:
 *
 * <pre>java deploy/local/rss/RssLoad.java write|query BASE_URL API_KEY COUNT CLIENTS SEED</pre>
 *
 * Writes: one sentence of 8-30 words per memory, and one in 20 a passage of 250-400 words (the model truncates at 512
 * tokens: the long passages are what grows ONNX Runtime's buffers). Prints the count, failures, seconds and rate;
 * exits 1 if more than 1% failed.
 */
public final class RssLoad {

    private static final String[] WORDS = ("user prefers dark mode deploys on fridays uses typescript likes espresso "
            + "works remote from lisbon travels to berlin in march plays chess reads science fiction allergic to "
            + "peanuts team lead of the payments squad migrates the billing service to kotlin meeting every tuesday "
            + "with ana the designer prefers short answers dislikes emojis birthday in october runs marathons "
            + "learning japanese owns a cat named miso uses neovim with lua config drinks green tea after lunch "
            + "on call next week budget approved for the new laptop wants weekly summaries on monday morning")
            .split(" ");
    private static final String[] CATEGORIES = {"preferences", "facts", "projects", "people", "events"};

    public static void main(String[] args) throws Exception {
        if (args.length != 6) {
            System.err.println("usage: RssLoad write|query BASE_URL API_KEY COUNT CLIENTS SEED");
            System.exit(2);
        }
        String mode = args[0];
        String base = args[1];
        String key = args[2];
        int count = Integer.parseInt(args[3]);
        int clients = Integer.parseInt(args[4]);
        long seed = Long.parseLong(args[5]);
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
        AtomicInteger next = new AtomicInteger();
        AtomicInteger failed = new AtomicInteger();
        long[] latencies = new long[count];
        long started = System.nanoTime();
        ExecutorService pool = Executors.newFixedThreadPool(clients);
        List<Future<?>> done = new ArrayList<>();
        for (int c = 0; c < clients; c++) {
            done.add(pool.submit(() -> {
                for (int i = next.getAndIncrement(); i < count; i = next.getAndIncrement()) {
                    Random random = new Random(seed * 1_000_003L + i);
                    String body = mode.equals("write") ? writeBody(random) : queryBody(random);
                    String path = mode.equals("write") ? "/memories" : "/query";
                    HttpRequest request = HttpRequest.newBuilder(URI.create(base + path))
                            .timeout(Duration.ofSeconds(60))
                            .header("Authorization", "Bearer " + key)
                            .header("Content-Type", "application/json")
                            .POST(HttpRequest.BodyPublishers.ofString(body))
                            .build();
                    long t0 = System.nanoTime();
                    try {
                        HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
                        if (response.statusCode() / 100 != 2) {
                            if (failed.incrementAndGet() <= 5) {
                                System.err.println(mode + " " + i + ": HTTP " + response.statusCode() + " "
                                        + response.body());
                            }
                        }
                    } catch (Exception e) {
                        if (failed.incrementAndGet() <= 5) {
                            System.err.println(mode + " " + i + ": " + e);
                        }
                    }
                    latencies[i] = System.nanoTime() - t0;
                }
                return null;
            }));
        }
        for (Future<?> f : done) {
            f.get();
        }
        pool.shutdown();
        double seconds = (System.nanoTime() - started) / 1e9;
        Arrays.sort(latencies);
        System.out.printf("%s: %d calls, %d failed, %.1f s, %.1f/s, latency p50 %.0f ms, p99 %.0f ms (%d clients)%n",
                mode, count, failed.get(), seconds, count / seconds, latencies[count / 2] / 1e6,
                latencies[Math.min(count - 1, count * 99 / 100)] / 1e6, clients);
        System.exit(failed.get() > count / 100 ? 1 : 0);
    }

    private static String writeBody(Random random) {
        boolean passage = random.nextInt(20) == 0;
        String content = words(random, passage ? 250 + random.nextInt(151) : 8 + random.nextInt(23));
        return "{\"content\":\"" + content + "\",\"category\":\"" + CATEGORIES[random.nextInt(CATEGORIES.length)]
                + "\",\"importance\":" + (1 + random.nextInt(5)) + "}";
    }

    private static String queryBody(Random random) {
        return "{\"query\":\"" + words(random, 4 + random.nextInt(8)) + "\",\"top_k\":5,\"budget_tokens\":300}";
    }

    private static String words(Random random, int n) {
        StringBuilder text = new StringBuilder();
        for (int w = 0; w < n; w++) {
            if (w > 0) {
                text.append(' ');
            }
            text.append(WORDS[random.nextInt(WORDS.length)]);
            if (random.nextInt(12) == 0) {
                text.append(' ').append(random.nextInt(10_000)); // numbers make texts distinct
            }
        }
        return text.toString();
    }
}
