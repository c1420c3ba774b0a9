package io.memorychain.domain.decide;

import static io.memorychain.domain.decide.Scenario.ADMIN;
import static io.memorychain.domain.decide.Scenario.AGENT;
import static io.memorychain.domain.decide.Scenario.SPACE;
import static io.memorychain.domain.decide.Scenario.SUBAGENT;
import static org.assertj.core.api.Assertions.assertThat;

import io.memorychain.avro.ConsolidateMemories;
import io.memorychain.avro.CreateMemory;
import io.memorychain.avro.DeleteMemory;
import io.memorychain.avro.LinkMemories;
import io.memorychain.avro.MemoriesConsolidated;
import io.memorychain.avro.MemoryCreated;
import io.memorychain.avro.MemoryFlag;
import io.memorychain.avro.MemoryState;
import io.memorychain.avro.SetFlag;
import io.memorychain.avro.UnlinkMemories;
import io.memorychain.avro.UpdateBlock;
import io.memorychain.avro.UpdateMemory;
import io.memorychain.domain.RejectionCode;
import io.memorychain.domain.Rules;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The deciders as pure functions: given events (applied through requests), when a request, then events or a rejection.
 */
class DeciderTest {

    private final Scenario s = new Scenario();

    private CreateMemory memory(String content) {
        return CreateMemory.newBuilder().setContent(content).build();
    }

    private static void assertRejected(Decision decision, RejectionCode code) {
        assertThat(decision)
                .isInstanceOfSatisfying(
                        Decision.Reject.class, r -> assertThat(r.code()).isEqualTo(code));
    }

    @Test
    void createsAMemoryWithAnIdFromItsSeq() {
        Decision decision =
                s.when(s.request(AGENT, memory("Ana prefers dark mode")).build());

        assertThat(decision).isInstanceOfSatisfying(Decision.Accept.class, a -> {
            assertThat(a.payload()).isInstanceOfSatisfying(MemoryCreated.class, c -> {
                assertThat(c.getMemory().getContent()).isEqualTo("Ana prefers dark mode");
                assertThat(c.getMemory().getState()).isEqualTo(MemoryState.ACTIVE);
                assertThat(c.getMemory().getId()).isEqualTo(a.memoryId());
            });
            assertThat(a.version()).isEqualTo(1);
        });
    }

    @Test
    void rejectsASpaceNameTheApiWouldRefuse() {
        Decision decision =
                s.when(s.request(AGENT, memory("x")).setSpace("_notes").build());

        assertRejected(decision, RejectionCode.INVALID_ARGUMENT);
        assertThat(Rules.isValidSpace("_notes")).isFalse();
    }

    @Test
    void rejectsContentOverTheConfiguredSizeAsTooLarge() {
        String big = "x".repeat(Rules.DEFAULT_MAX_CONTENT_BYTES + 1);

        assertRejected(s.when(s.request(AGENT, memory(big)).build()), RejectionCode.TOO_LARGE);
    }

    @Test
    void rejectsTheChainsCiphertextSubmittedAsAText() {
        String id = s.given(s.request(AGENT, memory("v1")).build());

        Decision create = s.when(s.request(AGENT, memory("enc1:AAECAwQFBgcICQ")).build());
        Decision update = s.when(s.request(
                        AGENT,
                        UpdateMemory.newBuilder()
                                .setId(id)
                                .setContent("enc1:AAEC")
                                .build())
                .build());
        Decision tags = s.when(s.request(
                        AGENT,
                        CreateMemory.newBuilder()
                                .setContent("fine")
                                .setTags(java.util.List.of("ok", "enc1:AAEC"))
                                .build())
                .build());

        for (Decision d : java.util.List.of(create, update, tags)) {
            assertRejected(d, RejectionCode.INVALID_ARGUMENT);
            assertThat(((Decision.Reject) d).message()).contains("ciphertext marker");
        }
        assertThat(s.when(s.request(AGENT, memory("a text that mentions enc1: in passing"))
                        .build()))
                .isInstanceOf(Decision.Accept.class);
    }

    @Test
    void rejectsAnUpdateAtAStaleVersion() {
        String id = s.given(s.request(AGENT, memory("v1")).build());
        s.given(s.request(
                        AGENT,
                        UpdateMemory.newBuilder().setId(id).setContent("v2").build())
                .build());

        Decision stale = s.when(s.request(
                        AGENT,
                        UpdateMemory.newBuilder().setId(id).setContent("v3").build())
                .setExpectedVersion(1)
                .build());

        assertRejected(stale, RejectionCode.VERSION_CONFLICT);
    }

    @Test
    void consolidationSupersedesItsInputsAndKeepsTheEarliestCreatedAt() {
        List<String> ids = s.given(
                s.request(AGENT, memory("Ana likes tea")).build(),
                s.request(AGENT, memory("Ana drinks green tea")).build());

        Decision decision = s.when(s.request(
                        AGENT,
                        ConsolidateMemories.newBuilder()
                                .setIds(ids)
                                .setContent("Ana drinks green tea")
                                .setReason("same fact")
                                .build())
                .build());

        assertThat(decision)
                .isInstanceOfSatisfying(
                        Decision.Accept.class,
                        a -> assertThat(a.payload()).isInstanceOfSatisfying(MemoriesConsolidated.class, c -> {
                            assertThat(c.getSupersededIds()).containsExactlyElementsOf(ids);
                            assertThat(c.getCreated().getCreatedAt())
                                    .isEqualTo(
                                            s.model().memory(SPACE, ids.get(0)).getCreatedAt());
                        }));
    }

    @Test
    void constitutionalMemoriesCannotBeDeletedOrConsolidated() {
        List<String> ids = s.given(
                s.request(AGENT, memory("Never share Ana's address")).build(),
                s.request(AGENT, memory("Ana lives in Porto")).build());
        s.given(s.request(ADMIN, new SetFlag(ids.get(0), MemoryFlag.CONSTITUTIONAL, true))
                .build());

        assertRejected(
                s.when(s.request(AGENT, new DeleteMemory(ids.get(0), null)).build()), RejectionCode.CONSTITUTIONAL);
        assertRejected(
                s.when(s.request(
                                AGENT,
                                ConsolidateMemories.newBuilder()
                                        .setIds(ids)
                                        .setContent("merged")
                                        .setReason("r")
                                        .build())
                        .build()),
                RejectionCode.CONSTITUTIONAL);
    }

    @Test
    void subAgentsMayOnlyPropose() {
        assertRejected(s.when(s.request(SUBAGENT, memory("x")).build()), RejectionCode.FORBIDDEN);
    }

    @Test
    void aBlockUpdateSupersedesThePreviousVersionOfItsLabel() {
        String first = s.given(s.request(AGENT, new UpdateBlock("persona", "I am careful", true))
                .build());

        String second = s.given(s.request(AGENT, new UpdateBlock("persona", "I am careful and kind", true))
                .build());

        assertThat(s.model().activeBlock(SPACE, "persona")).isEqualTo(second);
        assertThat(s.model().memory(SPACE, first).getState()).isEqualTo(MemoryState.SUPERSEDED);
        assertThat(s.model().memory(SPACE, first).getSupersededBy()).isEqualTo(second);
        assertRejected(
                s.when(s.request(AGENT, new UpdateBlock("diary", "x", true)).build()),
                RejectionCode.UNKNOWN_BLOCK_LABEL);
    }

    @Test
    void aSymmetricEdgeExistsOnceInEitherDirectionUntilUnlinked() {
        List<String> ids = s.given(
                s.request(AGENT, memory("Ana")).build(),
                s.request(AGENT, memory("Porto")).build());
        s.given(s.request(AGENT, new LinkMemories(ids.get(0), ids.get(1), "related_to", 0.8))
                .build());

        assertThat(s.model().relation(SPACE, ids.get(0), ids.get(1))).isEqualTo("related_to");
        assertRejected(
                s.when(s.request(AGENT, new LinkMemories(ids.get(1), ids.get(0), "related_to", 0.7))
                        .build()),
                RejectionCode.ALREADY_LINKED);

        s.given(s.request(AGENT, new UnlinkMemories(ids.get(1), ids.get(0))).build());

        assertThat(s.model().relation(SPACE, ids.get(0), ids.get(1))).isNull();
    }
}
