package io.memorychain.bench.search;

import io.memorychain.avro.Memory;
import io.memorychain.avro.MemoryKind;
import io.memorychain.avro.MemoryState;
import io.memorychain.avro.Tier;
import io.memorychain.projector.search.IndexEntry;
import java.time.Instant;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Random;
import java.util.SplittableRandom;

/**
 * Deterministic generated memories for the search benchmarks: 20-60 words drawn from a 20,000-word pronounceable
 * vocabulary with a Zipf(1) frequency law (so BM25 sees realistic posting lists), random unit vectors, ten users, five
 * categories, importance 1-5, one space. The content words of {@link NaturalQueries} take the vocabulary ranks from
 * {@value #ENGLISH_FROM} on (each in roughly 1.5-4% of the memories), so natural queries match too. Generated lazily,
 * so 100k memories never sit in the heap twice.
 */
final class SyntheticMemories {

    static final String SPACE = "bench";
    static final int USERS = 10;
    private static final List<String> CATEGORIES = List.of("tasks", "projects", "preferences", "events", "knowledge");
    private static final String[] SYLLABLES = ("ka ri to na me so lu vi de pa ro ti ne ma su be lo fi ga ze "
                    + "mo ra ke di no pu sa te li vo")
            .split(" ");
    private static final int VOCABULARY = 20_000;
    private static final int ENGLISH_FROM = 100;

    private final String[] words = new String[VOCABULARY];
    private final double[] cumulative = new double[VOCABULARY];
    private final int dims;

    SyntheticMemories(int dims) {
        this.dims = dims;
        Random random = new Random(1);
        double total = 0;
        for (int i = 0; i < VOCABULARY; i++) {
            StringBuilder w = new StringBuilder();
            int syllables = 2 + random.nextInt(3);
            for (int s = 0; s < syllables; s++) {
                w.append(SYLLABLES[random.nextInt(SYLLABLES.length)]);
            }
            words[i] = w.toString();
            total += 1.0 / (i + 1);
            cumulative[i] = total;
        }
        for (int i = 0; i < VOCABULARY; i++) {
            cumulative[i] /= total;
        }
        List<String> english = NaturalQueries.contentWords();
        for (int i = 0; i < english.size(); i++) {
            words[ENGLISH_FROM + i] = english.get(i);
        }
    }

    String word(SplittableRandom random) {
        int i = Arrays.binarySearch(cumulative, random.nextDouble());
        return words[Math.min(i < 0 ? -i - 1 : i, VOCABULARY - 1)];
    }

    /** Query text: a few words, skipping the ~100 most frequent (real queries carry content words). */
    String query(SplittableRandom random, int n) {
        StringBuilder q = new StringBuilder();
        while (n > 0) {
            int i = Arrays.binarySearch(cumulative, random.nextDouble());
            i = Math.min(i < 0 ? -i - 1 : i, VOCABULARY - 1);
            if (i >= 100) {
                q.append(q.length() == 0 ? "" : " ").append(words[i]);
                n--;
            }
        }
        return q.toString();
    }

    float[] unitVector(SplittableRandom random) {
        float[] v = new float[dims];
        double norm = 0;
        for (int i = 0; i < dims; i++) {
            double g = gaussian(random);
            v[i] = (float) g;
            norm += g * g;
        }
        float inv = (float) (1 / Math.sqrt(norm));
        for (int i = 0; i < dims; i++) {
            v[i] *= inv;
        }
        return v;
    }

    private static double gaussian(SplittableRandom random) {
        double u = random.nextDouble();
        double v = random.nextDouble();
        return Math.sqrt(-2 * Math.log(Math.max(u, 1e-300))) * Math.cos(2 * Math.PI * v);
    }

    Memory memory(int n, SplittableRandom random) {
        int length = 20 + random.nextInt(41);
        StringBuilder content = new StringBuilder();
        for (int i = 0; i < length; i++) {
            content.append(i == 0 ? "" : " ").append(word(random));
        }
        Instant at = Instant.parse("2025-01-01T00:00:00Z").plusSeconds(n * 60L);
        return Memory.newBuilder()
                .setId(String.format("m%08d", n))
                .setSpace(SPACE)
                .setKind(MemoryKind.SEMANTIC)
                .setTier(Tier.WORKING)
                .setContent(content.toString())
                .setSummary(null)
                .setTags(List.of(word(random), word(random)))
                .setImportance(1 + random.nextInt(5))
                .setCategory(CATEGORIES.get(random.nextInt(CATEGORIES.size())))
                .setUserId("user" + random.nextInt(USERS))
                .setAgentId("agent")
                .setRole("user")
                .setCreatedAt(at)
                .setUpdatedAt(at)
                .setVersion(1)
                .setState(MemoryState.ACTIVE)
                .setContentHash("0".repeat(64))
                .build();
    }

    /** Memories 0..count-1 with their vectors, as a store scan would feed a rebuild. */
    Iterator<IndexEntry> entries(int count, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        return new Iterator<>() {
            private int next;

            @Override
            public boolean hasNext() {
                return next < count;
            }

            @Override
            public IndexEntry next() {
                if (!hasNext()) {
                    throw new NoSuchElementException();
                }
                Memory m = memory(next++, random);
                return new IndexEntry(m, unitVector(random));
            }
        };
    }
}
