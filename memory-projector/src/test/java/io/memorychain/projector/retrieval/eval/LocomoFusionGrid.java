package io.memorychain.projector.retrieval.eval;

import io.memorychain.avro.MemoryEmbedding;
import io.memorychain.projector.SharedEmbedder;
import io.memorychain.projector.retrieval.RankingWeights;
import io.memorychain.projector.retrieval.eval.Locomo.Conversation;
import io.memorychain.projector.retrieval.eval.Locomo.Question;
import io.memorychain.projector.retrieval.eval.Locomo.Turn;
import io.memorychain.projector.search.Hit;
import io.memorychain.projector.search.SearchMode;
import io.memorychain.projector.search.SearchRequest;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * The fusion grid on LoCoMo TUNE only (never REPORT): BM25 and cosine of every turn for every question, fused in memory
 * under each candidate setting, printed as one line per setting (hit@5, MRR on all questions). Not part of the suite
 * (no "Test" suffix); run with {@code -Dtest=LocomoFusionGrid -Dlocomo.zip=...}.
 */
class LocomoFusionGrid {

    private record Signals(
            Question question, Map<Integer, Double> bm25, double[] cos, int[] prev, int[] next, String[] turns) {}

    @Test
    void printsTheGrid() {
        Path zip = Locomo.zip().orElse(null);
        Assumptions.assumeTrue(zip != null, "LoCoMo data absent: run with -Dlocomo.zip=/path/to/locomo10.zip");
        List<Conversation> conversations = Locomo.read(zip, Locomo.TUNE);
        List<Signals> all = new ArrayList<>();
        try (LocomoSplit split = new LocomoSplit(conversations, SharedEmbedder.get())) {
            for (Conversation c : conversations) {
                Map<String, Integer> indexOfTurn = new HashMap<>();
                for (int i = 0; i < c.turns().size(); i++) {
                    indexOfTurn.put(c.turns().get(i).diaId(), i);
                }
                int n = c.turns().size();
                int[] prev = new int[n];
                int[] next = new int[n];
                String[] turns = new String[n];
                for (int i = 0; i < n; i++) {
                    Turn t = c.turns().get(i);
                    turns[i] = t.diaId();
                    prev[i] = i > 0 && c.turns().get(i - 1).session() == t.session() ? i - 1 : -1;
                    next[i] = i + 1 < n && c.turns().get(i + 1).session() == t.session() ? i + 1 : -1;
                }
                float[][] vectors = new float[n][];
                Map<String, Integer> indexOfId = new HashMap<>();
                for (String id : split.ids(c)) {
                    int i = indexOfTurn.get(split.chain.turn(id));
                    indexOfId.put(id, i);
                    MemoryEmbedding e =
                            split.harness.views.embedding(c.space(), id).orElseThrow();
                    vectors[i] = new float[e.getVector().size()];
                    for (int d = 0; d < vectors[i].length; d++) {
                        vectors[i][d] = e.getVector().get(d);
                    }
                }
                for (Question q : c.questions()) {
                    float[] qv = SharedEmbedder.get().embedQuery(q.text());
                    double[] cos = new double[n];
                    for (int i = 0; i < n; i++) {
                        double dot = 0;
                        for (int d = 0; d < qv.length; d++) {
                            dot += qv[d] * vectors[i][d];
                        }
                        cos[i] = dot;
                    }
                    Map<Integer, Double> bm25 = new HashMap<>();
                    for (Hit h : split.harness.views.search(SearchRequest.builder(c.space())
                            .mode(SearchMode.BM25)
                            .text(q.text())
                            .topK(200)
                            .build())) {
                        bm25.put(indexOfId.get(h.id()), (double) h.score());
                    }
                    all.add(new Signals(q, bm25, cos, prev, next, turns));
                }
            }
            RankingWeights d = RankingWeights.DEFAULTS;
            for (double[] v : GridSettings.of(PIPELINE_SETTINGS)) {
                RankingWeights w = d.withFusion((int) v[4], v[0], v[5], v[1], v[2]);
                LocomoEvaluation.Means m = LocomoEvaluation.run("P", conversations, split.pipeline(w))
                        .overall();
                System.out.printf(
                        Locale.ROOT,
                        "PIPELINE kw %.1f prev %.1f next %.1f cand %.0f covered %.1f  hit@5 %.3f hit@10 %.3f R@10 %.3f"
                                + " MRR %.3f%n",
                        v[0],
                        v[1],
                        v[2],
                        v[4],
                        v[5],
                        m.hit5(),
                        m.hit10(),
                        m.recall10(),
                        m.mrr());
            }
        }
        System.out.println(
                "setting                                   hit@5  MRR   (TUNE, " + all.size() + " questions)");
        for (String norm : SIMULATED_NORMS) {
            for (int depth : new int[] {40, 100}) {
                for (double w : new double[] {0.2, 0.3, 0.4, 0.5, 0.6, 0.7}) {
                    for (double prevW : new double[] {0, 0.3, 0.5, 0.8}) {
                        for (double nextW : new double[] {0, 0.2, 0.4}) {
                            double[] m = score(all, norm, depth, w, prevW, nextW);
                            System.out.printf(
                                    Locale.ROOT,
                                    "GRID %-10s depth %3d kw %.1f prev %.1f next %.1f   %.3f %.3f%n",
                                    norm,
                                    depth,
                                    w,
                                    prevW,
                                    nextW,
                                    m[0],
                                    m[1]);
                        }
                    }
                }
            }
        }
    }

    private static final List<String> SIMULATED_NORMS =
            List.of(System.getProperty("grid.norms", "max/minmax,z,rrf").split(","));

    /** keyword, previousTurn, nextTurn: the real pipeline on TUNE for the best simulated settings. */
    private static final double[][] PIPELINE_SETTINGS = {
        {0.3, 0.5, 0.2, 100, 40, 0.3}, {0.2, 0.5, 0.2, 100, 40, 0.6}, {0.3, 0.5, 0.2, 100, 40, 0.6},
        {0.3, 0.5, 0.2, 100, 40, 0.7}, {0.2, 0.5, 0.2, 100, 40, 0.8}, {0.3, 0.5, 0.2, 100, 40, 0.8},
        {0.3, 0.5, 0.2, 100, 80, 0.7}, {0.3, 0.5, 0.2, 100, 80, 0.8}
    };

    /** Mean hit@5 and MRR@10 over the questions. */
    private static double[] score(List<Signals> all, String norm, int depth, double w, double prevW, double nextW) {
        double hit = 0;
        double mrr = 0;
        for (Signals s : all) {
            int n = s.cos.length;
            // candidates: BM25 top depth and cosine top depth
            List<Integer> byCos = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                byCos.add(i);
            }
            byCos.sort((a, b) -> Double.compare(s.cos[b], s.cos[a]));
            List<Integer> byBm = new ArrayList<>(s.bm25.keySet());
            byBm.sort((a, b) -> Double.compare(s.bm25.get(b), s.bm25.get(a)));
            double[] kw = new double[n];
            double[] mean = new double[n];
            boolean[] cand = new boolean[n];
            for (int r = 0; r < Math.min(depth, byBm.size()); r++) {
                cand[byBm.get(r)] = true;
            }
            for (int r = 0; r < Math.min(depth, n); r++) {
                cand[byCos.get(r)] = true;
            }
            if (norm.equals("rrf")) {
                for (int r = 0; r < Math.min(depth, byBm.size()); r++) {
                    kw[byBm.get(r)] = 1.0 / (60 + r + 1);
                }
                for (int r = 0; r < Math.min(depth, n); r++) {
                    mean[byCos.get(r)] = 1.0 / (60 + r + 1);
                }
            } else {
                double max = byBm.isEmpty() ? 1 : s.bm25.get(byBm.get(0));
                double min = Double.MAX_VALUE;
                double maxC = -Double.MAX_VALUE;
                double sum = 0;
                double sq = 0;
                int k = 0;
                double bs = 0;
                double bq = 0;
                int bk = 0;
                for (int i = 0; i < n; i++) {
                    if (cand[i]) {
                        min = Math.min(min, s.cos[i]);
                        maxC = Math.max(maxC, s.cos[i]);
                        sum += s.cos[i];
                        sq += s.cos[i] * s.cos[i];
                        k++;
                        double b = s.bm25.getOrDefault(i, 0.0);
                        bs += b;
                        bq += b * b;
                        bk++;
                    }
                }
                double mu = sum / k;
                double sd = Math.sqrt(Math.max(1e-9, sq / k - mu * mu));
                double bmu = bs / bk;
                double bsd = Math.sqrt(Math.max(1e-9, bq / bk - bmu * bmu));
                for (int i = 0; i < n; i++) {
                    double b = s.bm25.getOrDefault(i, 0.0);
                    if (norm.equals("z")) {
                        kw[i] = (b - bmu) / bsd;
                        mean[i] = (s.cos[i] - mu) / sd;
                    } else {
                        kw[i] = max > 0 ? b / max : 0;
                        mean[i] = maxC > min ? (s.cos[i] - min) / (maxC - min) : 1;
                    }
                }
            }
            double[] base = new double[n];
            for (int i = 0; i < n; i++) {
                base[i] = w * kw[i] + (1 - w) * mean[i];
            }
            List<double[]> ranked = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                boolean near = cand[i] || (s.prev[i] >= 0 && cand[s.prev[i]]) || (s.next[i] >= 0 && cand[s.next[i]]);
                if (!near) {
                    continue;
                }
                double v = base[i]
                        + (s.prev[i] >= 0 ? prevW * base[s.prev[i]] : 0)
                        + (s.next[i] >= 0 ? nextW * base[s.next[i]] : 0);
                ranked.add(new double[] {i, v});
            }
            ranked.sort((a, b) -> Double.compare(b[1], a[1]));
            for (int r = 0; r < Math.min(10, ranked.size()); r++) {
                if (s.question.evidence().contains(s.turns[(int) ranked.get(r)[0]])) {
                    hit += r < 5 ? 1 : 0;
                    mrr += 1.0 / (r + 1);
                    break;
                }
            }
        }
        return new double[] {hit / all.size(), mrr / all.size()};
    }
}
