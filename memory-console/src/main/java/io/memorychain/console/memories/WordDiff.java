package io.memorychain.console.memories;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A word-level difference between two texts for the version list: the longest common subsequence of their words (each
 * with the white space after it, so the parts put back together give the texts again), as runs of kept, removed and
 * added text. Texts past {@link #MAX_TOKENS} words each are compared as one removed and one added run, so a page never
 * spends more than a bounded table on a diff.
 */
public final class WordDiff {

    /** Words compared at most per side (the table is at most this squared). */
    static final int MAX_TOKENS = 1_500;

    private static final Pattern TOKEN = Pattern.compile("\\S+\\s*|\\s+");

    /** One run of text: kept in both, removed from the first or added in the second. */
    public record Part(Kind kind, String text) {
        public boolean removed() {
            return kind == Kind.REMOVED;
        }

        public boolean added() {
            return kind == Kind.ADDED;
        }
    }

    public enum Kind {
        SAME,
        REMOVED,
        ADDED
    }

    private WordDiff() {}

    /** The runs that turn {@code before} into {@code after} (null reads as empty). */
    public static List<Part> of(String before, String after) {
        List<String> a = tokens(before == null ? "" : before);
        List<String> b = tokens(after == null ? "" : after);
        List<Part> parts = new ArrayList<>();
        if (a.size() > MAX_TOKENS || b.size() > MAX_TOKENS) {
            add(parts, Kind.REMOVED, String.join("", a));
            add(parts, Kind.ADDED, String.join("", b));
            return parts;
        }
        int[][] lcs = new int[a.size() + 1][b.size() + 1];
        for (int i = a.size() - 1; i >= 0; i--) {
            for (int j = b.size() - 1; j >= 0; j--) {
                lcs[i][j] = a.get(i).equals(b.get(j)) ? lcs[i + 1][j + 1] + 1 : Math.max(lcs[i + 1][j], lcs[i][j + 1]);
            }
        }
        int i = 0;
        int j = 0;
        while (i < a.size() && j < b.size()) {
            if (a.get(i).equals(b.get(j))) {
                add(parts, Kind.SAME, a.get(i++));
                j++;
            } else if (lcs[i + 1][j] >= lcs[i][j + 1]) {
                add(parts, Kind.REMOVED, a.get(i++));
            } else {
                add(parts, Kind.ADDED, b.get(j++));
            }
        }
        while (i < a.size()) {
            add(parts, Kind.REMOVED, a.get(i++));
        }
        while (j < b.size()) {
            add(parts, Kind.ADDED, b.get(j++));
        }
        return parts;
    }

    /** Whether the texts differ at all. */
    public static boolean changed(List<Part> parts) {
        return parts.stream().anyMatch(p -> p.kind() != Kind.SAME);
    }

    private static List<String> tokens(String text) {
        List<String> tokens = new ArrayList<>();
        Matcher m = TOKEN.matcher(text);
        while (m.find()) {
            tokens.add(m.group());
        }
        return tokens;
    }

    /** Appends, merging with the previous run of the same kind. */
    private static void add(List<Part> parts, Kind kind, String text) {
        if (text.isEmpty()) {
            return;
        }
        if (!parts.isEmpty() && parts.get(parts.size() - 1).kind() == kind) {
            Part last = parts.remove(parts.size() - 1);
            parts.add(new Part(kind, last.text() + text));
        } else {
            parts.add(new Part(kind, text));
        }
    }
}
