package io.memorychain.api.request;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.memorychain.api.error.ApiException;
import io.memorychain.avro.Actor;
import io.memorychain.avro.ActorType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ActorsTest {

    @Test
    void defaultsToUserApi() {
        assertThat(Actors.parse(null)).isEqualTo(new Actor(ActorType.USER, "api"));
    }

    @Test
    void parsesTypeAndIdCaseInsensitively() {
        assertThat(Actors.parse("agent:claude")).isEqualTo(new Actor(ActorType.AGENT, "claude"));
        assertThat(Actors.parse("WORKER:decay")).isEqualTo(new Actor(ActorType.WORKER, "decay"));
        assertThat(Actors.parse("subagent:main/researcher")).isEqualTo(new Actor(ActorType.SUBAGENT, "main/researcher"));
        assertThat(Actors.parse("user:a:b")).isEqualTo(new Actor(ActorType.USER, "a:b"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "agent", "agent:", ":claude", "robot:r2", "agent:has space", "agent:\u00e9"})
    void rejectsMalformedHeadersAsInvalidArgument(String header) {
        assertThatThrownBy(() -> Actors.parse(header)).isInstanceOfSatisfying(ApiException.class,
                e -> assertThat(e.code()).isEqualTo("INVALID_ARGUMENT"));
    }

    @Test
    void rejectsOverlongIds() {
        assertThatThrownBy(() -> Actors.parse("agent:" + "a".repeat(129))).isInstanceOf(ApiException.class);
    }
}
