package io.memorychain.api.markdown;

import io.memorychain.api.error.ApiException;
import io.memorychain.api.error.ErrorCodes;
import io.memorychain.api.request.InputRules;
import io.memorychain.api.request.PathIds;
import io.memorychain.api.request.Texts;
import io.memorychain.avro.CreateMemory;
import io.memorychain.avro.DeleteMemory;
import io.memorychain.avro.MemoryKind;
import io.memorychain.avro.UpdateBlock;
import io.memorychain.avro.UpdateMemory;
import java.time.Clock;
import java.time.YearMonth;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;

/**
 * Maps an edited file onto requests, against the file as the editor saw it (the rendering for the same reader):
 *
 * <ul>
 *   <li>a bullet whose id is in the file and whose text changed: UpdateMemory (content);
 *   <li>an id of the file that is no longer there: DeleteMemory (soft, restorable);
 *   <li>a bullet without id: CreateMemory, kind and category (facts), created_at (episodes) or summary (procedures)
 *       from the path;
 *   <li>MEMORY.md: a changed or new {@code ## label} section: UpdateBlock (blocks cannot be removed here).
 * </ul>
 *
 * Creations and updates come in file order, then deletions in the old file's order. Everything is validated first: any
 * bad line (unknown, foreign or duplicate ids, markers in the wrong place, empty entries, oversized content, stray
 * text) rejects the whole file with every problem listed, before anything is published.
 */
public final class MarkdownEdits {

    private final InputRules rules;
    private final Set<String> blockLabels;
    private final Clock clock;

    public MarkdownEdits(InputRules rules, Set<String> blockLabels, Clock clock) {
        this.rules = rules;
        this.blockLabels = Set.copyOf(blockLabels);
        this.clock = clock;
    }

    /**
     * @param current the file as the editor's reader sees it now, null when it does not exist yet
     * @param coreBlock whether the existing block of a label is a core block (kept on update)
     * @throws ApiException INVALID_ARGUMENT (TOO_LARGE when only sizes are wrong) listing every problem
     */
    public List<FileChange> plan(
            String space, MarkdownPath path, MarkdownFile current, String text, Predicate<String> coreBlock) {
        MarkdownParser.Parsed parsed = MarkdownParser.parse(path, text);
        Problems problems = new Problems(parsed.problems());
        List<FileChange> changes = path.root() == MarkdownPath.Root.MEMORY
                ? blocks(current, parsed.entries(), coreBlock, problems)
                : bullets(space, path, current, parsed.entries(), problems);
        problems.throwIfAny(path);
        return changes;
    }

    private List<FileChange> blocks(
            MarkdownFile current, List<MarkdownEntry> entries, Predicate<String> coreBlock, Problems problems) {
        Map<String, MarkdownEntry> before = new LinkedHashMap<>();
        if (current != null) {
            current.entries().forEach(e -> before.put(e.label(), e));
        }
        List<FileChange> changes = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        for (MarkdownEntry e : entries) {
            seen.add(e.label());
            MarkdownEntry old = before.get(e.label());
            if (old == null && !blockLabels.contains(e.label())) {
                problems.add("line " + e.line() + ": unknown block label '" + e.label() + "' (configured: "
                        + String.join(", ", blockLabels.stream().sorted().toList()) + ")");
                continue;
            }
            if (!problems.content(e) || (old != null && old.text().equals(e.text()))) {
                continue;
            }
            boolean core = old == null || coreBlock.test(e.label());
            changes.add(new FileChange(
                    e.line(),
                    FileChange.Action.BLOCK_UPDATED,
                    e.label(),
                    UpdateBlock.newBuilder()
                            .setLabel(e.label())
                            .setContent(e.text())
                            .setCore(core)
                            .build()));
        }
        before.values().stream()
                .filter(e -> !seen.contains(e.label()))
                .forEach(e -> problems.add("section '## " + e.label()
                        + "' was removed: blocks cannot be removed from MEMORY.md (edit their content instead)"));
        return changes;
    }

    private List<FileChange> bullets(
            String space, MarkdownPath path, MarkdownFile current, List<MarkdownEntry> entries, Problems problems) {
        Map<String, MarkdownEntry> before = new LinkedHashMap<>();
        if (current != null) {
            current.entries().forEach(e -> before.put(e.id(), e));
        }
        List<FileChange> changes = new ArrayList<>();
        Set<String> kept = new HashSet<>();
        for (MarkdownEntry e : entries) {
            boolean sized = problems.content(e);
            if (e.id() == null) {
                CreateMemory create = create(path, current, e, problems);
                if (sized && create != null) {
                    changes.add(new FileChange(e.line(), FileChange.Action.CREATED, null, create));
                }
                continue;
            }
            MarkdownEntry old = before.get(e.id());
            if (!PathIds.plausible(e.id()) || !io.memorychain.domain.MemoryIds.belongsTo(e.id(), space)) {
                problems.add("line " + e.line() + ": '" + Texts.abbreviate(e.id()) + "' is not a memory id of space "
                        + space);
            } else if (old == null) {
                problems.add("line " + e.line() + ": memory " + e.id() + " is not an entry of " + path
                        + " (to move a memory, delete its bullet here and add it without id where it belongs)");
            } else if (!kept.add(e.id())) {
                problems.add("line " + e.line() + ": memory " + e.id() + " appears twice");
            } else if (sized && !old.text().equals(e.text())) {
                changes.add(new FileChange(
                        e.line(),
                        FileChange.Action.UPDATED,
                        e.id(),
                        UpdateMemory.newBuilder()
                                .setId(e.id())
                                .setContent(e.text())
                                .build()));
            }
        }
        if (path.root() == MarkdownPath.Root.PROCEDURES && entries.size() > 1) {
            problems.add("a procedure file holds one entry; it has " + entries.size()
                    + " (write another procedure to its own procedures/<name>.md)");
        }
        before.values().stream()
                .filter(e -> !kept.contains(e.id()))
                .forEach(e -> changes.add(new FileChange(
                        e.line(),
                        FileChange.Action.DELETED,
                        e.id(),
                        DeleteMemory.newBuilder()
                                .setId(e.id())
                                .setReason("removed from " + path + " in the Markdown view")
                                .build())));
        return changes;
    }

    private CreateMemory create(MarkdownPath path, MarkdownFile current, MarkdownEntry e, Problems problems) {
        CreateMemory.Builder b = CreateMemory.newBuilder().setContent(e.text());
        switch (path.root()) {
            case FACTS ->
                b.setKind(MemoryKind.SEMANTIC)
                        .setCategory(
                                current != null
                                        ? current.category()
                                        : MarkdownPath.GENERAL.equals(path.name()) ? null : path.name());
            case EPISODES -> {
                YearMonth now = YearMonth.now(clock.withZone(ZoneOffset.UTC));
                YearMonth month = path.month();
                if (month.isAfter(now)) {
                    problems.add("line " + e.line() + ": " + path + " is a future month; new episodes go to "
                            + MarkdownPath.episodes(now) + " or an earlier month");
                    return null;
                }
                b.setKind(MemoryKind.EPISODIC);
                if (!month.equals(now)) {
                    b.setCreatedAt(month.atDay(1).atStartOfDay().toInstant(ZoneOffset.UTC));
                }
            }
            case PROCEDURES ->
                b.setKind(MemoryKind.PROCEDURAL)
                        .setSummary(path.name().replace('-', ' ').replace('_', ' '));
            case MEMORY -> throw new IllegalStateException("MEMORY.md has no bullets");
        }
        return b.build();
    }

    /** The problems found so far; sizes are checked with the configured content limit. */
    private final class Problems {
        private final List<String> messages;
        private boolean onlyTooLarge = true;

        Problems(List<String> parseProblems) {
            this.messages = new ArrayList<>(parseProblems);
            this.onlyTooLarge = parseProblems.isEmpty();
        }

        void add(String message) {
            messages.add(message);
            onlyTooLarge = false;
        }

        /** Whether the entry's text is within the content limit (else a problem is recorded). */
        boolean content(MarkdownEntry e) {
            try {
                rules.content("entry", e.text());
                return true;
            } catch (ApiException tooLarge) {
                messages.add("line " + e.line() + ": " + tooLarge.getMessage());
                return false;
            }
        }

        void throwIfAny(MarkdownPath path) {
            if (!messages.isEmpty()) {
                throw new ApiException(
                        onlyTooLarge ? ErrorCodes.TOO_LARGE : ErrorCodes.INVALID_ARGUMENT,
                        path + " was not written (nothing was changed): " + String.join("; ", messages));
            }
        }
    }
}
