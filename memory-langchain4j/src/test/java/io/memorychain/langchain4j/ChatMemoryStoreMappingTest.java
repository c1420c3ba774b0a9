package io.memorychain.langchain4j;

import static org.assertj.core.api.Assertions.assertThat;

import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.SystemMessage;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.data.message.UserMessage;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** How the store maps messages to memories and finds what the chat window dropped and added. */
class ChatMemoryStoreMappingTest {

    static List<MemoryChainChatMemoryStore.Stored> stored(ChatMessage... messages) {
        return java.util.stream.IntStream.range(0, messages.length)
                .mapToObj(i -> new MemoryChainChatMemoryStore.Stored("m" + i, messages[i]))
                .toList();
    }

    @Test
    void findsTheEvictedPrefixAndTheAppendedTail() {
        UserMessage u1 = UserMessage.from("one");
        AiMessage a1 = AiMessage.from("two");
        UserMessage u2 = UserMessage.from("three");
        AiMessage a2 = AiMessage.from("four");
        assertThat(MemoryChainChatMemoryStore.firstOverlap(stored(), List.of(u1)))
                .isZero();
        assertThat(MemoryChainChatMemoryStore.firstOverlap(stored(u1), List.of(u1, a1)))
                .isZero();
        assertThat(MemoryChainChatMemoryStore.firstOverlap(stored(u1, a1, u2), List.of(u2, a2)))
                .isEqualTo(2);
        assertThat(MemoryChainChatMemoryStore.firstOverlap(stored(u1, a1), List.of(u2)))
                .as("nothing kept")
                .isEqualTo(2);
    }

    @Test
    void storesPlainTextsAsTheyAreAndOtherMessagesAsJsonInTheThread() {
        Map<String, Object> user = MemoryChainChatMemoryStore.body("c-1", UserMessage.from("I like tea"));
        assertThat(user)
                .containsEntry("content", "I like tea")
                .containsEntry("role", "user")
                .containsEntry("kind", "episodic")
                .containsEntry("thread_id", "c-1")
                .containsEntry("source", MemoryChainChatMemoryStore.TEXT);
        assertThat(MemoryChainChatMemoryStore.body("c-1", SystemMessage.from("Be brief")))
                .containsEntry("role", "system");
        AiMessage call = AiMessage.from(ToolExecutionRequest.builder()
                .id("t1")
                .name("memory_recall")
                .arguments("{}")
                .build());
        Map<String, Object> tool = MemoryChainChatMemoryStore.body("c-1", call);
        assertThat(tool)
                .containsEntry("source", MemoryChainChatMemoryStore.JSON)
                .containsEntry("role", "assistant");
        assertThat((String) tool.get("content")).contains("memory_recall");
        assertThat(MemoryChainChatMemoryStore.body(
                        "c-1", ToolExecutionResultMessage.from("t1", "memory_recall", "tea")))
                .containsEntry("role", "tool")
                .containsEntry("source", MemoryChainChatMemoryStore.JSON);
    }
}
