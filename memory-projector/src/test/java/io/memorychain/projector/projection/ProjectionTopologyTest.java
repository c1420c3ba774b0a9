package io.memorychain.projector.projection;

import static io.memorychain.projector.ChainHarness.ADMIN;
import static io.memorychain.projector.ChainHarness.AGENT;
import static org.assertj.core.api.Assertions.assertThat;

import io.memorychain.avro.CreateMemory;
import io.memorychain.avro.Memory;
import io.memorychain.avro.MemoryEvent;
import io.memorychain.avro.MemoryFlag;
import io.memorychain.avro.MemoryKind;
import io.memorychain.avro.MemoryState;
import io.memorychain.avro.Tier;
import io.memorychain.avro.view.AuditEntry;
import io.memorychain.avro.view.HistoryEntry;
import io.memorychain.domain.core.CoreView;
import io.memorychain.events.Requests;
import io.memorychain.projector.ChainHarness;
import io.memorychain.projector.view.ListQuery;
import io.memorychain.projector.view.Page;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class ProjectionTopologyTest {

    private static final String SPACE = "acme-planner";
    private final ChainHarness h = new ChainHarness();

    @AfterEach
    void close() {
        h.close();
    }

    private String create(String content) {
        return h.submit(Requests.create(SPACE, AGENT, content)).getMemoryId();
    }

    private List<Memory> active() {
        return h.views.list(SPACE, new ListQuery(null, null, null, null, 100)).items();
    }

    @Test
    void consolidatedMemoriesLeaveTheActiveViewAndAppearAsSuperseded() {
        String a = create("User prefers dark mode");
        String b = create("User uses VS Code");
        String c = create("Unrelated: likes tea");
        String merged = h.submit(Requests.consolidate(SPACE, AGENT, List.of(a, b), "Dark-mode VS Code user", "merge"))
                .getMemoryId();
        assertThat(active()).extracting(Memory::getId).containsExactly(c, merged);
        Page<Memory> superseded = h.views.list(SPACE, new ListQuery(null, null, MemoryState.SUPERSEDED, null, 100));
        assertThat(superseded.items()).extracting(Memory::getId).containsExactly(a, b);
        assertThat(superseded.items())
                .allSatisfy(m -> assertThat(m.getSupersededBy()).isEqualTo(merged));
    }

    @Test
    void listingFiltersByKindCategoryAndStateAndPages() {
        for (int i = 0; i < 5; i++) {
            h.submit(Requests.create(
                    SPACE,
                    AGENT,
                    CreateMemory.newBuilder()
                            .setContent("fact " + i)
                            .setCategory(i % 2 == 0 ? "work" : "home")
                            .setKind(i < 3 ? MemoryKind.SEMANTIC : MemoryKind.EPISODIC)
                            .build()));
        }
        String deleted = create("to delete");
        h.submit(Requests.delete(SPACE, AGENT, deleted));
        assertThat(h.views
                        .list(SPACE, new ListQuery(null, "work", null, null, 100))
                        .items())
                .hasSize(3);
        assertThat(h.views
                        .list(SPACE, new ListQuery(MemoryKind.EPISODIC, null, null, null, 100))
                        .items())
                .hasSize(2);
        assertThat(h.views
                        .list(SPACE, new ListQuery(null, null, MemoryState.SOFT_DELETED, null, 100))
                        .items())
                .extracting(Memory::getId)
                .containsExactly(deleted);
        Page<Memory> first = h.views.list(SPACE, new ListQuery(null, null, null, null, 2));
        Page<Memory> second = h.views.list(SPACE, new ListQuery(null, null, null, first.next(), 2));
        Page<Memory> third = h.views.list(SPACE, new ListQuery(null, null, null, second.next(), 2));
        List<String> paged = new ArrayList<>();
        List.of(first, second, third).forEach(p -> p.items().forEach(m -> paged.add(m.getId())));
        assertThat(paged)
                .containsExactlyElementsOf(active().stream().map(Memory::getId).toList());
        assertThat(third.next()).isNull();
    }

    @Test
    void coreViewFormatsBlocksInOrderWithCoreMemoriesAndCountsTokens() {
        h.submit(Requests.block(SPACE, AGENT, "user_profile", "Ana, a TypeScript developer"));
        h.submit(Requests.block(SPACE, AGENT, "persona", "I am a careful planner"));
        h.submit(Requests.create(
                SPACE,
                AGENT,
                CreateMemory.newBuilder()
                        .setContent("Never book flights before 9am")
                        .setTier(Tier.CORE)
                        .build()));
        create("working memory is not core");
        CoreView core = h.views.core(SPACE);
        assertThat(core.text()).isEqualTo("""
                ## Who I Am
                I am a careful planner

                ## About the User
                Ana, a TypeScript developer

                ## Core Memories
                - Never book flights before 9am""");
        assertThat(core.tokens()).isBetween(20, 40);
        assertThat(core.memories()).hasSize(3);
        h.submit(Requests.block(SPACE, AGENT, "persona", "I am a bold planner"));
        assertThat(h.views.core(SPACE).text()).contains("I am a bold planner").doesNotContain("careful");
        assertThat(h.views.block(SPACE, "persona").orElseThrow().getVersion()).isEqualTo(2);
        assertThat(h.views.block(SPACE, "goals")).isEmpty();
    }

    @Test
    void historyRecordsEveryEventWithBeforeAndAfter() {
        String id = create("v1");
        h.submit(Requests.updateContent(SPACE, AGENT, id, "v2"));
        h.submit(Requests.flag(SPACE, ADMIN, id, MemoryFlag.PINNED, true));
        h.submit(Requests.delete(SPACE, AGENT, id));
        List<HistoryEntry> history = h.views.history(SPACE, id);
        assertThat(history)
                .extracting(HistoryEntry::getEventType)
                .containsExactly("MemoryCreated", "MemoryUpdated", "MemoryPinned", "MemoryDeleted");
        assertThat(history.get(0).getBefore()).isNull();
        assertThat(history.get(1).getBefore().getContent()).isEqualTo("v1");
        assertThat(history.get(1).getAfter().getContent()).isEqualTo("v2");
        assertThat(history.get(3).getAfter().getState()).isEqualTo(MemoryState.SOFT_DELETED);
        assertThat(history.get(3).getAfter().getVersion()).isEqualTo(4);
        assertThat(history.get(2).getActor()).isEqualTo(ADMIN);
    }

    @Test
    void auditLogListsEveryEventOfTheSpaceInOrder() {
        String id = create("a");
        create("b");
        h.submit(Requests.delete(SPACE, AGENT, id));
        h.submit(Requests.create("another", AGENT, "not mine"));
        List<AuditEntry> audit = h.views.audit(SPACE, 0, 100);
        assertThat(audit).extracting(AuditEntry::getSeq).containsExactly(1L, 2L, 3L);
        assertThat(audit.get(2).getDescription()).startsWith("soft-deleted " + id);
        assertThat(audit.get(2).getMemoryIds()).containsExactly(id);
        assertThat(h.views.audit(SPACE, 1, 1)).extracting(AuditEntry::getSeq).containsExactly(2L);
        assertThat(h.views.appliedSeq(SPACE)).isEqualTo(3);
    }

    @Test
    void theAppliedSeqIsTheViewsNotAHigherOneSeenBeforeAnAbort() throws Exception {
        create("a");
        create("b");
        // seqs 3..7 were applied in a transaction that exactly-once then aborted: the stores were restored to seq 2
        h.tracker.applied(SPACE, 7);

        assertThat(h.views.appliedSeq(SPACE)).as("what the views hold").isEqualTo(2);
        assertThat(h.views.awaitApplied(SPACE, 7, java.time.Duration.ofMillis(50)))
                .as("no read-your-writes promise for a write the views do not have")
                .isFalse();
        assertThat(h.views.appliedSeqs(10)).containsEntry(SPACE, 2L);
    }

    @Test
    void replayingEventsAlreadyAppliedChangesNothing() {
        String id = create("a");
        h.submit(Requests.updateContent(SPACE, AGENT, id, "b"));
        Memory before = h.views.memory(SPACE, id).orElseThrow();
        for (MemoryEvent e : h.chain()) {
            h.replayIntoProjection(e);
        }
        assertThat(h.views.memory(SPACE, id)).contains(before);
        assertThat(h.views.history(SPACE, id)).hasSize(2);
    }

    @Test
    void undecodableEventsAreSetAsideAndProjectionContinues() {
        h.pipeRawEvent(SPACE.getBytes(StandardCharsets.UTF_8), new byte[] {0, 0, 0, 0, 99, 1});
        String id = create("after the bad record");
        assertThat(h.projectionDeadLetters()).hasSize(1);
        assertThat(h.views.memory(SPACE, id)).isPresent();
    }

    @Test
    void unknownIdsAndIdsOfOtherSpacesAreNotVisible() {
        String theirs = h.submit(Requests.create("another", AGENT, "theirs")).getMemoryId();
        assertThat(h.views.memory(SPACE, theirs)).isEmpty();
        assertThat(h.views.memory("another", theirs)).isPresent();
        assertThat(h.views.history(SPACE, theirs)).isEmpty();
    }
}
