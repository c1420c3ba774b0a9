package io.memorychain.springai;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.messages.Message;
import org.springframework.ai.chat.messages.SystemMessage;
import org.springframework.ai.chat.messages.ToolResponseMessage;
import org.springframework.ai.chat.messages.UserMessage;

class ConversationMessagesTest {

    static final ObjectMapper MAPPER = new ObjectMapper();

    static Message roundTrip(Message m) {
        Map<String, Object> body = ConversationMessages.body("c1", m);
        ObjectNode memory = MAPPER.valueToTree(body);
        return ConversationMessages.message(memory, (String) body.get("source"));
    }

    @Test
    void plainTextsAreStoredAsTheyAreWithTheirRole() {
        Map<String, Object> body = ConversationMessages.body("c1", new AssistantMessage("Teal it is."));
        assertThat(body)
                .containsEntry("kind", "episodic")
                .containsEntry("thread_id", "c1")
                .containsEntry("content", "Teal it is.")
                .containsEntry("role", "assistant")
                .containsEntry("source", ConversationMessages.TEXT);
        assertThat(roundTrip(new UserMessage("hello"))).isEqualTo(new UserMessage("hello"));
        assertThat(roundTrip(new SystemMessage("be brief"))).isEqualTo(new SystemMessage("be brief"));
    }

    @Test
    void toolCallsAndToolResultsRoundTripAsJson() {
        AssistantMessage call = AssistantMessage.builder()
                .content("")
                .toolCalls(
                        List.of(new AssistantMessage.ToolCall("call-1", "function", "weather", "{\"city\":\"Porto\"}")))
                .build();
        ToolResponseMessage result = ToolResponseMessage.builder()
                .responses(List.of(new ToolResponseMessage.ToolResponse("call-1", "weather", "sunny")))
                .build();
        assertThat(ConversationMessages.body("c1", call))
                .containsEntry("source", ConversationMessages.JSON)
                .containsEntry("role", "assistant");
        assertThat(((AssistantMessage) roundTrip(call)).getToolCalls()).isEqualTo(call.getToolCalls());
        assertThat(((ToolResponseMessage) roundTrip(result)).getResponses()).isEqualTo(result.getResponses());
        assertThat(ConversationMessages.body("c1", result)).containsEntry("role", "tool");
    }

    @Test
    void messagesAreTheSameStoredMessageWhateverTheirMetadata() {
        AssistantMessage withMetadata = AssistantMessage.builder()
                .content("hi")
                .properties(Map.of("finishReason", "STOP"))
                .build();
        assertThat(ConversationMessages.sameStored(withMetadata, new AssistantMessage("hi")))
                .isTrue();
        assertThat(ConversationMessages.sameStored(new UserMessage("hi"), new AssistantMessage("hi")))
                .isFalse();
    }

    static List<ConversationMessages.Stored> stored(Message... messages) {
        return java.util.stream.IntStream.range(0, messages.length)
                .mapToObj(i -> new ConversationMessages.Stored("m" + i, messages[i]))
                .toList();
    }

    @Test
    void aWindowThatDropsTheOldestKeepsTheRestAndAppendsTheNew() {
        var stored = stored(new UserMessage("q1"), new AssistantMessage("a1"), new UserMessage("q2"));
        boolean[] keep = new boolean[3];
        int kept = MemoryChainChatMemoryRepository.keptPrefix(
                stored, List.of(new AssistantMessage("a1"), new UserMessage("q2"), new AssistantMessage("a2")), keep);
        assertThat(kept).isEqualTo(2);
        assertThat(keep).containsExactly(false, true, true);
    }

    @Test
    void aWindowThatKeepsTheSystemMessageAndDropsFromTheMiddleKeepsTheOrder() {
        var stored = stored(
                new SystemMessage("s"), new UserMessage("q1"), new AssistantMessage("a1"), new UserMessage("q2"));
        boolean[] keep = new boolean[4];
        int kept = MemoryChainChatMemoryRepository.keptPrefix(
                stored, List.of(new SystemMessage("s"), new UserMessage("q2"), new AssistantMessage("a2")), keep);
        assertThat(kept).isEqualTo(2);
        assertThat(keep).containsExactly(true, false, false, true);
    }

    @Test
    void aMessageInsertedBeforeStoredOnesReplacesThemSoTheThreadKeepsTheWantedOrder() {
        var stored = stored(new UserMessage("q1"), new AssistantMessage("a1"));
        boolean[] keep = new boolean[2];
        int kept = MemoryChainChatMemoryRepository.keptPrefix(
                stored,
                List.of(new SystemMessage("new system"), new UserMessage("q1"), new AssistantMessage("a1")),
                keep);
        assertThat(kept).isZero();
        assertThat(keep).containsExactly(false, false);
    }
}
