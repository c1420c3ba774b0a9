package io.memorychain.projector.search;

import java.util.regex.Pattern;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.FilteringTokenFilter;
import org.apache.lucene.analysis.LowerCaseFilter;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.Tokenizer;
import org.apache.lucene.analysis.pattern.PatternTokenizer;
import org.apache.lucene.analysis.tokenattributes.CharTermAttribute;

/**
 * Analyzer of the {@code codes} field: keeps identifiers such as {@code INV-2024-117}, {@code v1.2.3},
 * {@code feature_flag}, {@code ops@acme.io} or {@code JIRA#42} as single lower-cased tokens, which the English analyzer
 * would split or stem. Only tokens with a digit or an inner joiner ({@code - _ . / : # @ +}) are kept: plain words are
 * already served by the text field.
 */
final class CodeAnalyzer extends Analyzer {

    /** Letter/digit runs joined by single joiner characters; surrounding punctuation is never part of a token. */
    private static final Pattern TOKEN = Pattern.compile("[\\p{L}\\p{N}]+(?:[-_./:#@+][\\p{L}\\p{N}]+)*");

    @Override
    protected TokenStreamComponents createComponents(String fieldName) {
        Tokenizer tokenizer = new PatternTokenizer(TOKEN, 0);
        TokenStream stream = new CodeOnlyFilter(new LowerCaseFilter(tokenizer));
        return new TokenStreamComponents(tokenizer, stream);
    }

    @Override
    protected TokenStream normalize(String fieldName, TokenStream in) {
        return new LowerCaseFilter(in);
    }

    /** Drops tokens made of letters only. */
    private static final class CodeOnlyFilter extends FilteringTokenFilter {
        private final CharTermAttribute term = addAttribute(CharTermAttribute.class);

        CodeOnlyFilter(TokenStream in) {
            super(in);
        }

        @Override
        protected boolean accept() {
            for (int i = 0; i < term.length(); i++) {
                if (!Character.isLetter(term.charAt(i))) {
                    return true;
                }
            }
            return false;
        }
    }
}
