package io.memorychain.api.markdown;

/**
 * One entry of a Markdown file: a bullet that maps to a memory (facts, episodes, procedures) or a {@code ## label}
 * section that maps to a core block (MEMORY.md).
 *
 * @param id the memory id of a bullet (null for a new bullet and for block sections)
 * @param label the block label of a MEMORY.md section (null for bullets)
 * @param text the entry's text, normalized with {@link MarkdownFormat#normalize(String)}
 * @param line 1-based line of the entry's first line in its file
 */
record MarkdownEntry(String id, String label, String text, int line) {}
