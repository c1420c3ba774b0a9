package io.memorychain.projector.retrieval.eval;

import io.memorychain.projector.retrieval.eval.Locomo.Conversation;
import io.memorychain.projector.retrieval.eval.Locomo.Question;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Predicate;

/**
 * Evidence-turn retrieval on LoCoMo: every question's top 10 turns scored against its evidence turns. Hit@k: any
 * evidence turn in the top k; recall@10: the share of the evidence turns in the top 10; MRR: 1 / rank of the first
 * evidence turn within the top 10 (0 if none).
 */
public final class LocomoEvaluation {

    public static final int DEPTH = 10;

    private LocomoEvaluation() {}

    /** Answers a question of a conversation with turn ids ("D3:5"), best first, at most {@code k}. */
    @FunctionalInterface
    public interface TurnRetriever {
        List<String> retrieve(Conversation conversation, Question question, int k);
    }

    /** One question's scores. */
    public record Outcome(Question question, double hit5, double hit10, double recall10, double reciprocalRank) {}

    /** Means over a group of questions. */
    public record Means(int questions, double hit5, double hit10, double recall10, double mrr) {

        static Means of(List<Outcome> outcomes) {
            return new Means(
                    outcomes.size(),
                    mean(outcomes, Outcome::hit5),
                    mean(outcomes, Outcome::hit10),
                    mean(outcomes, Outcome::recall10),
                    mean(outcomes, Outcome::reciprocalRank));
        }

        private static double mean(List<Outcome> outcomes, java.util.function.ToDoubleFunction<Outcome> f) {
            return outcomes.stream().mapToDouble(f).average().orElse(0);
        }
    }

    /** The outcomes of one retriever on a split. */
    public record Report(String retriever, List<Outcome> outcomes) {

        public Means where(Predicate<Question> which) {
            return Means.of(
                    outcomes.stream().filter(o -> which.test(o.question())).toList());
        }

        public Means overall() {
            return where(q -> true);
        }

        /** Without category 5 (adversarial). */
        public Means answerable() {
            return where(q -> q.category() != 5);
        }

        public Means category(int category) {
            return where(q -> q.category() == category);
        }
    }

    public static Report run(String name, List<Conversation> conversations, TurnRetriever retriever) {
        List<Outcome> outcomes = new ArrayList<>();
        for (Conversation c : conversations) {
            for (Question q : c.questions()) {
                List<String> ranked = retriever.retrieve(c, q, DEPTH);
                if (ranked.size() > DEPTH || new HashSet<>(ranked).size() != ranked.size()) {
                    throw new IllegalStateException(name + " returned " + ranked + " for " + q.id());
                }
                outcomes.add(score(q, ranked));
            }
        }
        return new Report(name, outcomes);
    }

    static Outcome score(Question q, List<String> ranked) {
        int first = 0;
        int found = 0;
        for (int i = 0; i < Math.min(DEPTH, ranked.size()); i++) {
            if (q.evidence().contains(ranked.get(i))) {
                found++;
                first = first == 0 ? i + 1 : first;
            }
        }
        return new Outcome(
                q,
                first >= 1 && first <= 5 ? 1 : 0,
                first >= 1 ? 1 : 0,
                (double) found / q.evidence().size(),
                first == 0 ? 0 : 1.0 / first);
    }

    static final Map<String, Predicate<Question>> ROWS = rows();

    private static Map<String, Predicate<Question>> rows() {
        Map<String, Predicate<Question>> rows = new LinkedHashMap<>();
        String[] names = {"1 multi-hop", "2 temporal", "3 open-domain", "4 single-hop", "5 adversarial"};
        for (int c = 1; c <= 5; c++) {
            int category = c;
            rows.put(names[c - 1], q -> q.category() == category);
        }
        rows.put("all but 5", q -> q.category() != 5);
        rows.put("all", q -> true);
        return rows;
    }

    /** Rows: categories, all but 5, all; per retriever: hit@5, hit@10, recall@10, MRR. */
    public static String table(String title, List<Report> reports) {
        StringBuilder out = new StringBuilder(title).append('\n');
        out.append(String.format(Locale.ROOT, "%-14s %4s", "category", "n"));
        for (Report r : reports) {
            out.append(String.format(Locale.ROOT, " | %-27s", r.retriever() + " h@5 h@10 R@10 MRR"));
        }
        out.append('\n');
        ROWS.forEach((label, which) -> {
            out.append(String.format(
                    Locale.ROOT, "%-14s %4d", label, reports.get(0).where(which).questions()));
            for (Report r : reports) {
                Means m = r.where(which);
                out.append(String.format(
                        Locale.ROOT, " | %.3f %.3f %.3f %.3f       ", m.hit5(), m.hit10(), m.recall10(), m.mrr()));
            }
            out.append('\n');
        });
        return out.toString();
    }
}
