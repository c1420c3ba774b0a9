package io.memorychain.projector.sequencer;

import static org.assertj.core.api.Assertions.assertThat;

import io.memorychain.avro.Actor;
import io.memorychain.avro.ActorType;
import io.memorychain.avro.CreateMemory;
import io.memorychain.avro.MemoriesConsolidated;
import io.memorychain.avro.MemoryFlag;
import io.memorychain.avro.MemoryOutcome;
import io.memorychain.avro.UpdateMemory;
import io.memorychain.domain.category.CategoryPolicy;
import io.memorychain.domain.category.CategoryPolicy.Category;
import io.memorychain.domain.category.CategoryPolicy.ContextMode;
import io.memorychain.domain.decide.WriteSettings;
import io.memorychain.events.Requests;
import io.memorychain.projector.ChainHarness;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Category allowlists enforced by the sequencer itself, so they hold for requests published straight to Kafka
 * (docs/architecture.md §13), on the real topology.
 */
class CategoryAllowlistTest {

    private static final String SPACE = "acme-assistant";
    private static final Actor PLANNER = Requests.actor(ActorType.AGENT, "planner");
    private static final Actor USER = Requests.actor(ActorType.USER, "ana");
    private static final CategoryPolicy POLICY = new CategoryPolicy(
            Map.of(
                    "goals",
                    new Category("goals", ContextMode.RAG, 30),
                    "tasks",
                    new Category("tasks", ContextMode.RAG, 50),
                    "tone",
                    new Category("tone", ContextMode.ALL, 0)),
            Map.of("planner", Set.of("goals", "tasks"), "stylist", Set.of("tone")));

    private final ChainHarness h = new ChainHarness(WriteSettings.defaults().withCategories(POLICY));

    @AfterEach
    void close() {
        h.close();
    }

    private String create(Actor actor, String category, String content) {
        MemoryOutcome o = h.submit(Requests.create(
                SPACE,
                actor,
                CreateMemory.newBuilder()
                        .setContent(content)
                        .setCategory(category)
                        .build()));
        assertThat(o.getAccepted()).as(o.getMessage()).isTrue();
        return o.getMemoryId();
    }

    private void assertNotAllowed(MemoryOutcome outcome, String... messageParts) {
        assertThat(outcome.getAccepted()).isFalse();
        assertThat(outcome.getCode()).isEqualTo("CATEGORY_NOT_ALLOWED");
        assertThat(outcome.getMessage()).contains(messageParts);
        assertThat(outcome.getSeq()).isNull();
    }

    @Test
    void anAgentCreatesOnlyMemoriesOfItsCategoriesOrWithoutCategory() {
        create(PLANNER, "goals", "Ship the beta in May");
        create(PLANNER, null, "Uncategorized note");
        assertNotAllowed(
                h.submit(Requests.create(
                        SPACE,
                        PLANNER,
                        CreateMemory.newBuilder()
                                .setContent("Be terse")
                                .setCategory("tone")
                                .build())),
                "'tone'",
                "agent planner",
                "allowed: goals, tasks");
        assertNotAllowed(
                h.submit(Requests.create(
                        SPACE,
                        PLANNER,
                        CreateMemory.newBuilder()
                                .setContent("Likes jazz")
                                .setCategory("interests")
                                .build())),
                "'interests'");
        assertThat(h.chain()).hasSize(2);
    }

    @Test
    void anAgentCannotChangeAMemoryOfADisallowedCategory() {
        String tone = create(USER, "tone", "Be terse");
        String other = create(USER, "goals", "Ship the beta");
        assertNotAllowed(
                h.submit(Requests.updateContent(SPACE, PLANNER, tone, "Be chatty")), "memory " + tone, "'tone'");
        assertNotAllowed(h.submit(Requests.delete(SPACE, PLANNER, tone)), "memory " + tone);
        assertNotAllowed(h.submit(Requests.flag(SPACE, PLANNER, tone, MemoryFlag.PINNED, true)), "memory " + tone);
        assertNotAllowed(
                h.submit(Requests.consolidate(SPACE, PLANNER, List.of(other, tone), "merged", null)), "memory " + tone);
        assertThat(h.submit(Requests.delete(SPACE, USER, tone)).getAccepted()).isTrue();
        assertNotAllowed(h.submit(Requests.restore(SPACE, PLANNER, tone)), "memory " + tone);
        assertThat(h.chain()).hasSize(3);
    }

    @Test
    void anAgentCannotLinkOrUnlinkAMemoryOfADisallowedCategory() {
        String tone = create(USER, "tone", "Be terse");
        String goal = create(USER, "goals", "Ship the beta");
        assertNotAllowed(h.submit(Requests.link(SPACE, PLANNER, goal, tone, "related_to", 0.9)), "memory " + tone);
        assertThat(h.submit(Requests.link(SPACE, USER, goal, tone, "related_to", 0.9))
                        .getAccepted())
                .isTrue();
        assertNotAllowed(h.submit(Requests.unlink(SPACE, PLANNER, goal, tone)), "memory " + tone);
        assertThat(h.chain()).hasSize(3);
    }

    @Test
    void anAgentCannotMoveAMemoryIntoADisallowedCategory() {
        String goal = create(PLANNER, "goals", "Ship the beta");
        assertNotAllowed(
                h.submit(Requests.request(
                        SPACE,
                        PLANNER,
                        UpdateMemory.newBuilder()
                                .setId(goal)
                                .setCategory("tone")
                                .build())),
                "'tone'");
        assertThat(h.submit(Requests.request(
                                SPACE,
                                PLANNER,
                                UpdateMemory.newBuilder()
                                        .setId(goal)
                                        .setCategory("tasks")
                                        .build()))
                        .getAccepted())
                .isTrue();
        assertThat(h.chain()).hasSize(2);
    }

    @Test
    void aConsolidationByAnAgentMayNotProduceADisallowedCategory() {
        String a = create(PLANNER, "goals", "Ship the beta");
        String b = create(PLANNER, "tasks", "Write release notes");
        assertNotAllowed(
                h.submit(Requests.request(
                        SPACE,
                        PLANNER,
                        io.memorychain.avro.ConsolidateMemories.newBuilder()
                                .setIds(List.of(a, b))
                                .setContent("Ship the beta with notes")
                                .setCategory("tone")
                                .build())),
                "'tone'");
        MemoryOutcome merged =
                h.submit(Requests.consolidate(SPACE, PLANNER, List.of(a, b), "Ship the beta with notes", null));
        assertThat(merged.getAccepted()).as(merged.getMessage()).isTrue();
        assertThat(((MemoriesConsolidated) h.chain().get(2).getPayload())
                        .getCreated()
                        .getCategory())
                .isEqualTo("goals");
    }

    @Test
    void usersAdminsWorkersAndAgentsWithoutAnAllowlistAreNotConfined() {
        String tone = create(USER, "tone", "Be terse");
        create(Requests.actor(ActorType.ADMIN, "root"), "interests", "Likes jazz");
        create(Requests.actor(ActorType.WORKER, "tom"), "tone", "Prefers short answers");
        create(Requests.actor(ActorType.SYSTEM, "planner"), "tone", "A system actor named like an agent");
        create(Requests.actor(ActorType.AGENT, "supervisor"), "tone", "No allowlist for this agent");
        assertThat(h.submit(Requests.updateContent(SPACE, Requests.actor(ActorType.AGENT, "stylist"), tone, "Be brief"))
                        .getAccepted())
                .isTrue();
    }

    @Test
    void blocksHaveNoCategoryAndStayWritableByConfinedAgents() {
        assertThat(h.submit(Requests.block(SPACE, PLANNER, "goals", "Ship the beta"))
                        .getAccepted())
                .isTrue();
    }

    @Test
    void withoutAPolicyNothingIsConfined() {
        try (ChainHarness open = new ChainHarness()) {
            MemoryOutcome o = open.submit(Requests.create(
                    SPACE,
                    PLANNER,
                    CreateMemory.newBuilder()
                            .setContent("Be terse")
                            .setCategory("tone")
                            .build()));
            assertThat(o.getAccepted()).isTrue();
        }
    }
}
