package io.memorychain.api.markdown;

import java.time.YearMonth;
import java.util.Objects;

/**
 * A sandboxed path of the Markdown view: {@code MEMORY.md}, {@code facts/<name>.md}, {@code episodes/YYYY-MM.md} or
 * {@code procedures/<name>.md}. Only {@link MarkdownPaths#parse(String)} makes them from client input.
 *
 * @param root which part of the view
 * @param name the file name without {@code .md} ("MEMORY" for the core file)
 */
public record MarkdownPath(Root root, String name) {

    /** The roots of the virtual directory. */
    public enum Root {
        /** {@code MEMORY.md}: the active core blocks as {@code ## label} sections. */
        MEMORY,
        /** {@code facts/<category>.md}: active semantic and insight memories of one category. */
        FACTS,
        /** {@code episodes/YYYY-MM.md}: active episodic memories created in that month (UTC). */
        EPISODES,
        /** {@code procedures/<slug>.md}: one active procedural memory. */
        PROCEDURES
    }

    public static final MarkdownPath MEMORY = new MarkdownPath(Root.MEMORY, "MEMORY");
    /** The facts file of uncategorized memories. */
    public static final String GENERAL = "general";

    public MarkdownPath {
        Objects.requireNonNull(root, "root");
        Objects.requireNonNull(name, "name");
    }

    public static MarkdownPath facts(String name) {
        return new MarkdownPath(Root.FACTS, name);
    }

    public static MarkdownPath episodes(YearMonth month) {
        return new MarkdownPath(Root.EPISODES, month.toString());
    }

    public static MarkdownPath procedures(String slug) {
        return new MarkdownPath(Root.PROCEDURES, slug);
    }

    /** The month of an episodes file. */
    public YearMonth month() {
        if (root != Root.EPISODES) {
            throw new IllegalStateException(this + " is not an episodes file");
        }
        return YearMonth.parse(name);
    }

    @Override
    public String toString() {
        return switch (root) {
            case MEMORY -> "MEMORY.md";
            case FACTS -> "facts/" + name + ".md";
            case EPISODES -> "episodes/" + name + ".md";
            case PROCEDURES -> "procedures/" + name + ".md";
        };
    }
}
