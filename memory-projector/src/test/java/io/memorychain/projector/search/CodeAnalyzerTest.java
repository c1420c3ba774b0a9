package io.memorychain.projector.search;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.tokenattributes.CharTermAttribute;
import org.junit.jupiter.api.Test;

class CodeAnalyzerTest {

    static List<String> tokens(Analyzer analyzer, String field, String text) throws IOException {
        List<String> out = new ArrayList<>();
        try (TokenStream ts = analyzer.tokenStream(field, text)) {
            CharTermAttribute term = ts.addAttribute(CharTermAttribute.class);
            ts.reset();
            while (ts.incrementToken()) {
                out.add(term.toString());
            }
            ts.end();
        }
        return out;
    }

    @Test
    void keepsIdentifiersWholeLowerCasedAndDropsPlainWords() throws IOException {
        assertThat(tokens(
                        new CodeAnalyzer(),
                        "codes",
                        "Pay INV-2024-117, (v1.2.3) to ops@acme.io; see JIRA#42 and feature_flag. Plain words, 2024."))
                .containsExactly("inv-2024-117", "v1.2.3", "ops@acme.io", "jira#42", "feature_flag", "2024");
    }

    @Test
    void proseFieldStemsAndSplitsIdentifiers() throws IOException {
        assertThat(tokens(MemoryDocuments.analyzer(), MemoryDocuments.TEXT, "Deploying INV-2024-117"))
                .containsExactly("deploi", "inv", "2024", "117");
    }
}
