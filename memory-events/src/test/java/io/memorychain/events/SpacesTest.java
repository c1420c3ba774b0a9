package io.memorychain.events;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import java.util.stream.Stream;
import org.junit.jupiter.params.provider.MethodSource;

class SpacesTest {

    static Stream<String> spaces() {
        return Stream.of("a", "acme.planner", "tenant_1-agent", "A9", "x".repeat(128), "", "-a", ".a", "a/b", "a b",
                "a\u0000b", "ä", "x".repeat(129), "a:b");
    }

    @ParameterizedTest
    @MethodSource("spaces")
    void validityMatchesThePattern(String space) {
        assertThat(Spaces.isValid(space)).isEqualTo(Spaces.PATTERN.matcher(space).matches());
    }
}
