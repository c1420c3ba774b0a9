package io.memorychain.api.markdown;

import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * One rendered file of a space's Markdown view.
 *
 * @param path     where it lives
 * @param category for a facts file: the memories' category (null for {@code facts/general.md}); otherwise null
 * @param summary  the derived {@code > Summary:} text
 * @param entries  its entries in file order
 * @param text     the whole file
 */
public record MarkdownFile(MarkdownPath path, String category, String summary, List<MarkdownEntry> entries, String text) {

    public MarkdownFile {
        entries = List.copyOf(entries);
    }

    /** Size in UTF-8 bytes. */
    public int size() {
        return text.getBytes(StandardCharsets.UTF_8).length;
    }
}
