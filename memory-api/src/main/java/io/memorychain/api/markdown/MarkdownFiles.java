package io.memorychain.api.markdown;

import io.memorychain.api.backend.ChainReads;
import io.memorychain.api.error.ApiException;
import io.memorychain.api.error.ErrorCodes;
import io.memorychain.api.write.WriteContext;
import io.memorychain.api.write.WriteExecutor;
import io.memorychain.api.write.WriteResult;
import io.memorychain.avro.Actor;
import io.memorychain.avro.Memory;
import io.memorychain.avro.MemoryKind;
import io.memorychain.avro.MemoryState;
import io.memorychain.avro.Tier;
import io.memorychain.avro.UpdateBlock;
import io.memorychain.domain.category.CategoryAccess;
import io.memorychain.events.chain.Canonical;
import io.memorychain.projector.view.ListQuery;
import io.memorychain.projector.view.Page;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The Markdown view of a space (docs/architecture.md §11: memory_list, memory_read, memory_write, memory_patch,
 * memory_append) over the chain: reads render the local views for the reader (category allowlists applied), writes diff
 * the new text against the reader's current rendering ({@link MarkdownEdits}) and publish the requests one at a time
 * through the {@link WriteExecutor}, in file order. Transport-neutral: REST uses it, MCP and gRPC tools can use it as
 * is.
 */
public class MarkdownFiles {

    private final ChainReads backend;
    private final WriteExecutor writes;
    private final CategoryAccess access;
    private final MarkdownRenderer renderer;
    private final MarkdownEdits edits;

    public MarkdownFiles(
            ChainReads backend,
            WriteExecutor writes,
            CategoryAccess access,
            MarkdownRenderer renderer,
            MarkdownEdits edits) {
        this.backend = backend;
        this.writes = writes;
        this.access = access;
        this.renderer = renderer;
        this.edits = edits;
    }

    /** memory_list: every file the reader can see. */
    public List<MarkdownFile> list(String space, Actor reader) {
        return view(space, reader).files();
    }

    /** memory_read: 404 NOT_FOUND for a file without entries, 403 CATEGORY_NOT_ALLOWED for a disallowed facts file. */
    public MarkdownFile read(String space, Actor reader, MarkdownPath path) {
        MarkdownView view = view(space, reader);
        Optional<MarkdownFile> file = view.file(path);
        requireCategory(reader, path, file.orElse(null));
        return file.orElseThrow(() -> ApiException.notFound("No file " + path + " in space " + space));
    }

    /**
     * memory_write: the whole new text of the file.
     *
     * @param ifMatch null, or the {@link MarkdownFile#etag()} the editor read: another value is 409 VERSION_CONFLICT
     *     (the file changed since), before anything is published
     */
    public FileWrite write(WriteContext ctx, MarkdownPath path, String text, String ifMatch) {
        if (text == null || text.isEmpty()) {
            throw ApiException.invalid("The new text of " + path + " is required (to delete every entry, send just its "
                    + "'# Title' line)");
        }
        MarkdownFile current = current(ctx, path, ifMatch);
        List<FileChange> plan = plan(ctx.space(), path, current, text);
        return apply(ctx, path, plan.size(), plan);
    }

    /**
     * memory_patch: text replacements applied to the current file's entries (below the derived title and summary
     * lines), all or none, then written as a whole. Each old_text must occur exactly once, else 409 PATCH_CONFLICT.
     */
    public FileWrite patch(WriteContext ctx, MarkdownPath path, List<TextEdit> replacements, String ifMatch) {
        if (replacements == null || replacements.isEmpty()) {
            throw ApiException.invalid("edits is required: a list of {old_text, new_text}");
        }
        MarkdownFile current = current(ctx, path, ifMatch);
        if (current == null) {
            throw ApiException.notFound("No file " + path + " in space " + ctx.space());
        }
        String header = header(current.text());
        String text = current.text().substring(header.length());
        for (int i = 0; i < replacements.size(); i++) {
            TextEdit edit = replacements.get(i);
            if (edit == null || edit.oldText() == null || edit.oldText().isEmpty() || edit.newText() == null) {
                throw ApiException.invalid("edits[" + i + "]: old_text (not empty) and new_text are required");
            }
            int at = text.indexOf(edit.oldText());
            if (at < 0 || text.indexOf(edit.oldText(), at + 1) >= 0) {
                throw new ApiException(
                        ErrorCodes.PATCH_CONFLICT,
                        "edits[" + i + "]: old_text "
                                + (at < 0 ? "does not occur" : "occurs more than once") + " in " + path
                                + (i > 0 ? " after the previous edits" : "")
                                + "; read the file again (nothing was changed)");
            }
            text = text.substring(0, at)
                    + edit.newText()
                    + text.substring(at + edit.oldText().length());
        }
        List<FileChange> plan = plan(ctx.space(), path, current, header + text);
        return apply(ctx, path, replacements.size(), plan);
    }

    /**
     * The derived "# Title" and "> Summary:" lines: not patchable (and not searched, so a summary never shadows an
     * entry).
     */
    private static String header(String text) {
        int summary = text.indexOf("\n" + MarkdownFormat.SUMMARY_PREFIX);
        int end = summary < 0 ? -1 : text.indexOf('\n', summary + 1);
        return end < 0 ? "" : text.substring(0, end + 1);
    }

    /**
     * memory_append: new entries at the end of the file (created when it does not exist). Text whose first line is a
     * bullet ({@code "- "}, or {@code "## label"} in MEMORY.md) is taken as entries; other text becomes one entry.
     */
    public FileWrite append(WriteContext ctx, MarkdownPath path, String entry, String ifMatch) {
        if (entry == null || entry.isBlank()) {
            throw ApiException.invalid("text is required: the entry to append");
        }
        if (MarkdownFormat.hasMarker(entry)) {
            throw ApiException.invalid(
                    "append adds new entries only: remove the <!-- id:... --> markers (edit existing "
                            + "entries with PUT or :patch)");
        }
        MarkdownFile current = current(ctx, path, ifMatch);
        String fragment = MarkdownFormat.normalize(entry);
        if (path.root() != MarkdownPath.Root.MEMORY && !fragment.startsWith("- ")) {
            fragment = "- " + fragment.replace("\n", "\n  ").replace("\n  \n", "\n\n");
        }
        String text = (current == null ? "" : current.text()) + "\n" + fragment + "\n";
        List<FileChange> plan = plan(ctx.space(), path, current, text);
        return apply(ctx, path, plan.size(), plan);
    }

    /** The file as the writer sees it now (null: no entries), after the category and If-Match checks. */
    private MarkdownFile current(WriteContext ctx, MarkdownPath path, String ifMatch) {
        MarkdownFile current = view(ctx.space(), ctx.actor()).file(path).orElse(null);
        requireCategory(ctx.actor(), path, current);
        if (ifMatch != null
                && !ifMatch.strip().replaceFirst("^W/", "").equals(current == null ? null : current.etag())) {
            throw new ApiException(
                    ErrorCodes.VERSION_CONFLICT,
                    path + " changed since it was read (If-Match " + ifMatch + ", now "
                            + (current == null ? "no file" : current.etag())
                            + "); read it again (nothing was changed)");
        }
        return current;
    }

    private List<FileChange> plan(String space, MarkdownPath path, MarkdownFile current, String text) {
        return edits.plan(
                space,
                path,
                current,
                text,
                label -> backend.views()
                        .block(space, label)
                        .map(b -> b.getTier() == Tier.CORE)
                        .orElse(true));
    }

    private FileWrite apply(WriteContext ctx, MarkdownPath path, int applied, List<FileChange> plan) {
        List<FileWrite.Applied> done = new ArrayList<>();
        Map<String, Integer> occurrences = new HashMap<>();
        for (FileChange change : plan) {
            String opText = change.op().toString();
            int n = occurrences.merge(opText, 1, Integer::sum);
            WriteContext one =
                    new WriteContext(ctx.space(), ctx.actor(), requestId(ctx.requestId(), opText, n), null, null);
            WriteResult result;
            try {
                result = change.op() instanceof UpdateBlock block
                        ? writes.execute(
                                one,
                                block,
                                (views, outcome) -> outcome.getMemoryId() != null
                                        ? views.memory(one.space(), outcome.getMemoryId())
                                        : views.block(one.space(), block.getLabel()))
                        : writes.execute(one, change.op());
            } catch (ApiException e) {
                throw new ApiException(
                        e.status(),
                        e.code(),
                        "line " + change.line() + " of " + path + " (" + describe(change)
                                + "): " + e.getMessage() + "; " + done.size() + " of " + plan.size()
                                + " changes were applied before it"
                                + (done.isEmpty() ? "" : " (" + describeApplied(done) + ")"),
                        e.requestId());
            }
            done.add(new FileWrite.Applied(
                    change.line(),
                    change.action(),
                    change.target() != null ? change.target() : result.memory().getId(),
                    result.seq()));
        }
        MarkdownFile after = view(ctx.space(), ctx.actor()).file(path).orElse(null);
        return new FileWrite(path, applied, done, after);
    }

    /**
     * The request id of one change: derived from the call's request id (the Idempotency-Key, if given) and the change
     * itself, so retrying a file write with the same key never applies a change twice.
     */
    static String requestId(String callRequestId, String op, int occurrence) {
        byte[] hash =
                Canonical.sha256((callRequestId + "\n" + op + "\n" + occurrence).getBytes(StandardCharsets.UTF_8));
        return "md-" + HexFormat.of().formatHex(hash, 0, 16);
    }

    private static String describe(FileChange change) {
        return change.action().name().toLowerCase(java.util.Locale.ROOT)
                + (change.target() == null ? "" : " " + change.target());
    }

    private static String describeApplied(List<FileWrite.Applied> done) {
        return String.join(
                ", ",
                done.stream()
                        .map(a -> a.action().name().toLowerCase(java.util.Locale.ROOT) + " " + a.target() + " at seq "
                                + a.seq())
                        .toList());
    }

    private void requireCategory(Actor actor, MarkdownPath path, MarkdownFile file) {
        if (path.root() != MarkdownPath.Root.FACTS) {
            return;
        }
        String category =
                file != null ? file.category() : MarkdownPath.GENERAL.equals(path.name()) ? null : path.name();
        if (!access.allows(actor, category)) {
            throw new ApiException(ErrorCodes.CATEGORY_NOT_ALLOWED, path + ": " + access.notAllowed(actor, category));
        }
    }

    /** The reader's rendering of the space: every active memory, the reader's allowlist applied. */
    MarkdownView view(String space, Actor reader) {
        List<Memory> active = new ArrayList<>();
        String after = null;
        do {
            Page<Memory> page = backend.views()
                    .list(space, new ListQuery(null, null, MemoryState.ACTIVE, after, ListQuery.MAX_LIMIT));
            active.addAll(page.items());
            after = page.next();
        } while (after != null);
        return renderer.render(active, m -> m.getKind() == MemoryKind.BLOCK || access.allows(reader, m.getCategory()));
    }
}
