package io.memorychain.projector.search;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.LinkedHashSet;
import java.util.Set;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.tokenattributes.CharTermAttribute;

/**
 * The keyword terms of a text as the index's prose field sees them (English analysis: stop words dropped, stems), and
 * how much of a query a text covers: the share of the query's terms it holds (docs/architecture.md §7, keyword weight).
 */
public final class QueryTerms {

    private static final Analyzer ANALYZER = MemoryDocuments.analyzer();

    private QueryTerms() {}

    public static Set<String> of(String text) {
        Set<String> terms = new LinkedHashSet<>();
        try (TokenStream tokens = ANALYZER.tokenStream(MemoryDocuments.TEXT, text)) {
            CharTermAttribute term = tokens.addAttribute(CharTermAttribute.class);
            tokens.reset();
            while (tokens.incrementToken()) {
                terms.add(term.toString());
            }
            tokens.end();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot analyse text", e);
        }
        return terms;
    }

    /** The share of {@code query}'s terms that {@code text} holds, 0..1 (0 for a query without terms). */
    public static double coverage(Set<String> query, String text) {
        if (query.isEmpty()) {
            return 0;
        }
        Set<String> held = of(text);
        return query.stream().filter(held::contains).count() / (double) query.size();
    }
}
