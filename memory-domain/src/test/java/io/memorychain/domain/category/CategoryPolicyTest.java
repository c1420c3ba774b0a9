package io.memorychain.domain.category;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.memorychain.domain.category.CategoryPolicy.Category;
import io.memorychain.domain.category.CategoryPolicy.ContextMode;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class CategoryPolicyTest {

    private final CategoryPolicy policy = new CategoryPolicy(
            Map.of(
                    "profile",
                    new Category("profile", ContextMode.ALL, 0),
                    "goals",
                    new Category("goals", ContextMode.RAG, 30),
                    "tasks",
                    new Category("tasks", ContextMode.RAG, 50),
                    "tone",
                    new Category("tone", ContextMode.RAG, 10)),
            Map.of("planner", Set.of("goals", "tasks"), "stylist", Set.of("tone")));

    @Test
    void anAgentWithAnAllowlistIsConfinedToIt() {
        assertThat(policy.allows("planner", "goals")).isTrue();
        assertThat(policy.allows("planner", "tone")).isFalse();
        assertThat(policy.disallowed("planner", List.of("tone", "goals", "profile", "tone")))
                .containsExactly("profile", "tone");
    }

    @Test
    void memoriesWithoutACategoryAndAgentsWithoutAnAllowlistAreUnrestricted() {
        assertThat(policy.allows("planner", null)).isTrue();
        assertThat(policy.allows("supervisor", "tone")).isTrue();
        assertThat(policy.allowedFor("supervisor")).isEmpty();
        assertThat(policy.allowedFor(null)).isEmpty();
    }

    @Test
    void rejectsAllowlistsNamingUnknownCategories() {
        assertThatThrownBy(() -> new CategoryPolicy(
                        Map.of("goals", new Category("goals", ContextMode.RAG, 1)),
                        Map.of("planner", Set.of("goals", "gossip"))))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("gossip");
    }

    @Test
    void exposesContextModeAndRagLength() {
        assertThat(policy.category("profile")).map(Category::context).contains(ContextMode.ALL);
        assertThat(policy.category("tasks")).map(Category::ragLength).contains(50);
    }
}
