package io.memorychain.api.markdown;

import java.util.List;
import java.util.Optional;

/** The files of one space as one reader sees them, in listing order (MEMORY.md, facts, episodes, procedures). */
public record MarkdownView(List<MarkdownFile> files) {

    public MarkdownView {
        files = List.copyOf(files);
    }

    public Optional<MarkdownFile> file(MarkdownPath path) {
        return files.stream().filter(f -> f.path().equals(path)).findFirst();
    }
}
