package io.memorychain.api.audit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.memorychain.api.categories.CategoryReads;
import io.memorychain.api.error.ApiException;
import io.memorychain.api.topology.TopologyBackend;
import io.memorychain.avro.Actor;
import io.memorychain.avro.ActorType;
import io.memorychain.domain.category.CategoryAccess;
import io.memorychain.domain.category.CategoryPolicy;
import io.memorychain.events.Requests;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The audit log paged newest first: cursors, filters, the bounded read and {@code since} ending it. */
class AuditTimelineTest {

    private static final Actor ANA = Requests.actor(ActorType.AGENT, "ana");
    private static final Actor BOB = Requests.actor(ActorType.AGENT, "bob");
    private static TopologyBackend backend;
    private static AuditLog log;

    @BeforeAll
    static void writeSomeHistory() {
        backend = new TopologyBackend();
        log = new AuditLog(backend, new CategoryReads(new CategoryAccess(CategoryPolicy.unrestricted())));
        // seqs 1..7 in space "t": ana writes odd seqs, bob even ones
        for (int i = 1; i <= 7; i++) {
            write("t", i % 2 == 1 ? ANA : BOB, "fact " + i);
        }
    }

    @AfterAll
    static void close() {
        backend.harness().close();
    }

    private static String write(String space, Actor actor, String content) {
        var outcome =
                backend.publish(Requests.create(space, actor, content).build()).join();
        assertThat(outcome.getAccepted()).as(outcome.getMessage()).isTrue();
        return outcome.getMemoryId();
    }

    private static List<Long> seqs(AuditTimeline page) {
        return page.items().stream().map(AuditEntryJson::seq).toList();
    }

    @Test
    void pagesBackFromTheHeadWithACursorUntilTheFirstEntry() {
        AuditTimeline first = log.timeline("t", ANA, AuditQuery.ALL, null, 3);
        assertThat(seqs(first)).containsExactly(7L, 6L, 5L);
        assertThat(first.olderThan()).isEqualTo(5L);

        AuditTimeline second = log.timeline("t", ANA, AuditQuery.ALL, first.olderThan(), 3);
        assertThat(seqs(second)).containsExactly(4L, 3L, 2L);

        AuditTimeline last = log.timeline("t", ANA, AuditQuery.ALL, second.olderThan(), 3);
        assertThat(seqs(last)).containsExactly(1L);
        assertThat(last.olderThan()).as("the log's start was read").isNull();
    }

    @Test
    void filtersByActorAndTypeAndAgreesWithTheOldestFirstSearch() {
        AuditQuery bob = AuditQuery.of(null, "agent:bob", "MemoryCreated", null, null, null, null);
        AuditTimeline page = log.timeline("t", ANA, bob, null, 10);
        assertThat(seqs(page)).containsExactly(6L, 4L, 2L);
        assertThat(page.olderThan()).isNull();
        List<Long> ascending = new ArrayList<>(seqs(page));
        java.util.Collections.reverse(ascending);
        assertThat(log.search("t", ANA, bob, null, 10).items())
                .extracting(AuditEntryJson::seq)
                .containsExactlyElementsOf(ascending);
        assertThat(seqs(log.timeline("t", ANA, bob, 4L, 10))).containsExactly(2L);
    }

    @Test
    void aMemoryFilterFindsItsEntriesAndAnEmptySpaceHasNone() {
        String id = write("m", ANA, "to be forgotten");
        write("m", BOB, "other");
        backend.publish(Requests.delete("m", ANA, id).build()).join();
        AuditTimeline page = log.timeline("m", ANA, AuditQuery.of(id, null, null, null, null, null, null), null, 10);
        assertThat(page.items())
                .extracting(AuditEntryJson::eventType)
                .containsExactly("MemoryDeleted", "MemoryCreated");

        AuditTimeline none = log.timeline("empty-space", ANA, AuditQuery.ALL, null, 10);
        assertThat(none.items()).isEmpty();
        assertThat(none.olderThan()).isNull();
    }

    @Test
    void sinceEndsTheReadAndUntilSkipsNewerEntries() {
        List<AuditEntryJson> all =
                log.timeline("t", ANA, AuditQuery.ALL, null, 10).items();
        java.time.Instant third = java.time.Instant.parse(all.get(4).occurredAt()); // seq 3
        java.time.Instant sixth = java.time.Instant.parse(all.get(1).occurredAt()); // seq 6
        java.time.Instant end = sixth.plusMillis(1);
        AuditQuery range = new AuditQuery(null, null, Set.of(), null, third, end, false);
        AuditTimeline page = log.timeline("t", ANA, range, null, 10);
        List<Long> expected = all.stream()
                .filter(e -> !java.time.Instant.parse(e.occurredAt()).isBefore(third)
                        && java.time.Instant.parse(e.occurredAt()).isBefore(end))
                .map(AuditEntryJson::seq)
                .toList();
        assertThat(seqs(page)).containsExactlyElementsOf(expected).contains(3L, 6L);
        assertThat(page.olderThan()).isNull();
    }

    @Test
    void aPageReadsAtMostItsBoundAndSaysWhereItStopped() {
        AuditQuery nobody = AuditQuery.of(null, "agent:nobody", null, null, null, null, null);
        AuditTimeline page = log.timeline("t", ANA, nobody, null, 10, 2, 4);
        assertThat(page.items()).isEmpty();
        assertThat(page.olderThan()).as("seqs 1..3 are still unread").isEqualTo(4L);
        assertThat(page.searchedTo()).isEqualTo(4L);
        AuditTimeline rest = log.timeline("t", ANA, nobody, page.olderThan(), 10, 2, 4);
        assertThat(rest.items()).isEmpty();
        assertThat(rest.olderThan()).as("read to the start").isNull();

        AuditQuery bob = AuditQuery.of(null, "bob", null, null, null, null, null);
        AuditTimeline found = log.timeline("t", ANA, bob, null, 10, 2, 4);
        assertThat(seqs(found)).containsExactly(6L, 4L);
        assertThat(seqs(log.timeline("t", ANA, bob, found.olderThan(), 10, 2, 4)))
                .containsExactly(2L);
    }

    @Test
    void refusesABadLimitOrCursor() {
        assertThatThrownBy(() -> log.timeline("t", ANA, AuditQuery.ALL, null, 0))
                .isInstanceOf(ApiException.class);
        assertThatThrownBy(() -> log.timeline("t", ANA, AuditQuery.ALL, 0L, 10)).isInstanceOf(ApiException.class);
    }

    @Test
    void aUsersHistoryIsEveryEventTouchingTheirMemoriesAndMeNamesTheCallingUser() {
        Actor dana = Requests.actor(ActorType.USER, "dana");
        String hers = backend.publish(Requests.create(
                                "u",
                                ANA,
                                io.memorychain.avro.CreateMemory.newBuilder()
                                        .setContent("Dana likes tea")
                                        .setUserId("dana")
                                        .build())
                        .build())
                .join()
                .getMemoryId();
        write("u", ANA, "nobody's fact");
        var updated = backend.publish(Requests.updateContent("u", BOB, hers, "Dana likes green tea")
                        .build())
                .join();
        assertThat(updated.getAccepted()).as(updated.getMessage()).isTrue();

        AuditPage history = log.search("u", dana, AuditQuery.ALL.forUser(AuditQuery.ME, dana), null, 10);
        assertThat(history.items()).extracting(AuditEntryJson::seq).containsExactly(1L, 3L);
        assertThat(log.search("u", ANA, AuditQuery.ALL.forUser("dana", ANA), null, 10)
                        .items())
                .as("by name, for any reader")
                .extracting(AuditEntryJson::seq)
                .containsExactly(1L, 3L);
        assertThat(log.all("u", dana, AuditQuery.ALL.forUser("dana", dana), 0L)).hasSize(2);
        assertThat(log.search("u", ANA, AuditQuery.ALL.forUser("eve", ANA), null, 10)
                        .items())
                .isEmpty();
        assertThatThrownBy(() -> AuditQuery.ALL.forUser(AuditQuery.ME, ANA))
                .isInstanceOf(ApiException.class)
                .hasMessageContaining("only a user's key");

        String markdown = AuditMarkdown.of("u", "dana", history.items());
        assertThat(markdown)
                .startsWith("# History of user dana in space u")
                .contains("2 chain event(s), seq 1 to 3")
                .contains("seq 1 agent:ana")
                .contains("seq 3 agent:bob");
    }
}
