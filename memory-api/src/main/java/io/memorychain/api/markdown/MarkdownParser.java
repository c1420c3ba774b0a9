package io.memorychain.api.markdown;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Reads a file of the Markdown view back into entries (format: {@link MarkdownFormat}). Never throws on bad input:
 * every line it cannot map is reported as a problem ("line 7: ..."), so a caller can reject the whole file before
 * anything is written.
 */
final class MarkdownParser {

    private static final Pattern LABEL = Pattern.compile("[A-Za-z0-9._-]{1,64}");

    private MarkdownParser() {}

    /** The entries of the text, and the problems of the lines that are not entries, titles or summary lines. */
    public record Parsed(List<MarkdownEntry> entries, List<String> problems) {
        public Parsed {
            entries = List.copyOf(entries);
            problems = List.copyOf(problems);
        }
    }

    public static Parsed parse(MarkdownPath path, String text) {
        String[] lines = text.replace("\r\n", "\n").replace('\r', '\n').split("\n", -1);
        return path.root() == MarkdownPath.Root.MEMORY ? sections(lines) : bullets(lines);
    }

    private static boolean derived(String line) {
        return line.equals("#") || line.startsWith("# ") || line.startsWith(MarkdownFormat.SUMMARY_PREFIX);
    }

    private static Parsed bullets(String[] lines) {
        List<MarkdownEntry> entries = new ArrayList<>();
        List<String> problems = new ArrayList<>();
        List<String> current = null;
        int start = 0;
        int pendingBlank = 0;
        for (int i = 0; i < lines.length; i++) {
            String line = lines[i];
            if (line.startsWith("- ") || line.equals("-")) {
                finish(current, start, entries, problems);
                current = new ArrayList<>();
                current.add(line.length() > 2 ? line.substring(2) : "");
                start = i + 1;
                pendingBlank = 0;
            } else if (line.isBlank()) {
                pendingBlank++;
            } else if (current != null && (line.startsWith("  ") || line.startsWith("\t"))) {
                for (; pendingBlank > 0; pendingBlank--) {
                    current.add("");
                }
                current.add(line.substring(line.startsWith("\t") ? 1 : 2));
            } else {
                finish(current, start, entries, problems);
                current = null;
                pendingBlank = 0;
                if (!derived(line)) {
                    problems.add("line " + (i + 1) + ": not an entry; entries are '- ' bullets (further lines indented "
                            + "by two spaces), other lines are only '# Title' and '> Summary:'");
                }
            }
        }
        finish(current, start, entries, problems);
        return new Parsed(entries, problems);
    }

    private static void finish(List<String> lines, int line, List<MarkdownEntry> entries, List<String> problems) {
        if (lines == null) {
            return;
        }
        MarkdownFormat.Marker marker = MarkdownFormat.marker(String.join("\n", lines));
        if (!marker.wellPlaced()) {
            problems.add("line " + line + ": the id marker <!-- id:... --> must end the entry, once");
            return;
        }
        if (marker.id() != null && marker.id().isEmpty()) {
            problems.add("line " + line + ": empty id in the marker");
            return;
        }
        String text = MarkdownFormat.normalize(marker.text());
        if (text.isEmpty()) {
            problems.add("line " + line + ": empty entry (delete the whole bullet to delete a memory)");
            return;
        }
        entries.add(new MarkdownEntry(marker.id(), null, text, line));
    }

    private static Parsed sections(String[] lines) {
        List<MarkdownEntry> entries = new ArrayList<>();
        List<String> problems = new ArrayList<>();
        Set<String> labels = new HashSet<>();
        String label = null;
        int start = 0;
        List<String> body = new ArrayList<>();
        for (int i = 0; i < lines.length; i++) {
            String line = lines[i];
            if (line.startsWith("## ")) {
                section(label, start, body, entries, problems);
                label = line.substring(3).strip();
                start = i + 1;
                body = new ArrayList<>();
                if (!LABEL.matcher(label).matches()) {
                    problems.add("line " + start + ": a block label is 1 to 64 characters from A-Z a-z 0-9 . _ -");
                    label = null;
                } else if (!labels.add(label)) {
                    problems.add("line " + start + ": block '" + label + "' appears twice");
                    label = null;
                }
            } else if (start > 0) {
                body.add(line);
            } else if (!line.isBlank() && !derived(line)) {
                problems.add("line " + (i + 1) + ": not a block section; MEMORY.md holds '## <label>' sections");
            }
        }
        section(label, start, body, entries, problems);
        return new Parsed(entries, problems);
    }

    private static void section(
            String label, int line, List<String> body, List<MarkdownEntry> entries, List<String> problems) {
        if (label == null) {
            return;
        }
        String content = String.join("\n", body);
        if (MarkdownFormat.hasMarker(content)) {
            problems.add("line " + line + ": block sections carry no id markers");
            return;
        }
        String text = MarkdownFormat.normalize(content);
        if (text.isEmpty()) {
            problems.add("line " + line + ": block '" + label + "' is empty");
            return;
        }
        entries.add(new MarkdownEntry(null, label, text, line));
    }
}
