package io.memorychain.projector.retrieval.eval;

import java.util.List;
import java.util.Locale;
import java.util.Map;

/** Plain-text tables of evaluation reports side by side (one column pair per retriever). */
public final class ReportTable {

    private ReportTable() {}

    /** Rows: every query type, then "all"; columns: recall@5 and MRR of each report, plus the query count. */
    public static String byType(List<EvaluationReport> reports) {
        StringBuilder out = new StringBuilder();
        out.append(String.format(Locale.ROOT, "%-18s %4s", "type", "n"));
        for (EvaluationReport r : reports) {
            out.append(String.format(Locale.ROOT, " | %-17s", r.retriever() + " R@5 / MRR"));
        }
        out.append('\n');
        for (QueryType type : QueryType.values()) {
            Scores first = reports.get(0).byType().get(type);
            if (first == null) {
                continue;
            }
            row(
                    out,
                    type.label(),
                    first.queries(),
                    reports.stream().map(r -> r.byType().get(type)).toList());
        }
        row(
                out,
                "all",
                reports.get(0).overall().queries(),
                reports.stream().map(EvaluationReport::overall).toList());
        return out.toString();
    }

    /** One row per space, for the same reports. */
    public static String bySpace(List<EvaluationReport> reports) {
        StringBuilder out = new StringBuilder();
        for (Map.Entry<String, Scores> e : reports.get(0).bySpace().entrySet()) {
            row(
                    out,
                    e.getKey(),
                    e.getValue().queries(),
                    reports.stream().map(r -> r.bySpace().get(e.getKey())).toList());
        }
        return out.toString();
    }

    /** The queries a report misses at 5, with what came back instead. */
    public static String misses(EvaluationReport report) {
        StringBuilder out = new StringBuilder(
                report.retriever() + " misses at 5 (" + report.misses().size() + "):\n");
        for (QueryOutcome o : report.misses()) {
            out.append(String.format(
                    Locale.ROOT,
                    "  %-9s %-10s first hit %-4s expected %s got %s%n",
                    o.query().id(),
                    o.query().type().label(),
                    o.firstHitRank() == 0 ? "-" : o.firstHitRank(),
                    o.query().expected(),
                    o.retrieved().subList(0, Math.min(5, o.retrieved().size()))));
        }
        return out.toString();
    }

    private static void row(StringBuilder out, String label, int queries, List<Scores> scores) {
        out.append(String.format(Locale.ROOT, "%-18s %4d", label, queries));
        for (Scores s : scores) {
            out.append(String.format(Locale.ROOT, " | %.3f / %.3f     ", s.recallAt5(), s.mrr()));
        }
        out.append('\n');
    }
}
