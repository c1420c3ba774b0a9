package io.memorychain.api.markdown;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.memorychain.api.error.ApiException;
import io.memorychain.api.request.InputRules;
import io.memorychain.avro.CreateMemory;
import io.memorychain.avro.DeleteMemory;
import io.memorychain.avro.Memory;
import io.memorychain.avro.MemoryKind;
import io.memorychain.avro.MemoryState;
import io.memorychain.avro.Tier;
import io.memorychain.avro.UpdateBlock;
import io.memorychain.avro.UpdateMemory;
import io.memorychain.domain.MemoryIds;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class MarkdownRendererTest {

    private static final String SPACE = "s1";
    private static final Instant MAY = Instant.parse("2024-05-10T08:00:00Z");
    private final MarkdownRenderer renderer = new MarkdownRenderer(List.of("persona", "user_profile", "goals"));
    private final MarkdownEdits edits = new MarkdownEdits(
            new InputRules(200, 10),
            Set.of("persona", "user_profile", "goals"),
            Clock.fixed(Instant.parse("2024-06-15T12:00:00Z"), ZoneOffset.UTC));
    private long seq;

    private Memory memory(MemoryKind kind, String category, String content, String summary, Instant createdAt) {
        String id = MemoryIds.of(SPACE, ++seq);
        return Memory.newBuilder()
                .setId(id)
                .setSpace(SPACE)
                .setKind(kind)
                .setTier(Tier.WORKING)
                .setCategory(category)
                .setContent(content)
                .setSummary(summary)
                .setCreatedAt(createdAt)
                .setUpdatedAt(createdAt)
                .setVersion(1)
                .setState(MemoryState.ACTIVE)
                .setContentHash("h")
                .build();
    }

    private Memory block(String label, String content) {
        return Memory.newBuilder(memory(MemoryKind.BLOCK, null, content, null, MAY))
                .setBlockLabel(label)
                .setTier(Tier.CORE)
                .build();
    }

    private List<Memory> sample() {
        List<Memory> ms = new ArrayList<>();
        ms.add(memory(MemoryKind.SEMANTIC, "preferences", "Ana prefers dark mode", null, MAY));
        ms.add(memory(
                MemoryKind.SEMANTIC,
                "preferences",
                "Answers in English,\ncode comments too\n\n  - even in tests",
                null,
                MAY));
        ms.add(memory(MemoryKind.INSIGHT, null, "Ana works best in the morning", "morning person", MAY));
        ms.add(memory(
                MemoryKind.EPISODIC,
                null,
                "Fixed the logger leak",
                "logger fix",
                Instant.parse("2024-05-31T23:59:59Z")));
        ms.add(memory(MemoryKind.EPISODIC, null, "Moved to short ids", null, Instant.parse("2024-06-01T00:00:00Z")));
        ms.add(memory(MemoryKind.EPISODIC, null, "Earlier in May", null, Instant.parse("2024-05-02T00:00:00Z")));
        ms.add(memory(MemoryKind.PROCEDURAL, null, "1. build\n2. push", "Deploy the API", MAY));
        ms.add(memory(MemoryKind.PROCEDURAL, null, "1. build\n2. push to staging", "Deploy the API!", MAY));
        ms.add(memory(MemoryKind.JOURNAL, null, "journal entries have no file", null, MAY));
        ms.add(Memory.newBuilder(memory(MemoryKind.SEMANTIC, null, "gone", null, MAY))
                .setState(MemoryState.SOFT_DELETED)
                .build());
        ms.add(block("goals", "Ship the beta"));
        ms.add(block("persona", "I am careful.\n\n- concise\n- kind"));
        return ms;
    }

    @Test
    void rendersFactsEpisodesProceduresAndCoreFilesDeterministically() {
        List<Memory> memories = sample();
        MarkdownView view = renderer.render(memories);
        assertThat(view.files())
                .extracting(f -> f.path().toString())
                .containsExactly(
                        "MEMORY.md",
                        "facts/general.md",
                        "facts/preferences.md",
                        "episodes/2024-05.md",
                        "episodes/2024-06.md",
                        "procedures/deploy-the-api.md",
                        "procedures/deploy-the-api-2.md");
        List<Memory> reversed = new ArrayList<>(memories);
        java.util.Collections.reverse(reversed);
        assertThat(renderer.render(reversed)).isEqualTo(view);

        MarkdownFile prefs = view.file(MarkdownPath.facts("preferences")).orElseThrow();
        assertThat(prefs.text())
                .isEqualTo("# Facts: preferences\n\n> Summary: Ana prefers dark mode, Answers in English\n\n"
                        + "- Ana prefers dark mode <!-- id:" + memories.get(0).getId() + " -->\n"
                        + "- Answers in English,\n  code comments too\n\n    - even in tests <!-- id:"
                        + memories.get(1).getId() + " -->\n");
        assertThat(prefs.category()).isEqualTo("preferences");
        assertThat(prefs.entries()).extracting(MarkdownEntry::line).containsExactly(5, 6);
        assertThat(view.file(MarkdownPath.facts("general")).orElseThrow().summary())
                .isEqualTo("morning person");
        assertThat(view.file(MarkdownPaths.parse("episodes/2024-05.md"))
                        .orElseThrow()
                        .entries())
                .extracting(MarkdownEntry::text)
                .containsExactly("Earlier in May", "Fixed the logger leak");
        assertThat(view.file(MarkdownPath.MEMORY).orElseThrow().text())
                .isEqualTo("# Core memory\n\n> Summary: persona, goals\n\n"
                        + "## persona\n\nI am careful.\n\n- concise\n- kind\n\n## goals\n\nShip the beta\n");
        assertThat(view.file(MarkdownPaths.parse("procedures/deploy-the-api-2.md"))
                        .orElseThrow()
                        .text())
                .startsWith("# Procedure: Deploy the API\n\n> Summary: Deploy the API\n")
                .contains("push to staging");
    }

    @Test
    void everyRenderedFileParsesBackWithoutChanges() {
        MarkdownView view = renderer.render(sample());
        for (MarkdownFile file : view.files()) {
            assertThat(edits.plan(SPACE, file.path(), file, file.text(), label -> true))
                    .as(file.path().toString())
                    .isEmpty();
            assertThat(MarkdownParser.parse(file.path(), file.text()).entries()).isEqualTo(file.entries());
        }
    }

    @Test
    void hiddenEntriesKeepTheirFileNamesAndEmptyFilesDisappear() {
        List<Memory> ms = sample();
        MarkdownView confined = renderer.render(
                ms, m -> !"Deploy the API".equals(m.getSummary()) && !"preferences".equals(m.getCategory()));
        assertThat(confined.files())
                .extracting(f -> f.path().toString())
                .contains("procedures/deploy-the-api-2.md")
                .doesNotContain("procedures/deploy-the-api.md", "facts/preferences.md");
        assertThat(renderer.render(List.of()).files())
                .extracting(f -> f.text())
                .containsExactly("# Core memory\n\n> Summary: (empty)\n");
    }

    @Test
    void summariesStayWithinTenWords() {
        assertThat(MarkdownFormat.summary(List.of("one two three four", "five six seven", "eight nine ten eleven")))
                .isEqualTo("one two three four, five six seven");
        assertThat(MarkdownFormat.summary(List.of("a b c d e f g h i j k l"))).isEqualTo("a b c d e f g h i j");
        assertThat(MarkdownFormat.label(null, "Ana prefers dark mode in every editor."))
                .isEqualTo("Ana prefers dark mode");
        assertThat(MarkdownFormat.label("logger fix.", "whatever")).isEqualTo("logger fix");
    }

    @Test
    void mapsChangedRemovedAndNewBulletsToUpdatesDeletesAndCreates() {
        List<Memory> ms = sample();
        MarkdownFile prefs =
                renderer.render(ms).file(MarkdownPath.facts("preferences")).orElseThrow();
        String a = ms.get(0).getId();
        String b = ms.get(1).getId();
        String edited = "# whatever title\n\n- New fact\n- Ana prefers light mode <!-- id:" + a + " -->\n";
        List<FileChange> changes = edits.plan(SPACE, prefs.path(), prefs, edited, label -> true);
        assertThat(changes)
                .extracting(FileChange::action)
                .containsExactly(FileChange.Action.CREATED, FileChange.Action.UPDATED, FileChange.Action.DELETED);
        assertThat(((CreateMemory) changes.get(0).op()).getCategory()).isEqualTo("preferences");
        assertThat(((CreateMemory) changes.get(0).op()).getKind()).isEqualTo(MemoryKind.SEMANTIC);
        assertThat(changes.get(0).line()).isEqualTo(3);
        assertThat(((UpdateMemory) changes.get(1).op()).getContent()).isEqualTo("Ana prefers light mode");
        assertThat(((DeleteMemory) changes.get(2).op()).getId()).isEqualTo(b);
    }

    @Test
    void newEntriesTakeTheirKindAndDatesFromThePath() {
        CreateMemory may =
                (CreateMemory) edits.plan(SPACE, MarkdownPaths.parse("episodes/2024-05.md"), null, "- x", l -> true)
                        .get(0)
                        .op();
        assertThat(may.getKind()).isEqualTo(MemoryKind.EPISODIC);
        assertThat(may.getCreatedAt()).isEqualTo(Instant.parse("2024-05-01T00:00:00Z"));
        CreateMemory june =
                (CreateMemory) edits.plan(SPACE, MarkdownPaths.parse("episodes/2024-06.md"), null, "- x", l -> true)
                        .get(0)
                        .op();
        assertThat(june.getCreatedAt()).isNull();
        CreateMemory general = (CreateMemory) edits.plan(SPACE, MarkdownPath.facts("general"), null, "- x", l -> true)
                .get(0)
                .op();
        assertThat(general.getCategory()).isNull();
        CreateMemory procedure =
                (CreateMemory) edits.plan(SPACE, MarkdownPath.procedures("deploy-the-api"), null, "- x", l -> true)
                        .get(0)
                        .op();
        assertThat(procedure.getKind()).isEqualTo(MemoryKind.PROCEDURAL);
        assertThat(MarkdownRenderer.slug(procedure.getSummary())).isEqualTo("deploy-the-api");
        UpdateBlock block =
                (UpdateBlock) edits.plan(SPACE, MarkdownPath.MEMORY, null, "## goals\n\nShip it\n", l -> true)
                        .get(0)
                        .op();
        assertThat(block.getLabel()).isEqualTo("goals");
        assertThat(block.getContent()).isEqualTo("Ship it");
    }

    @Test
    void rejectsTheWholeFileListingEveryBadLine() {
        List<Memory> ms = sample();
        MarkdownView view = renderer.render(ms);
        MarkdownFile prefs = view.file(MarkdownPath.facts("preferences")).orElseThrow();
        String a = ms.get(0).getId();
        String general = ms.get(2).getId();
        String text = "- ok\nstray text\n- moved <!-- id:" + general + " -->\n- foreign <!-- id:m0000001zzzz -->\n"
                + "- <!-- id:" + a + " --> misplaced\n- twice <!-- id:" + a + " -->\n- again <!-- id:" + a
                + " -->\n- \n"
                + "- " + "x".repeat(201) + "\n";
        assertThatThrownBy(() -> edits.plan(SPACE, prefs.path(), prefs, text, l -> true))
                .isInstanceOfSatisfying(ApiException.class, e -> {
                    assertThat(e.code()).isEqualTo("INVALID_ARGUMENT");
                    assertThat(e.getMessage())
                            .contains(
                                    "line 2: not an entry",
                                    "line 3: memory " + general + " is not an entry",
                                    "line 4: 'm0000001zzzz' is not a memory id of space s1",
                                    "line 5: the id marker",
                                    "line 7: memory " + a + " appears twice",
                                    "line 8: empty entry",
                                    "line 9: entry is 201 bytes",
                                    "nothing was changed");
                });
        assertThatThrownBy(() -> edits.plan(SPACE, prefs.path(), prefs, "- " + "x".repeat(201), l -> true))
                .isInstanceOfSatisfying(
                        ApiException.class, e -> assertThat(e.code()).isEqualTo("TOO_LARGE"));
        MarkdownFile core = view.file(MarkdownPath.MEMORY).orElseThrow();
        assertThatThrownBy(() -> edits.plan(
                        SPACE,
                        MarkdownPath.MEMORY,
                        core,
                        "## persona\n\nI am careful.\n\n## villain\n\nx\n",
                        l -> true))
                .isInstanceOfSatisfying(
                        ApiException.class,
                        e -> assertThat(e.getMessage())
                                .contains("unknown block label 'villain'", "'## goals' was removed"));
        assertThatThrownBy(
                        () -> edits.plan(SPACE, MarkdownPaths.parse("episodes/2024-07.md"), null, "- later", l -> true))
                .isInstanceOfSatisfying(
                        ApiException.class, e -> assertThat(e.getMessage()).contains("future month"));
        assertThatThrownBy(() -> edits.plan(SPACE, MarkdownPath.procedures("p"), null, "- one\n- two", l -> true))
                .isInstanceOfSatisfying(
                        ApiException.class, e -> assertThat(e.getMessage()).contains("holds one entry"));
    }

    @Test
    void perChangeRequestIdsAreStableForTheSameCallAndChange() {
        assertThat(MarkdownFiles.requestId("k1", "op", 1))
                .isEqualTo(MarkdownFiles.requestId("k1", "op", 1))
                .isNotEqualTo(MarkdownFiles.requestId("k1", "op", 2))
                .isNotEqualTo(MarkdownFiles.requestId("k2", "op", 1))
                .startsWith("md-")
                .hasSize(35);
    }
}
