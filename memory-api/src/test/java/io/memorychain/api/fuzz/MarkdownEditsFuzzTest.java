package io.memorychain.api.fuzz;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.memorychain.api.error.ApiException;
import io.memorychain.api.markdown.MarkdownEdits;
import io.memorychain.api.markdown.MarkdownFile;
import io.memorychain.api.markdown.MarkdownPath;
import io.memorychain.api.markdown.MarkdownPaths;
import io.memorychain.api.markdown.MarkdownRenderer;
import io.memorychain.api.markdown.MarkdownView;
import io.memorychain.api.request.InputRules;
import io.memorychain.avro.Memory;
import io.memorychain.avro.MemoryKind;
import io.memorychain.avro.MemoryState;
import io.memorychain.avro.Tier;
import io.memorychain.domain.MemoryIds;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * A Markdown file edit as a client sends it (PUT /files/{path}, gRPC WriteFile, MCP memory_write): the first line of
 * the input is the path, the rest the new text. Against a rendered view of a small space, the path parses or is
 * refused, and the edit plans into changes or is refused, with {@link ApiException} only (a 4xx).
 */
class MarkdownEditsFuzzTest {

    private static final String SPACE = "s1";
    private static final List<String> LABELS = List.of("persona", "user_profile", "goals");
    private static final MarkdownEdits EDITS = new MarkdownEdits(
            new InputRules(200, 10),
            Set.copyOf(LABELS),
            Clock.fixed(Instant.parse("2024-06-15T12:00:00Z"), ZoneOffset.UTC));
    private static final MarkdownView VIEW = new MarkdownRenderer(LABELS).render(sample());

    @FuzzTest(maxDuration = "2m")
    void edit(byte[] data) {
        String input = FuzzJson.text(data);
        int nl = input.indexOf('\n');
        String path = nl < 0 ? input : input.substring(0, nl);
        String text = nl < 0 ? "" : input.substring(nl + 1);
        try {
            MarkdownPath parsed = MarkdownPaths.parse(path);
            MarkdownFile current = VIEW.file(parsed).orElse(null);
            EDITS.plan(SPACE, parsed, current, text, label -> label.equals("persona"));
        } catch (ApiException refused) {
            // 400 INVALID_PATH / INVALID_ARGUMENT / TOO_LARGE listing the problems
        }
    }

    private static List<Memory> sample() {
        Instant may = Instant.parse("2024-05-10T08:00:00Z");
        List<Memory> ms = new ArrayList<>();
        ms.add(memory(1, MemoryKind.SEMANTIC, "preferences", "Ana prefers dark mode", null, may));
        ms.add(memory(2, MemoryKind.SEMANTIC, "preferences", "Answers in English,\ncode comments too", null, may));
        ms.add(memory(3, MemoryKind.INSIGHT, null, "Ana works best in the morning", "morning person", may));
        ms.add(memory(4, MemoryKind.EPISODIC, null, "Fixed the logger leak", "logger fix", may));
        ms.add(memory(5, MemoryKind.PROCEDURAL, null, "1. build\n2. push", "Deploy the API", may));
        ms.add(Memory.newBuilder(memory(6, MemoryKind.BLOCK, null, "I am careful.\n\n- concise", null, may))
                .setBlockLabel("persona")
                .setTier(Tier.CORE)
                .build());
        return ms;
    }

    private static Memory memory(
            long seq, MemoryKind kind, String category, String content, String summary, Instant at) {
        return Memory.newBuilder()
                .setId(MemoryIds.of(SPACE, seq))
                .setSpace(SPACE)
                .setKind(kind)
                .setTier(Tier.WORKING)
                .setCategory(category)
                .setContent(content)
                .setSummary(summary)
                .setCreatedAt(at)
                .setUpdatedAt(at)
                .setVersion(1)
                .setState(MemoryState.ACTIVE)
                .setContentHash("h")
                .build();
    }
}
