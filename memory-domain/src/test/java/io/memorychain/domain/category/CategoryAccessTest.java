package io.memorychain.domain.category;

import static org.assertj.core.api.Assertions.assertThat;

import io.memorychain.avro.Actor;
import io.memorychain.avro.ActorType;
import io.memorychain.domain.category.CategoryPolicy.Category;
import io.memorychain.domain.category.CategoryPolicy.ContextMode;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class CategoryAccessTest {

    private final CategoryAccess access = new CategoryAccess(new CategoryPolicy(
            Map.of(
                    "goals",
                    new Category("goals", ContextMode.RAG, 30),
                    "tone",
                    new Category("tone", ContextMode.ALL, 0)),
            Map.of("planner", Set.of("goals"), "mute", Set.of())));

    private static Actor actor(ActorType type, String id) {
        return new Actor(type, id);
    }

    @Test
    void agentsAndSubagentsAreConfinedByTheAllowlistOfTheirId() {
        assertThat(access.allows(actor(ActorType.AGENT, "planner"), "goals")).isTrue();
        assertThat(access.allows(actor(ActorType.AGENT, "planner"), "tone")).isFalse();
        assertThat(access.allows(actor(ActorType.SUBAGENT, "planner"), "tone")).isFalse();
        assertThat(access.allowedFor(actor(ActorType.SUBAGENT, "planner"))).contains(Set.of("goals"));
    }

    @Test
    void otherActorTypesAndAgentsWithoutAnAllowlistAreUnrestricted() {
        for (ActorType type : new ActorType[] {ActorType.USER, ActorType.ADMIN, ActorType.SYSTEM, ActorType.WORKER}) {
            assertThat(access.allows(actor(type, "planner"), "tone"))
                    .as(type.name())
                    .isTrue();
            assertThat(access.allowedFor(actor(type, "planner")))
                    .as(type.name())
                    .isEmpty();
        }
        assertThat(access.allows(actor(ActorType.AGENT, "supervisor"), "tone")).isTrue();
        assertThat(CategoryAccess.unrestricted().allows(actor(ActorType.AGENT, "planner"), "tone"))
                .isTrue();
    }

    @Test
    void uncategorizedMemoriesAreAllowedEvenWithAnEmptyAllowlist() {
        assertThat(access.allows(actor(ActorType.AGENT, "mute"), null)).isTrue();
        assertThat(access.allows(actor(ActorType.AGENT, "mute"), "goals")).isFalse();
    }

    @Test
    void theMessageNamesTheCategoryTheActorAndItsAllowlist() {
        assertThat(access.notAllowed(actor(ActorType.AGENT, "planner"), "tone"))
                .isEqualTo("category 'tone' is not allowed for agent planner (allowed: goals)");
        assertThat(access.notAllowed(actor(ActorType.SUBAGENT, "mute"), "tone"))
                .isEqualTo("category 'tone' is not allowed for subagent mute (allowed: none)");
    }
}
