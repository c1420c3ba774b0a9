package io.memorychain.api.categories;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.memorychain.api.categories.CategoryPolicyYaml.InvalidCategoriesException;
import io.memorychain.domain.category.CategoryPolicy;
import io.memorychain.domain.category.CategoryPolicy.Category;
import io.memorychain.domain.category.CategoryPolicy.ContextMode;
import java.io.IOException;
import java.io.StringReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CategoryPolicyYamlTest {

    /** The categories file of the requirements (docs/architecture.md §13), verbatim. */
    private static final String SEED = """
            categories:
              system:
                - name: profile
                  context: all
                - name: event
                  context: rag
                  rag_length: 30
                - name: activity
                  context: rag
                  rag_length: 50
              custom: []
            allowlists:
              supervisor: [profile, goals, preferences, event, activity, relationships, tasks]
              planner:    [goals, tasks, projects]
              stylist:    [preferences, tone, style]
              researcher: [knowledge, interests, history]
              executor:   [tasks, recent_activity, constraints]
            """;

    private static final Map<String, Set<String>> SEED_ALLOWLISTS = Map.of(
            "supervisor", Set.of("profile", "goals", "preferences", "event", "activity", "relationships", "tasks"),
            "planner", Set.of("goals", "tasks", "projects"),
            "stylist", Set.of("preferences", "tone", "style"),
            "researcher", Set.of("knowledge", "interests", "history"),
            "executor", Set.of("tasks", "recent_activity", "constraints"));

    private static CategoryPolicy parse(String yaml) {
        return CategoryPolicyYaml.parse(new StringReader(yaml), "test.yaml");
    }

    @Test
    void parsesTheSeedsShapeWithTheCategoriesItsAllowlistsName() {
        String custom = String.join(
                "\n",
                "  custom:",
                "    - {name: goals, context: all}",
                "    - {name: tasks, context: rag, rag_length: 20}",
                "    - {name: preferences, context: all}",
                "    - {name: relationships, context: rag, rag_length: 5}",
                "    - {name: projects, context: RAG, rag_length: 5}",
                "    - {name: tone, context: all}",
                "    - {name: style, context: all}",
                "    - {name: knowledge, context: rag, rag_length: 5}",
                "    - {name: interests, context: rag, rag_length: 5}",
                "    - {name: history, context: rag, rag_length: 5}",
                "    - {name: recent_activity, context: rag, rag_length: 5}",
                "    - {name: constraints, context: all}");
        CategoryPolicy policy = parse(SEED.replace("  custom: []", custom));
        assertThat(policy.category("profile")).contains(new Category("profile", ContextMode.ALL, 0));
        assertThat(policy.category("event")).contains(new Category("event", ContextMode.RAG, 30));
        assertThat(policy.category("activity")).contains(new Category("activity", ContextMode.RAG, 50));
        assertThat(policy.category("projects")).contains(new Category("projects", ContextMode.RAG, 5));
        assertThat(policy.categories()).hasSize(15);
        assertThat(policy.allowlists()).isEqualTo(SEED_ALLOWLISTS);
    }

    @Test
    void theBundledDefaultHasTheSeedsCategoriesAndExactlyItsAllowlists() {
        CategoryPolicy policy = CategoryPolicyYaml.loadDefault();
        assertThat(policy.category("profile")).contains(new Category("profile", ContextMode.ALL, 0));
        assertThat(policy.category("event")).contains(new Category("event", ContextMode.RAG, 30));
        assertThat(policy.category("activity")).contains(new Category("activity", ContextMode.RAG, 50));
        assertThat(policy.categories()).containsKeys("relationship_dynamic", "procedural");
        assertThat(policy.allowlists()).isEqualTo(SEED_ALLOWLISTS);
    }

    @Test
    void anAllowlistNamingAnUnknownCategoryFailsNamingTheFileTheAgentAndTheCategories() {
        assertThatThrownBy(() -> parse(SEED))
                .isInstanceOf(InvalidCategoriesException.class)
                .hasMessageStartingWith("test.yaml: allowlists.")
                .hasMessageContaining("names unknown categories")
                .hasMessageContaining("known: activity, event, profile");
        assertThatThrownBy(() -> parse("""
                categories:
                  custom: [{name: goals, context: all}]
                allowlists:
                  planner: [goals, gossip]
                """))
                .hasMessage("test.yaml: allowlists.planner names unknown categories [gossip]; define them under "
                        + "categories.system or categories.custom (known: goals)");
    }

    @Test
    void aBadContextValueFailsNamingTheEntry() {
        assertThatThrownBy(() -> parse("""
                categories:
                  system:
                    - {name: profile, context: all}
                    - {name: event, context: sometimes, rag_length: 30}
                """))
                .isInstanceOf(InvalidCategoriesException.class)
                .hasMessage("test.yaml: categories.system[1] (event) has context 'sometimes'; use all or rag");
        assertThatThrownBy(() -> parse("categories:\n  custom: [{name: tone}]\n"))
                .hasMessageContaining(
                        "categories.custom[0] (tone) needs 'context: all' or 'context: rag', got nothing");
    }

    @Test
    void ragLengthIsRequiredForRagAndMustBeAWholeNumber() {
        assertThatThrownBy(() -> parse("categories:\n  custom: [{name: tasks, context: rag}]\n"))
                .hasMessageContaining("categories.custom[0] (tasks) has context rag and needs 'rag_length'");
        assertThatThrownBy(() -> parse("categories:\n  custom: [{name: tasks, context: rag, rag_length: 0}]\n"))
                .hasMessageContaining("has rag_length 0 (integer); use a whole number of at least 1");
        assertThatThrownBy(() -> parse("categories:\n  custom: [{name: tasks, context: rag, rag_length: many}]\n"))
                .hasMessageContaining("has rag_length 'many'");
        assertThatThrownBy(() -> parse("categories:\n  custom: [{name: tasks, context: all, rag_length: -1}]\n"))
                .hasMessageContaining("use a whole number of at least 0");
    }

    @Test
    void typosDuplicatesAndNonStringNamesAreErrorsNotSilentChanges() {
        assertThatThrownBy(() -> parse("categories:\n  custom: [{name: tasks, context: rag, rag_lenght: 5}]\n"))
                .hasMessageContaining("categories.custom[0] (tasks) has unknown keys [rag_lenght]");
        assertThatThrownBy(() -> parse("allowlist:\n  planner: []\n"))
                .hasMessageContaining("the document has unknown keys [allowlist]");
        assertThatThrownBy(() -> parse("categories:\n  user: []\n"))
                .hasMessageContaining("categories has unknown keys [user]; expected [custom, system]");
        assertThatThrownBy(() -> parse("""
                categories:
                  system: [{name: tone, context: all}]
                  custom: [{name: tone, context: rag, rag_length: 3}]
                """))
                .hasMessageContaining("categories.custom[0] repeats the category name 'tone'");
        assertThatThrownBy(() -> parse("categories:\n  custom: [{name: yes, context: all}]\n"))
                .hasMessageContaining("needs a 'name'")
                .hasMessageContaining("true (boolean)");
        assertThatThrownBy(() ->
                        parse("categories:\n  custom: [{name: tone, context: all}]\nallowlists:\n  planner: [no]\n"))
                .hasMessageContaining(
                        "allowlists.planner lists false (boolean); category names are strings (quote them)");
        assertThatThrownBy(
                        () -> parse("categories:\n  custom: [{name: tone, context: all}]\nallowlists:\n  planner:\n"))
                .hasMessageContaining("allowlists.planner is empty");
        assertThatThrownBy(() -> parse("allowlists:\n  planner: []\n  planner: [tone]\n"))
                .isInstanceOf(InvalidCategoriesException.class)
                .hasMessageContaining("test.yaml: not valid YAML")
                .hasMessageContaining("planner");
    }

    @Test
    void invalidYamlAndEmptyFilesFailNamingTheFile() {
        assertThatThrownBy(() -> parse("categories: [unclosed\n"))
                .isInstanceOf(InvalidCategoriesException.class)
                .hasMessageStartingWith("test.yaml: not valid YAML")
                .hasMessageContaining("line");
        assertThatThrownBy(() -> parse("")).hasMessageContaining("test.yaml: the document is empty");
        assertThatThrownBy(() -> parse("- just\n- a list\n")).hasMessageContaining("the document must be a mapping");
    }

    @Test
    void anEmptyAllowlistConfinesAnAgentToUncategorizedMemories() {
        CategoryPolicy policy = parse("categories:\n  custom: [{name: tone, context: all}]\nallowlists:\n  mute: []\n");
        assertThat(policy.allows("mute", "tone")).isFalse();
        assertThat(policy.allows("mute", null)).isTrue();
    }

    @Test
    void loadsAFileAndNamesAMissingOne(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("cats.yaml");
        Files.writeString(
                file, "categories:\n  custom: [{name: tone, context: all}]\nallowlists:\n  stylist: [tone]\n");
        assertThat(CategoryPolicyYaml.load(file).allowlists()).isEqualTo(Map.of("stylist", Set.of("tone")));
        Files.writeString(file, "categories:\n  custom: [{name: tone, context: maybe}]\n");
        assertThatThrownBy(() -> CategoryPolicyYaml.load(file))
                .hasMessageStartingWith(file + ": categories.custom[0] (tone)");
        Path missing = dir.resolve("missing.yaml");
        assertThatThrownBy(() -> CategoryPolicyYaml.load(missing))
                .hasMessage(missing + ": no such categories file (memory.categories-file)");
    }

    @Test
    void aCategoryMayHaveATtlLifecycleAndKeepsExpiredMemoriesIndefinitelyUnlessPurgeAfterIsSet() {
        CategoryPolicy policy = parse("""
                categories:
                  system:
                    - {name: event, context: rag, rag_length: 30, ttl: P60D, ttl_importance_below: 3}
                    - {name: activity, context: rag, rag_length: 50, ttl: P30D, purge_after: P30D}
                    - {name: profile, context: all}
                """);

        assertThat(policy.lifecycle("event"))
                .isEqualTo(new CategoryPolicy.Lifecycle(java.time.Duration.ofDays(60), 3, null));
        assertThat(policy.lifecycle("activity").purgeAfter()).isEqualTo(java.time.Duration.ofDays(30));
        assertThat(policy.lifecycle("profile")).isEqualTo(CategoryPolicy.Lifecycle.NONE);
        assertThatThrownBy(() -> parse("""
                categories:
                  system:
                    - {name: event, context: rag, rag_length: 30, purge_after: P30D}
                """))
                .isInstanceOf(InvalidCategoriesException.class)
                .hasMessageContaining("without a ttl");
        assertThatThrownBy(() -> parse("""
                categories:
                  system:
                    - {name: event, context: rag, rag_length: 30, ttl: sixty days}
                """))
                .isInstanceOf(InvalidCategoriesException.class)
                .hasMessageContaining("ISO-8601");
    }
}
