package io.memorychain.api.memories;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.memorychain.api.error.ApiException;
import io.memorychain.api.request.InputRules;
import io.memorychain.avro.Confidence;
import io.memorychain.avro.ConsolidateMemories;
import io.memorychain.avro.CreateMemory;
import io.memorychain.avro.MemoryFlag;
import io.memorychain.avro.MemoryKind;
import io.memorychain.avro.Tier;
import io.memorychain.avro.UpdateMemory;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class MemoryRequestsTest {

    private final MemoryRequests requests = new MemoryRequests(new InputRules(1024, 10));

    private static CreateMemoryBody create(String content, String kind, Integer importance) {
        return new CreateMemoryBody(
                content,
                kind,
                null,
                null,
                null,
                null,
                importance,
                null,
                null,
                null,
                null,
                null,
                null,
                null,
                null,
                null,
                null);
    }

    @Test
    void buildsCreateMemoryWithAvroDefaultsForAbsentFields() {
        CreateMemory op = requests.create(create("likes tea", null, null));
        assertThat(op.getContent()).isEqualTo("likes tea");
        assertThat(op.getKind()).isEqualTo(MemoryKind.SEMANTIC);
        assertThat(op.getTier()).isEqualTo(Tier.WORKING);
        assertThat(op.getImportance()).isEqualTo(3);
        assertThat(op.getConfidence()).isEqualTo(Confidence.MEDIUM);
        assertThat(op.getTags()).isEmpty();
        assertThat(op.getPinned()).isFalse();
        assertThat(op.getCreatedAt()).isNull();
    }

    @Test
    void buildsCreateMemoryWithEveryField() {
        CreateMemory op = requests.create(new CreateMemoryBody(
                "c",
                "Procedural",
                "core",
                "prefs",
                "one line",
                List.of("a", "b"),
                5,
                "high",
                "chat",
                "u",
                "ag",
                "run",
                "act",
                "th",
                "user",
                "2024-01-02T03:04:05Z",
                true));
        assertThat(op.getKind()).isEqualTo(MemoryKind.PROCEDURAL);
        assertThat(op.getTier()).isEqualTo(Tier.CORE);
        assertThat(op.getCategory()).isEqualTo("prefs");
        assertThat(op.getSummary()).isEqualTo("one line");
        assertThat(op.getTags()).containsExactly("a", "b");
        assertThat(op.getImportance()).isEqualTo(5);
        assertThat(op.getConfidence()).isEqualTo(Confidence.HIGH);
        assertThat(op.getSource()).isEqualTo("chat");
        assertThat(List.of(
                        op.getUserId(),
                        op.getAgentId(),
                        op.getRunId(),
                        op.getActorId(),
                        op.getThreadId(),
                        op.getRole()))
                .containsExactly("u", "ag", "run", "act", "th", "user");
        assertThat(op.getCreatedAt()).isEqualTo(Instant.parse("2024-01-02T03:04:05Z"));
        assertThat(op.getPinned()).isTrue();
    }

    @Test
    void rejectsBadCreateInput() {
        assertThatThrownBy(() -> requests.create(null)).isInstanceOf(ApiException.class);
        assertThatThrownBy(() -> requests.create(create(null, null, null))).hasMessageContaining("content is required");
        assertThatThrownBy(() -> requests.create(create("x", "dream", null)))
                .hasMessageContaining("Unknown kind 'dream'")
                .hasMessageContaining("semantic, episodic");
        assertThatThrownBy(() -> requests.create(create("x", "block", null))).hasMessageContaining("blocks");
        assertThatThrownBy(() -> requests.create(create("x", null, 6))).hasMessageContaining("between 1 and 5");
        assertThatThrownBy(() -> requests.create(create("x".repeat(1025), null, null)))
                .isInstanceOfSatisfying(
                        ApiException.class, e -> assertThat(e.code()).isEqualTo("TOO_LARGE"));
        assertThatThrownBy(() -> requests.create(new CreateMemoryBody(
                        "x",
                        null,
                        null,
                        null,
                        null,
                        List.of(" "),
                        null,
                        null,
                        null,
                        null,
                        null,
                        null,
                        null,
                        null,
                        null,
                        null,
                        null)))
                .hasMessageContaining("tags");
    }

    @Test
    void updateCarriesOnlyTheChangedFields() {
        UpdateMemory op =
                requests.update("m1", new UpdateMemoryBody(null, "new summary", null, 2, null, null, "core", 4));
        assertThat(op.getId()).isEqualTo("m1");
        assertThat(op.getSummary()).isEqualTo("new summary");
        assertThat(op.getImportance()).isEqualTo(2);
        assertThat(op.getTier()).isEqualTo(Tier.CORE);
        assertThat(op.getContent()).isNull();
        assertThat(op.getTags()).isNull();
        assertThat(op.getConfidence()).isNull();
    }

    @Test
    void updateNeedsSomethingToChange() {
        assertThatThrownBy(
                        () -> requests.update("m1", new UpdateMemoryBody(null, null, null, null, null, null, null, 3)))
                .hasMessageContaining("Nothing to change");
    }

    @Test
    void consolidationKeepsInputsAndOptionalOverrides() {
        ConsolidateMemories op = requests.consolidate(
                "s", new ConsolidateBody(List.of("a", "b"), "merged", null, "dups", null, null, null));
        assertThat(op.getIds()).containsExactly("a", "b");
        assertThat(op.getContent()).isEqualTo("merged");
        assertThat(op.getReason()).isEqualTo("dups");
        assertThat(op.getTags()).isNull();
        assertThat(op.getImportance()).isNull();
    }

    @Test
    void flagsAndLifecycleOps() {
        assertThat(requests.flag("m", MemoryFlag.PINNED, true).getValue()).isTrue();
        assertThat(requests.flag("m", MemoryFlag.CONSTITUTIONAL, false).getFlag())
                .isEqualTo(MemoryFlag.CONSTITUTIONAL);
        assertThat(requests.delete("m", "why").getReason()).isEqualTo("why");
        assertThat(requests.delete("m", null).getReason()).isNull();
        assertThat(requests.restore("m").getId()).isEqualTo("m");
    }
}
