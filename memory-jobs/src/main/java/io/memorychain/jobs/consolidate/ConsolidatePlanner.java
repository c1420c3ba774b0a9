package io.memorychain.jobs.consolidate;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.ToLongFunction;
import java.util.regex.Pattern;

/**
 * The daily consolidation planner of one space (docs/architecture.md §12, §16 section 4): a pure function of the
 * memories it is given, the chain time of the run and its own remembered fingerprints. No I/O, no model, no clock.
 *
 * <p>Near-exact means cosine >= {@code nearExact} <em>or</em> the same text once case, punctuation and whitespace are
 * ignored ({@link #normalized}): measured copies differing only in those score 0.93-1.00 with the embedder, which
 * overlaps numeric steps (0.92-0.96), so cosine alone cannot find them all without merging different values.
 *
 * <p><b>When</b>: {@link #due(Instant)} is true when no run happened yet or the previous run is at least
 * {@code interval} of chain time older ({@code occurred_at} of the events, never the wall clock), so a replay of the
 * chain plans the same runs. The run's id is the period index {@code floor(epochSecond / interval)}.
 *
 * <p><b>Pool</b>: mergeable memories (active, semantic, not constitutional, not pinned, embedded) created or updated
 * within {@code poolWindow} (72 h) before the run, or of importance >= {@code poolImportance} (3), or frequently
 * retrieved: in the top decile ({@link #TOP_ACCESS_FRACTION}) of the space's mergeable memories by read count
 * ({@link #frequentlyRead}: the counts of {@code memory.access.v1} under the rule every reader of that topic shares,
 * {@code AccessCounts}; a memory never read is never frequent, and ties at the decile's edge are all in).
 *
 * <p><b>Pairs</b>: each pool memory against every mergeable memory of the space last written within {@code recency} (90
 * days). Prefilters, no model: cosine >= {@code nearExact} is a near-exact duplicate (merged without a model); cosine
 * in [{@code bandLow}, {@code nearExact}) with a shared content word or a numeric step (the same text apart from
 * numbers) is a candidate for the model. Pairs whose fingerprint {@code (id_a, id_b, round(score, 2))} was planned
 * within {@code fingerprintTtl} (14 days) are skipped. Selection is greedy by score (then ids), each memory in at most
 * one pair per run, at most {@code maxPairs} pairs; the selected pairs' fingerprints are remembered whatever the model
 * later answers (a failed check is not retried for 14 days: the cost cap wins).
 */
public final class ConsolidatePlanner {

    /** Why a pair was selected. */
    public enum Signal {
        NEAR_EXACT,
        LEXICAL,
        NUMERIC_STEP
    }

    /** A selected pair: {@code a.id() < b.id()}. */
    public record Pair(MemoryItem a, MemoryItem b, double score, Signal signal) {

        public String fingerprint() {
            return fingerprint(a.id(), b.id(), score);
        }

        static String fingerprint(String idA, String idB, double score) {
            return idA + "|" + idB + "|" + String.format(Locale.ROOT, "%.2f", score);
        }
    }

    /**
     * One run's plan.
     *
     * @param period the run's period index (its id within the space)
     * @param nearExact pairs to merge without a model
     * @param toCheck pairs for the model's same-fact check
     * @param pool the pool's size
     * @param considered pairs that passed the cosine band and recency (before fingerprints and caps)
     * @param capped pairs left out by the cap or because a memory was already in a pair of this run
     * @param remembered pairs skipped because their fingerprint is remembered
     */
    public record Plan(
            String space,
            Instant at,
            long period,
            List<Pair> nearExact,
            List<Pair> toCheck,
            int pool,
            int considered,
            int capped,
            int remembered) {}

    private static final Pattern WORD = Pattern.compile("[\\p{L}\\p{N}]+");
    private static final Pattern NUMBER = Pattern.compile("\\d+(?:[.,]\\d+)?");
    private static final Set<String> STOP = Set.of(
            "the", "and", "for", "with", "that", "this", "from", "are", "was", "were", "has", "have", "had", "not",
            "but", "his", "her", "its", "they", "them", "their", "user", "users", "you", "your", "our", "all", "any",
            "can", "will", "would", "should", "into", "over", "about", "also", "every", "some", "more", "most", "very",
            "than", "then", "who", "what", "when", "where", "which", "does");

    private final ConsolidateSettings settings;
    /** fingerprint -> chain time it was planned. */
    private final Map<String, Instant> fingerprints = new HashMap<>();

    private Instant lastRun;

    public ConsolidatePlanner(ConsolidateSettings settings) {
        this.settings = Objects.requireNonNull(settings, "settings");
    }

    /** True when a run is due at chain time {@code now}. */
    public boolean due(Instant now) {
        return lastRun == null || !now.isBefore(lastRun.plus(settings.interval()));
    }

    public Optional<Instant> lastRun() {
        return Optional.ofNullable(lastRun);
    }

    public int fingerprints() {
        return fingerprints.size();
    }

    /** The share of the space's mergeable memories, most read first, that is "frequently retrieved": a decile. */
    public static final double TOP_ACCESS_FRACTION = 0.1;

    /** Plans a run at chain time {@code now} if one is due, with no read counts (no memory is frequently read). */
    public Optional<Plan> plan(String space, Collection<MemoryItem> memories, Instant now) {
        return plan(space, memories, id -> 0L, now);
    }

    /**
     * Plans a run at chain time {@code now} if one is due, and remembers it and its pairs' fingerprints.
     *
     * @param reads each memory's read count (0 when never read)
     */
    public Optional<Plan> plan(
            String space, Collection<MemoryItem> memories, ToLongFunction<String> reads, Instant now) {
        if (!due(now)) {
            return Optional.empty();
        }
        lastRun = now;
        fingerprints.values().removeIf(at -> !at.plus(settings.fingerprintTtl()).isAfter(now));
        List<MemoryItem> mergeable = memories.stream()
                .filter(MemoryItem::mergeable)
                .filter(m -> !m.updatedAt().isBefore(now.minus(settings.recency())))
                .sorted(Comparator.comparing(MemoryItem::id))
                .toList();
        Instant poolFrom = now.minus(settings.poolWindow());
        Set<String> frequent = frequentlyRead(mergeable, reads);
        List<MemoryItem> pool = mergeable.stream()
                .filter(m -> !m.updatedAt().isBefore(poolFrom)
                        || !m.createdAt().isBefore(poolFrom)
                        || m.importance() >= settings.poolImportance()
                        || frequent.contains(m.id()))
                .toList();
        Set<String> poolIds = new HashSet<>();
        pool.forEach(m -> poolIds.add(m.id()));
        List<Pair> candidates = new ArrayList<>();
        for (MemoryItem p : pool) {
            for (MemoryItem o : mergeable) {
                if (o.id().equals(p.id()) || (poolIds.contains(o.id()) && o.id().compareTo(p.id()) < 0)) {
                    continue; // itself, or a pool pair already seen from the other side
                }
                MemoryItem a = p.id().compareTo(o.id()) < 0 ? p : o;
                MemoryItem b = a == p ? o : p;
                double score = cosine(a.vector(), b.vector());
                if (score >= settings.nearExact() || normalized(a.content()).equals(normalized(b.content()))) {
                    candidates.add(new Pair(a, b, score, Signal.NEAR_EXACT));
                } else if (score >= settings.bandLow()) {
                    if (numericStep(a.content(), b.content())) {
                        candidates.add(new Pair(a, b, score, Signal.NUMERIC_STEP));
                    } else if (sharesContentWord(a.content(), b.content())) {
                        candidates.add(new Pair(a, b, score, Signal.LEXICAL));
                    }
                }
            }
        }
        candidates.sort(Comparator.comparingDouble(Pair::score)
                .reversed()
                .thenComparing(x -> x.a().id())
                .thenComparing(x -> x.b().id()));
        Set<String> used = new HashSet<>();
        List<Pair> nearExact = new ArrayList<>();
        List<Pair> toCheck = new ArrayList<>();
        int capped = 0;
        int remembered = 0;
        for (Pair pair : candidates) {
            if (fingerprints.containsKey(pair.fingerprint())) {
                remembered++;
                continue;
            }
            if (nearExact.size() + toCheck.size() >= settings.maxPairs()
                    || used.contains(pair.a().id())
                    || used.contains(pair.b().id())) {
                capped++;
                continue;
            }
            used.add(pair.a().id());
            used.add(pair.b().id());
            fingerprints.put(pair.fingerprint(), now);
            (pair.signal() == Signal.NEAR_EXACT ? nearExact : toCheck).add(pair);
        }
        long period = Math.floorDiv(now.getEpochSecond(), settings.interval().getSeconds());
        return Optional.of(new Plan(
                space,
                now,
                period,
                List.copyOf(nearExact),
                List.copyOf(toCheck),
                pool.size(),
                candidates.size(),
                capped,
                remembered));
    }

    /**
     * The ids of the memories in the top decile by read count: sorted by count, most read first, the count of the
     * {@code ceil(n * 0.1)}-th memory is the threshold, and every memory read at least that often (and at least once)
     * is in. Deterministic: a function of the memories and their counts only.
     */
    static Set<String> frequentlyRead(List<MemoryItem> memories, ToLongFunction<String> reads) {
        if (memories.isEmpty()) {
            return Set.of();
        }
        Map<String, Long> counts = new HashMap<>();
        memories.forEach(m -> counts.put(m.id(), reads.applyAsLong(m.id())));
        List<Long> sorted =
                counts.values().stream().sorted(Comparator.reverseOrder()).toList();
        int k = (int) Math.ceil(sorted.size() * TOP_ACCESS_FRACTION);
        long threshold = Math.max(1L, sorted.get(k - 1));
        Set<String> frequent = new HashSet<>();
        counts.forEach((id, count) -> {
            if (count >= threshold) {
                frequent.add(id);
            }
        });
        return frequent;
    }

    /** Cosine similarity; 0 for vectors of different length or zero norm. */
    public static double cosine(float[] a, float[] b) {
        if (a == null || b == null || a.length != b.length) {
            return 0;
        }
        double dot = 0;
        double na = 0;
        double nb = 0;
        for (int i = 0; i < a.length; i++) {
            dot += (double) a[i] * b[i];
            na += (double) a[i] * a[i];
            nb += (double) b[i] * b[i];
        }
        return na == 0 || nb == 0 ? 0 : dot / Math.sqrt(na * nb);
    }

    /** Lower case, letters and digits only, single spaces: equal for copies differing in case/punctuation/spaces. */
    static String normalized(String text) {
        return text.toLowerCase(Locale.ROOT).replaceAll("[^\\p{L}\\p{N}]+", " ").strip();
    }

    /** At least one shared content word (letters/digits, >= 3 characters, not a stop word), case-insensitive. */
    static boolean sharesContentWord(String a, String b) {
        Set<String> words = contentWords(a);
        return contentWords(b).stream().anyMatch(words::contains);
    }

    /** The same text (case-insensitive) apart from its numbers, which differ. */
    static boolean numericStep(String a, String b) {
        String la = a.toLowerCase(Locale.ROOT).strip();
        String lb = b.toLowerCase(Locale.ROOT).strip();
        if (la.equals(lb) || !NUMBER.matcher(la).find()) {
            return false;
        }
        return NUMBER.matcher(la).replaceAll("#").equals(NUMBER.matcher(lb).replaceAll("#"));
    }

    private static Set<String> contentWords(String text) {
        Set<String> words = new HashSet<>();
        var m = WORD.matcher(text.toLowerCase(Locale.ROOT));
        while (m.find()) {
            String w = m.group();
            if (w.length() >= 3 && !STOP.contains(w)) {
                words.add(w);
            }
        }
        return words;
    }
}
