package io.memorychain.api.markdown;

import io.memorychain.avro.Memory;
import io.memorychain.avro.MemoryState;
import java.time.Instant;
import java.time.YearMonth;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Predicate;
import java.util.regex.Pattern;

/**
 * Renders a space's active memories as the Markdown view (pure and deterministic: the same memories give the same
 * bytes):
 *
 * <ul>
 *   <li>{@code MEMORY.md}: active blocks as {@code ## <label>} sections, configured labels first in their order, then
 *       other labels alphabetically. Always present (empty without blocks).
 *   <li>{@code facts/<category>.md}: active SEMANTIC and INSIGHT memories, one file per category in id (creation)
 *       order; uncategorized ones in {@code facts/general.md}. A category that is not a valid file name is slugged.
 *   <li>{@code episodes/YYYY-MM.md}: active EPISODIC memories by the UTC month of created_at, by created_at then id.
 *   <li>{@code procedures/<slug>.md}: one file per active PROCEDURAL memory, the slug of its summary (or of its
 *       content's first words); clashing slugs get {@code -2}, {@code -3}, ... in id order.
 * </ul>
 *
 * JOURNAL and ENTITY memories are not part of the view. File names are assigned over all memories, then entries the
 * reader may not see are left out (so a path means the same for every reader), and files left empty disappear.
 */
public final class MarkdownRenderer {

    private static final Pattern FILE_NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9_-]{0,63}");
    private static final int SLUG_WORDS = 6;
    private static final int SLUG_LENGTH = 60;

    private final List<String> blockOrder;

    /** @param blockOrder the configured block labels, in the order MEMORY.md shows them */
    public MarkdownRenderer(List<String> blockOrder) {
        this.blockOrder = List.copyOf(blockOrder);
    }

    /** Renders every memory. */
    public MarkdownView render(List<Memory> memories) {
        return render(memories, m -> true);
    }

    /**
     * @param memories the space's memories (only ACTIVE ones are used)
     * @param visible which of them the reader may see (its category allowlist)
     */
    public MarkdownView render(List<Memory> memories, Predicate<Memory> visible) {
        List<Memory> blocks = new ArrayList<>();
        Map<String, List<Memory>> facts = new TreeMap<>();
        Map<String, String> factCategory = new LinkedHashMap<>();
        Map<YearMonth, List<Memory>> episodes = new TreeMap<>();
        List<Memory> procedures = new ArrayList<>();
        for (Memory m :
                memories.stream().sorted(Comparator.comparing(Memory::getId)).toList()) {
            if (m.getState() != MemoryState.ACTIVE) {
                continue;
            }
            switch (m.getKind()) {
                case BLOCK -> blocks.add(m);
                case SEMANTIC, INSIGHT -> {
                    String name = factsName(m.getCategory());
                    facts.computeIfAbsent(name, k -> new ArrayList<>()).add(m);
                    factCategory.putIfAbsent(name, m.getCategory());
                }
                case EPISODIC ->
                    episodes.computeIfAbsent(month(m.getCreatedAt()), k -> new ArrayList<>())
                            .add(m);
                case PROCEDURAL -> procedures.add(m);
                default -> {
                    // JOURNAL and ENTITY memories have no file
                }
            }
        }
        List<MarkdownFile> files = new ArrayList<>();
        files.add(memoryFile(blocks.stream().filter(visible).toList()));
        facts.forEach((name, ms) -> bulletFile(
                MarkdownPath.facts(name),
                factCategory.get(name),
                "Facts: " + name,
                ms.stream().filter(visible).toList(),
                files));
        episodes.forEach((month, ms) -> bulletFile(
                MarkdownPath.episodes(month),
                null,
                "Episodes " + month,
                ms.stream()
                        .filter(visible)
                        .sorted(Comparator.comparing(Memory::getCreatedAt).thenComparing(Memory::getId))
                        .toList(),
                files));
        Set<String> taken = new HashSet<>();
        List<MarkdownFile> procedureFiles = new ArrayList<>();
        for (Memory m : procedures) {
            String slug = uniqueSlug(procedureSlug(m), taken);
            if (visible.test(m)) {
                bulletFile(
                        MarkdownPath.procedures(slug),
                        null,
                        "Procedure: " + MarkdownFormat.label(m.getSummary(), m.getContent()),
                        List.of(m),
                        procedureFiles);
            }
        }
        procedureFiles.sort(Comparator.comparing(f -> f.path().name()));
        files.addAll(procedureFiles);
        return new MarkdownView(files);
    }

    /** The facts file name of a category: {@code general} for none, the category itself when it is a valid name. */
    public static String factsName(String category) {
        if (category == null) {
            return MarkdownPath.GENERAL;
        }
        return FILE_NAME.matcher(category).matches() ? category : slug(category);
    }

    /** The UTC month of an instant: the episodes file it belongs to. */
    public static YearMonth month(Instant instant) {
        return YearMonth.from(instant.atZone(ZoneOffset.UTC));
    }

    /** The slug of a procedure: of its summary, else of its content's first six words. */
    public static String procedureSlug(Memory m) {
        String source = m.getSummary() != null && !m.getSummary().isBlank() ? m.getSummary() : m.getContent();
        String[] words = MarkdownFormat.normalize(source).split("\\s+");
        return slug(String.join(" ", List.of(words).subList(0, Math.min(SLUG_WORDS, words.length))));
    }

    /** Lower-case ASCII letters and digits, runs of anything else as one '-', at most 60 characters. */
    public static String slug(String text) {
        String s = text.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]+", "-").replaceAll("^-+|-+$", "");
        if (s.length() > SLUG_LENGTH) {
            s = s.substring(0, SLUG_LENGTH).replaceAll("-+$", "");
        }
        return s.isEmpty() ? "untitled" : s;
    }

    private static String uniqueSlug(String slug, Set<String> taken) {
        String candidate = slug;
        for (int n = 2; !taken.add(candidate); n++) {
            candidate = slug + "-" + n;
        }
        return candidate;
    }

    private MarkdownFile memoryFile(List<Memory> blocks) {
        List<Memory> sorted = blocks.stream()
                .sorted(Comparator.comparingInt((Memory b) -> {
                            int i = blockOrder.indexOf(b.getBlockLabel());
                            return i < 0 ? Integer.MAX_VALUE : i;
                        })
                        .thenComparing(Memory::getBlockLabel))
                .toList();
        List<String> sections = new ArrayList<>();
        for (Memory b : sorted) {
            sections.add("## " + b.getBlockLabel() + "\n\n" + MarkdownFormat.normalize(b.getContent()));
        }
        List<String> body = sections.isEmpty() ? List.of() : List.of(String.join("\n\n", sections));
        String summary = MarkdownFormat.summary(
                sorted.stream().map(Memory::getBlockLabel).toList());
        return file(MarkdownPath.MEMORY, null, "Core memory", summary, body);
    }

    private static void bulletFile(
            MarkdownPath path, String category, String title, List<Memory> memories, List<MarkdownFile> into) {
        if (memories.isEmpty()) {
            return;
        }
        List<String> body = memories.stream()
                .map(m -> MarkdownFormat.bullet(m.getContent(), m.getId()))
                .toList();
        String summary = MarkdownFormat.summary(memories.stream()
                .map(m -> MarkdownFormat.label(m.getSummary(), m.getContent()))
                .toList());
        into.add(file(path, category, title, summary, body));
    }

    /** The entries (with their lines) are read back from the text, so they always agree with what a client sees. */
    private static MarkdownFile file(
            MarkdownPath path, String category, String title, String summary, List<String> body) {
        String text = MarkdownFormat.file(title, summary, body);
        MarkdownParser.Parsed parsed = MarkdownParser.parse(path, text);
        if (!parsed.problems().isEmpty()) {
            throw new IllegalStateException("Rendered " + path + " does not parse: " + parsed.problems());
        }
        return new MarkdownFile(path, category, summary, parsed.entries(), text);
    }
}
