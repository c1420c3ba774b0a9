package io.memorychain.projector.projection;

import static io.memorychain.projector.ChainHarness.AGENT;
import static org.assertj.core.api.Assertions.assertThat;

import io.memorychain.avro.CreateMemory;
import io.memorychain.avro.MemoryFlag;
import io.memorychain.avro.view.ThreadChange;
import io.memorychain.events.Requests;
import io.memorychain.projector.ChainHarness;
import io.memorychain.projector.view.DeltaHeader;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class ThreadRevisionTest {

    private static final String SPACE = "acme-planner";
    private final ChainHarness h = new ChainHarness();

    @AfterEach
    void close() {
        h.close();
    }

    private String create(String thread, String content, String category) {
        return h.submit(Requests.create(
                        SPACE,
                        AGENT,
                        CreateMemory.newBuilder()
                                .setContent(content)
                                .setThreadId(thread)
                                .setCategory(category)
                                .setImportance(2)
                                .build()))
                .getMemoryId();
    }

    @Test
    void everyContentChangeBumpsTheThreadRevisionOnceAndFlagsDoNot() {
        String a = create("t1", "Preferred name is Ana", "personal");
        String b = create("t1", "Ana is lactose intolerant", "health");
        h.submit(Requests.updateContent(SPACE, AGENT, a, "Preferred name is Ana, not Anna"));
        h.submit(Requests.flag(SPACE, AGENT, a, MemoryFlag.PINNED, true));
        String merged = h.submit(Requests.consolidate(
                        SPACE, AGENT, List.of(a, b), "Ana (not Anna) is lactose intolerant", "merge"))
                .getMemoryId();
        h.submit(Requests.delete(SPACE, AGENT, merged));
        h.submit(Requests.restore(SPACE, AGENT, merged));
        assertThat(h.views.threadRevision(SPACE, "t1")).isEqualTo(6);
        assertThat(h.views.threadChanges(SPACE, "t1", 0, 100))
                .extracting(ThreadChange::getChange)
                .containsExactly("created", "created", "updated", "merged", "deleted", "restored");
        assertThat(h.views.threadChanges(SPACE, "t1", 0, 100))
                .extracting(ThreadChange::getRev)
                .containsExactly(1L, 2L, 3L, 4L, 5L, 6L);
    }

    @Test
    void threadsAreIndependentAndMemoriesWithoutAThreadBelongToTheSpaceLevelThread() {
        create("t1", "one", null);
        create("t2", "two", null);
        create(null, "no thread", null);
        h.submit(Requests.block(SPACE, AGENT, "persona", "I am careful"));
        assertThat(h.views.threadRevision(SPACE, "t1")).isEqualTo(1);
        assertThat(h.views.threadRevision(SPACE, "t2")).isEqualTo(1);
        assertThat(h.views.threadRevision(SPACE, "")).isEqualTo(2);
        assertThat(h.views.threadRevision(SPACE, "t3")).isZero();
        assertThat(h.views.threadChanges("other-space", "t1", 0, 10)).isEmpty();
    }

    @Test
    void changesSinceARevisionAreTheLaterOnes() {
        for (int i = 0; i < 5; i++) {
            create("t1", "fact " + i, null);
        }
        assertThat(h.views.threadChanges(SPACE, "t1", 3, 100))
                .extracting(ThreadChange::getText)
                .containsExactly("fact 3", "fact 4");
    }

    @Test
    void onlyTheLastFiftyChangesAreKept() {
        for (int i = 0; i < 55; i++) {
            create("t1", "fact " + i, null);
        }
        List<ThreadChange> kept = h.views.threadChanges(SPACE, "t1", 0, 100);
        assertThat(kept).hasSize(ProjectionTopology.THREAD_CHANGES_KEPT);
        assertThat(kept.get(0).getRev()).isEqualTo(6);
        assertThat(h.views.threadRevision(SPACE, "t1")).isEqualTo(55);
    }

    @Test
    void deltaHeaderShowsAtMostThreeBulletsOfTheLatestChanges() {
        String a = create("t1", "Preferred name is Ana", "personal");
        create("t1", "Ship v1 by September", "goals");
        h.submit(Requests.updateContent(SPACE, AGENT, a, "Preferred name is Ana, not Anna"));
        create("t1", "Likes espresso", null);
        String header = DeltaHeader.format(0, h.views.threadChanges(SPACE, "t1", 0, 100));
        assertThat(header).isEqualTo("""
                Memory updates since rev 0 (4 changes, latest 3):
                - +created: [goals] Ship v1 by September (imp=2)
                - ↑updated: [personal] Preferred name is Ana, not Anna (imp=2)
                - +created: Likes espresso (imp=2)""");
        assertThat(DeltaHeader.format(4, h.views.threadChanges(SPACE, "t1", 4, 100)))
                .isEmpty();
    }
}
