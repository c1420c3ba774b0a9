package io.memorychain.llm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class RequestRecordsTest {

    @Test
    void chatRequestDefaultsToTemperatureZeroAndValidatesItsFields() {
        ChatRequest request = ChatRequest.of("t", "tom", List.of(ChatMessage.user("x")));
        assertThat(request.temperature()).isZero();
        assertThat(request.maxTokens()).isEqualTo(ChatRequest.DEFAULT_MAX_TOKENS);
        assertThat(request.schema()).isNull();

        assertThatThrownBy(() -> ChatRequest.of(" ", "tom", List.of(ChatMessage.user("x"))))
                .hasMessageContaining("tenant must not be blank");
        assertThatThrownBy(() -> ChatRequest.of("t", "tom", List.of())).hasMessageContaining("at least one message");
        assertThatThrownBy(() -> request.withMaxTokens(0)).hasMessageContaining("maxTokens");
        assertThatThrownBy(() -> request.withTemperature(Double.NaN)).hasMessageContaining("temperature");
        assertThatThrownBy(() -> request.withTemperature(2.5)).hasMessageContaining("temperature");
    }

    @Test
    void jsonSchemaNeedsAnApiCompatibleNameAndAnObject() {
        ObjectMapper json = new ObjectMapper();
        assertThatThrownBy(() -> new JsonSchema("has space", json.createObjectNode()))
                .hasMessageContaining("name");
        assertThatThrownBy(() -> new JsonSchema("ok", json.createArrayNode())).hasMessageContaining("JSON object");
    }

    @Test
    void aFailureCannotCarryOutcomeOk() {
        assertThatThrownBy(() -> new ChatResult.Failed(ChatOutcome.OK, "x", TokenUsage.NONE, 0, Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
