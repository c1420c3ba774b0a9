package io.memorychain.api.markdown;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The text format of the Markdown view, shared by the renderer and the parser.
 *
 * <pre>
 * # Facts: preferences
 *
 * &gt; Summary: dark mode, answers in English
 *
 * - Ana prefers dark mode &lt;!-- id:m0000001abcd --&gt;
 * - Answers in English,
 *   code comments too &lt;!-- id:m0000002abcd --&gt;
 * </pre>
 *
 * <ul>
 *   <li>An entry is a bullet: {@code "- "} at column 0; its further lines are indented by two spaces (or a tab); blank
 *       lines inside an entry are kept when an indented line follows.
 *   <li>The entry's memory id is an HTML comment {@code <!-- id:ID -->} ending the entry's last line (invisible when
 *       the Markdown is rendered). A bullet without it is a new memory; the marker anywhere else is an error.
 *   <li>{@code # Title} and {@code > Summary:} lines are derived on every rendering; on input they are ignored.
 *   <li>MEMORY.md holds {@code ## <label>} sections instead of bullets: everything up to the next {@code ## } line is
 *       the block's content.
 * </ul>
 */
final class MarkdownFormat {

    public static final String SUMMARY_PREFIX = "> Summary:";
    private static final Pattern MARKER = Pattern.compile("<!--\\s*id:\\s*([^\\s>]*)\\s*-->");
    private static final int SUMMARY_WORDS = 10;
    private static final int LABEL_WORDS = 4;

    private MarkdownFormat() {}

    /** Trailing whitespace of every line and leading/trailing blank lines removed; CR LF and CR become LF. */
    public static String normalize(String text) {
        String[] lines = text.replace("\r\n", "\n").replace('\r', '\n').split("\n", -1);
        List<String> out = new ArrayList<>(lines.length);
        for (String line : lines) {
            out.add(line.stripTrailing());
        }
        return String.join("\n", out).strip();
    }

    /** A bullet for the content (normalized) with its id marker. */
    public static String bullet(String content, String id) {
        String[] lines = normalize(content).split("\n", -1);
        StringBuilder sb = new StringBuilder("- ").append(lines[0]);
        for (int i = 1; i < lines.length; i++) {
            sb.append('\n');
            if (!lines[i].isEmpty()) {
                sb.append("  ").append(lines[i]);
            }
        }
        return sb.append(" <!-- id:").append(id).append(" -->").toString();
    }

    /** The file text: title, summary line, then the body (entries or sections). */
    public static String file(String title, String summary, List<String> body) {
        StringBuilder sb = new StringBuilder("# ")
                .append(title)
                .append("\n\n")
                .append(SUMMARY_PREFIX)
                .append(' ')
                .append(summary)
                .append('\n');
        if (!body.isEmpty()) {
            sb.append('\n').append(String.join("\n", body)).append('\n');
        }
        return sb.toString();
    }

    /**
     * A short label for an entry: the first line of its summary (or, without one, of its content), its first four
     * words, trailing punctuation removed.
     */
    public static String label(String summary, String content) {
        String source = summary != null && !summary.isBlank() ? summary : content;
        String firstLine = normalize(source).split("\n", 2)[0];
        String[] words = firstLine.strip().split("\\s+");
        String label = String.join(" ", List.of(words).subList(0, Math.min(LABEL_WORDS, words.length)));
        return label.replaceAll("[\\p{Punct}&&[^)\\]\"'`]]+$", "");
    }

    /**
     * The {@code > Summary:} of a file: the labels of its entries in file order, joined with ", ", as long as the whole
     * stays within ten words (the first label always, cut at ten words); "(empty)" without entries.
     */
    public static String summary(List<String> labels) {
        List<String> kept = new ArrayList<>();
        int words = 0;
        for (String label : labels) {
            if (label.isBlank()) {
                continue;
            }
            String[] w = label.split("\\s+");
            if (words + w.length > SUMMARY_WORDS) {
                if (kept.isEmpty()) {
                    kept.add(String.join(" ", List.of(w).subList(0, SUMMARY_WORDS)));
                }
                break;
            }
            kept.add(label);
            words += w.length;
        }
        return kept.isEmpty() ? "(empty)" : String.join(", ", kept);
    }

    /** The id marker found in an entry's text, if any. */
    static Marker marker(String entryText) {
        Matcher m = MARKER.matcher(entryText);
        if (!m.find()) {
            return new Marker(null, entryText, true);
        }
        String id = m.group(1);
        int start = m.start();
        int end = m.end();
        boolean last = entryText.substring(end).isBlank() && !m.find();
        return new Marker(id, entryText.substring(0, start), last);
    }

    /** Whether the text contains an id marker anywhere. */
    static boolean hasMarker(String text) {
        return MARKER.matcher(text).find();
    }

    /**
     * @param id the marker's id, null without a marker
     * @param text the entry text before the marker
     * @param wellPlaced false when the marker does not end the entry or occurs twice
     */
    record Marker(String id, String text, boolean wellPlaced) {}
}
