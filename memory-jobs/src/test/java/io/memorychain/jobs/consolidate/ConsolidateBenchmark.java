package io.memorychain.jobs.consolidate;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.memorychain.avro.ConsolidateMemories;
import io.memorychain.avro.MemoryRequest;
import io.memorychain.embeddings.OnnxSentenceEmbedder;
import io.memorychain.llm.ChatMessage;
import io.memorychain.llm.ChatModel;
import io.memorychain.llm.ChatRequest;
import io.memorychain.llm.ChatResult;
import io.memorychain.llm.TokenUsage;
import io.memorychain.projector.SharedEmbedder;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Consolidation benchmark (a harness, not a test): seeds one space with N memories made of distinct-but-similar facts
 * (the same sentence patterns about other people, values, places), near-exact copies (case, punctuation, whitespace)
 * and paraphrases of some of them, embeds them with the real embedder, runs the planner and {@link Consolidations}
 * without a model and with a scripted judge (answers from the ground truth; tokens estimated at 4 characters per
 * token), and prints duplicates removed, false merges, LLM calls and tokens per 1,000 memories. Also prints the
 * calibration pairs of {@link NearExactCalibration}. Run: {@code mvn -o -q -pl memory-worker exec:java
 * -Dexec.classpathScope=test -Dexec.mainClass=io.memorychain.jobs.consolidate.ConsolidateBenchmark -Dexec.args="1000
 * 50"} (after a reactor test-compile of memory-worker).
 */
public final class ConsolidateBenchmark {

    private static final String[] NAMES = {
        "Alice", "Bob", "Carol", "Dave", "Erin", "Frank", "Grace", "Heidi", "Ivan", "Judy", "Mallory", "Niaj", "Olivia",
        "Peggy", "Rupert", "Sybil", "Trent", "Victor", "Walter", "Yara"
    };
    /** {original, paraphrase}; {0} the name, {1} the value. */
    private static final String[][] TEMPLATES = {
        {"{0} is allergic to {1}.", "{0} has an allergy to {1}."},
        {"{0} lives in {1}.", "{0}'s home city is {1}."},
        {"{0} works as a {1}.", "{0} is employed as a {1}."},
        {"{0} prefers {1} over coffee.", "{0} would rather drink {1} than coffee."},
        {"{0} runs {1} km every morning.", "Every morning {0} goes for a {1} km run."},
        {"{0} drives a {1}.", "{0}'s car is a {1}."},
        {"{0} has a dog named {1}.", "{0} owns a dog called {1}."},
        {"{0}'s favourite programming language is {1}.", "{0} likes programming in {1} best."},
    };

    private static final String[][] VALUES = {
        {"peanuts", "shellfish", "pollen", "cats", "penicillin", "gluten"},
        {"Berlin", "Paris", "Madrid", "Lisbon", "Vienna", "Oslo"},
        {"nurse", "teacher", "pilot", "carpenter", "lawyer", "chef"},
        {"green tea", "black tea", "orange juice", "hot chocolate", "water", "mate"},
        {"3", "5", "8", "10", "12", "15"},
        {"red Toyota", "blue Volvo", "black Tesla", "white Fiat", "green Skoda", "grey Honda"},
        {"Rex", "Bella", "Max", "Luna", "Rocky", "Daisy"},
        {"Kotlin", "Python", "Rust", "Go", "Haskell", "Java"},
    };
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Instant NOW = Instant.parse("2026-03-10T12:00:00Z");

    private record Seeded(MemoryItem item, int group) {}

    private ConsolidateBenchmark() {}

    public static void main(String[] args) {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 1000;
        OnnxSentenceEmbedder embedder = SharedEmbedder.get();
        System.out.println("calibration (cosine, " + embedder.modelId() + "):");
        for (String[] p : NearExactCalibration.PAIRS) {
            double s = ConsolidatePlanner.cosine(embedder.embed(p[1]), embedder.embed(p[2]));
            System.out.printf(Locale.ROOT, "| %s | %s / %s | %.3f |%n", p[0], p[1], p[2], s);
        }
        List<Seeded> seeded = seed(n, embedder);
        Map<String, Integer> groups = new HashMap<>();
        Map<String, Integer> textGroups = new HashMap<>();
        seeded.forEach(s -> {
            groups.put(s.item().id(), s.group());
            textGroups.put(s.item().content(), s.group());
        });
        long distinctGroups = seeded.stream().map(Seeded::group).distinct().count();
        long duplicates = n - distinctGroups;
        System.out.printf(
                Locale.ROOT,
                "%nseeded %d memories: %d facts, %d duplicates (near-exact copies and " + "paraphrases)%n",
                n,
                distinctGroups,
                duplicates);
        List<MemoryItem> items = seeded.stream().map(Seeded::item).toList();
        List<Integer> caps = new ArrayList<>();
        for (int i = 1; i < args.length; i++) {
            caps.add(Integer.parseInt(args[i]));
        }
        if (caps.isEmpty()) {
            caps.add(ConsolidateSettings.DEFAULT_MAX_PAIRS);
        }
        for (int maxPairs : caps) {
            for (boolean withModel : new boolean[] {false, true}) {
                run(items, groups, textGroups, duplicates, n, maxPairs, withModel);
            }
        }
    }

    private static void run(
            List<MemoryItem> items,
            Map<String, Integer> groups,
            Map<String, Integer> textGroups,
            long duplicates,
            int n,
            int maxPairs,
            boolean withModel) {
        {
            ConsolidateSettings settings = ConsolidateSettings.defaults().withMaxPairs(maxPairs);
            ConsolidatePlanner.Plan plan =
                    new ConsolidatePlanner(settings).plan("bench", items, NOW).orElseThrow();
            ConsolidateMetrics metrics = new ConsolidateMetrics();
            ChatModel judge = withModel ? new OracleJudge(textGroups) : null;
            Consolidations consolidations =
                    new Consolidations(space -> judge == null ? new Unconfigured() : judge, settings, metrics);
            List<MemoryRequest> requests = consolidations.requests(plan);
            int removed = 0;
            int falseMerges = 0;
            for (MemoryRequest r : requests) {
                List<String> ids = ((ConsolidateMemories) r.getOp()).getIds();
                if (groups.get(ids.get(0)).equals(groups.get(ids.get(1)))) {
                    removed++;
                } else {
                    falseMerges++;
                    System.out.println(
                            "  false merge: " + r.getRequestId() + " " + ((ConsolidateMemories) r.getOp()).getReason()
                                    + ": " + contentOf(items, ids.get(0)) + " / " + contentOf(items, ids.get(1)));
                }
            }
            double per1k = 1000.0 / n;
            System.out.printf(
                    Locale.ROOT,
                    "max-pairs %d, %s: pool %d, pairs considered %d, near-exact %d, checked %d, capped %d;"
                            + " duplicates removed %d of %d, false merges %d, LLM calls %d (%.1f per 1k memories), tokens %d"
                            + " (%.0f per 1k memories)%n",
                    maxPairs,
                    withModel ? "scripted model" : "no model",
                    plan.pool(),
                    plan.considered(),
                    plan.nearExact().size(),
                    plan.toCheck().size(),
                    plan.capped(),
                    removed,
                    duplicates,
                    falseMerges,
                    metrics.calls(),
                    metrics.calls() * per1k,
                    metrics.tokens(),
                    metrics.tokens() * per1k);
        }
    }

    private static String contentOf(List<MemoryItem> items, String id) {
        return items.stream()
                .filter(m -> m.id().equals(id))
                .findFirst()
                .map(MemoryItem::content)
                .orElse("?");
    }

    /** N memories: 70% distinct facts, 15% near-exact copies and 15% paraphrases of some of them; shuffled ids. */
    private static List<Seeded> seed(int n, OnnxSentenceEmbedder embedder) {
        Random random = new Random(42);
        List<String[]> facts = new ArrayList<>(); // {original, paraphrase}
        Set<String> used = new HashSet<>();
        int distinct = (int) Math.round(n * 0.7);
        while (facts.size() < distinct) {
            int t = random.nextInt(TEMPLATES.length);
            String name = NAMES[random.nextInt(NAMES.length)]
                    + (random.nextInt(4) == 0 ? "" : " " + (char) ('A' + random.nextInt(26)) + ".");
            String value = VALUES[t][random.nextInt(VALUES[t].length)];
            String original = TEMPLATES[t][0].replace("{0}", name).replace("{1}", value);
            if (used.add(original)) {
                facts.add(new String[] {
                    original, TEMPLATES[t][1].replace("{0}", name).replace("{1}", value)
                });
            }
        }
        List<String> texts = new ArrayList<>();
        List<Integer> group = new ArrayList<>();
        for (int i = 0; i < facts.size(); i++) {
            texts.add(facts.get(i)[0]);
            group.add(i);
        }
        int copies = (n - distinct) / 2;
        for (int i = 0; i < n - distinct; i++) {
            int g = random.nextInt(facts.size());
            String text = i < copies ? nearExactCopy(facts.get(g)[0], random) : facts.get(g)[1];
            texts.add(text);
            group.add(g);
        }
        List<Seeded> seeded = new ArrayList<>();
        List<Integer> order = new ArrayList<>();
        for (int i = 0; i < texts.size(); i++) {
            order.add(i);
        }
        java.util.Collections.shuffle(order, random);
        for (int k = 0; k < order.size(); k++) {
            int i = order.get(k);
            Instant at = NOW.minus(Duration.ofMinutes(1 + k));
            seeded.add(new Seeded(
                    new MemoryItem(
                            String.format("m%05d", k),
                            1,
                            true,
                            texts.get(i),
                            1,
                            true,
                            false,
                            false,
                            at,
                            at,
                            embedder.embed(texts.get(i))),
                    group.get(i)));
        }
        return seeded;
    }

    private static String nearExactCopy(String text, Random random) {
        return switch (random.nextInt(3)) {
            case 0 -> text.toLowerCase(Locale.ROOT);
            case 1 -> text.replace(".", "").replace("'", "");
            default -> text.replace(" ", "  ").toUpperCase(Locale.ROOT);
        };
    }

    private static final class Unconfigured implements ChatModel {
        @Override
        public ChatResult complete(ChatRequest request) {
            throw new IllegalStateException("not configured");
        }

        @Override
        public boolean configured() {
            return false;
        }

        @Override
        public String modelName() {
            return null;
        }
    }

    /** Answers each pair from the ground truth (a perfect judge); usage estimated at 4 characters per token. */
    private static final class OracleJudge implements ChatModel {
        private static final Pattern PAIR = Pattern.compile("(p\\d+):\\n  A: (.*)\\n  B: (.*)\\n");
        private final Map<String, Integer> byText;

        OracleJudge(Map<String, Integer> byText) {
            this.byText = byText;
        }

        @Override
        public ChatResult complete(ChatRequest request) {
            String prompt =
                    request.messages().stream().map(ChatMessage::content).reduce("", String::concat);
            String user = request.messages().get(request.messages().size() - 1).content();
            ObjectNode root = JSON.createObjectNode();
            ArrayNode pairs = root.putArray("pairs");
            Matcher m = PAIR.matcher(user);
            while (m.find()) {
                boolean same = group(m.group(2)) == group(m.group(3)) && group(m.group(2)) >= 0;
                pairs.addObject().put("id", m.group(1)).put("same_fact", same).put("merged", same ? m.group(2) : "");
            }
            String content = root.toString();
            JsonNode json = root;
            return new ChatResult.Completed(
                    content,
                    json,
                    "oracle",
                    new TokenUsage(prompt.length() / 4, content.length() / 4),
                    1,
                    Duration.ZERO);
        }

        private int group(String text) {
            return byText.getOrDefault(text, -1);
        }

        @Override
        public boolean configured() {
            return true;
        }

        @Override
        public String modelName() {
            return "oracle";
        }
    }
}
