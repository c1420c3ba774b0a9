package io.memorychain.api.mcp;

import static io.memorychain.api.mcp.Schemas.withSpace;
import static io.memorychain.api.mcp.Schemas.write;
import static io.memorychain.api.mcp.ToolArgs.optional;
import static io.memorychain.api.mcp.ToolArgs.text;

import io.memorychain.api.auth.Operation;
import io.memorychain.api.markdown.AppendBody;
import io.memorychain.api.markdown.FileListJson;
import io.memorychain.api.markdown.FileWriteJson;
import io.memorychain.api.markdown.MarkdownFiles;
import io.memorychain.api.markdown.MarkdownPaths;
import io.memorychain.api.markdown.PatchBody;
import jakarta.inject.Singleton;
import java.util.List;
import java.util.Map;

/** The Markdown view of memory (docs/architecture.md §11). */
@Singleton
class FileToolset implements Toolset {

    private final MarkdownFiles files;
    private final ToolArgs args;

    FileToolset(MarkdownFiles files, ToolArgs args) {
        this.files = files;
        this.args = args;
    }

    @Override
    public int order() {
        return 40;
    }

    @Override
    public List<MemoryTool> tools() {
        return new ToolList()
                .add(
                        "memory_list",
                        Operation.LIST_FILES,
                        "List the Markdown files of your memory "
                                + "(MEMORY.md, facts/<category>.md, episodes/YYYY-MM.md, procedures/<name>.md) with their "
                                + "one-line summaries and sizes.",
                        withSpace(),
                        READERS,
                        c -> FileListJson.of(files.list(c.space(), c.caller().actor())))
                .add(
                        "memory_read",
                        Operation.READ_FILE,
                        "Read one Markdown memory file, e.g. MEMORY.md or facts/preferences.md.",
                        withSpace().string("path", "The file path from memory_list", true),
                        READERS,
                        c -> Map.of(
                                "path",
                                text(c.arguments(), "path"),
                                "text",
                                files.read(
                                                c.space(),
                                                c.caller().actor(),
                                                MarkdownPaths.parse(text(c.arguments(), "path")))
                                        .text()))
                .add(
                        "memory_write",
                        Operation.WRITE_FILE,
                        """
                Replace a Markdown memory file with new text: added bullets become memories, changed ones updates, \
                removed ones deletions. Read it first and keep what should stay.""",
                        write().string("path", "The file path", true)
                                .string("text", "The whole new file", true)
                                .string(
                                        "if_match",
                                        "The file's etag from memory_read, to refuse a concurrent change",
                                        false),
                        WRITERS,
                        c -> FileWriteJson.of(files.write(
                                c.write(),
                                MarkdownPaths.parse(text(c.arguments(), "path")),
                                text(c.arguments(), "text"),
                                optional(c.arguments(), "if_match"))))
                .add(
                        "memory_patch",
                        Operation.PATCH_FILE,
                        """
                Edit a Markdown memory file by replacing exact text: each old_text must occur exactly once. Returns how \
                many edits were applied; nothing changes if one does not match.""",
                        write().string("path", "The file path", true)
                                .objects(
                                        "edits",
                                        "Replacements, applied in order",
                                        Schemas.object()
                                                .string("old_text", "Exact text to replace", true)
                                                .string("new_text", "Replacement text", true),
                                        true),
                        WRITERS,
                        c -> FileWriteJson.of(files.patch(
                                c.write(),
                                MarkdownPaths.parse(text(c.arguments(), "path")),
                                args.body(
                                                Map.of("edits", c.arguments().getOrDefault("edits", List.of())),
                                                PatchBody.class)
                                        .textEdits(),
                                null)))
                .add(
                        "memory_append",
                        Operation.APPEND_FILE,
                        "Append entries to a Markdown memory file (a '- ' bullet per memory), creating the file if needed.",
                        write().string("path", "The file path, e.g. facts/preferences.md", true)
                                .string("text", "The entries to append", true),
                        WRITERS,
                        c -> FileWriteJson.of(files.append(
                                c.write(),
                                MarkdownPaths.parse(text(c.arguments(), "path")),
                                args.body(Map.of("text", c.arguments().getOrDefault("text", "")), AppendBody.class)
                                        .text(),
                                null)))
                .build();
    }
}
