package io.memorychain.api.categories;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.memorychain.api.topology.TopologyBackend;
import io.memorychain.domain.category.CategoryPolicy;
import io.micronaut.context.ApplicationContext;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CategoryBeansTest {

    @Test
    void withoutACategoriesFileTheBundledDefaultIsTheBean() {
        try (ApplicationContext ctx = ApplicationContext.run(TopologyBackend.ENV)) {
            assertThat(ctx.getBean(CategoryPolicy.class)).isEqualTo(CategoryPolicyYaml.loadDefault());
        }
    }

    @Test
    void memoryCategoriesFileReplacesTheDefault(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("categories.yaml");
        Files.writeString(
                file, "categories:\n  custom: [{name: tone, context: all}]\nallowlists:\n  stylist: [tone]\n");
        try (ApplicationContext ctx =
                ApplicationContext.run(Map.of("memory.categories-file", file.toString()), TopologyBackend.ENV)) {
            assertThat(ctx.getBean(CategoryPolicy.class).allowlists()).isEqualTo(Map.of("stylist", Set.of("tone")));
        }
    }

    @Test
    void anInvalidCategoriesFileStopsStartupNamingTheFileAndTheEntry(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("categories.yaml");
        Files.writeString(
                file, "categories:\n  custom: [{name: tone, context: all}]\nallowlists:\n  stylist: [tone, gossip]\n");
        assertThatThrownBy(() -> ApplicationContext.run(
                                Map.of("memory.categories-file", file.toString()), TopologyBackend.ENV)
                        .close())
                .hasStackTraceContaining(file + ": allowlists.stylist names unknown categories [gossip]");
    }
}
