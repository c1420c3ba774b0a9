package io.memorychain.api.openapi;

import static org.assertj.core.api.Assertions.assertThat;

import io.memorychain.api.memories.ActorJson;
import io.memorychain.api.profile.ProfileJson;
import io.micronaut.serde.ObjectMapper;
import java.io.IOException;
import org.junit.jupiter.api.Test;

/**
 * The records whose object-typed {@code @JsonProperty} components have a declared accessor (SpecContractTest: spurious
 * properties) still write the JSON name of the component, not the accessor's.
 */
class DeclaredAccessorJsonTest {

    @Test
    void aDeclaredAccessorKeepsTheComponentsJsonName() throws IOException {
        ProfileJson.Field field = new ProfileJson.Field(
                "diet",
                "vegetarian",
                "benign",
                7L,
                "2026-01-01T00:00:00Z",
                new ActorJson("user", "manual"),
                "user",
                null);
        String json = ObjectMapper.getDefault().writeValueAsString(field);
        assertThat(json)
                .contains("\"set_by\":{\"type\":\"user\",\"id\":\"manual\"}")
                .doesNotContain("setBy");
    }
}
