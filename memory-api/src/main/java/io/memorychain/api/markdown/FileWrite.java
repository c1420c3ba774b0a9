package io.memorychain.api.markdown;

import java.util.List;

/**
 * The result of writing a file: what was applied, and the file as the views show it afterwards.
 *
 * @param path the file
 * @param applied patch: the number of text edits applied; write and append: the number of changes
 * @param changes the requests made, in order, each with its chain position
 * @param file the file after the write (null when it no longer has entries)
 */
public record FileWrite(MarkdownPath path, int applied, List<Applied> changes, MarkdownFile file) {

    public FileWrite {
        changes = List.copyOf(changes);
    }

    /** One change on the chain: the line it came from, what it did, the memory id (or block label), its seq. */
    public record Applied(int line, FileChange.Action action, String target, long seq) {}
}
