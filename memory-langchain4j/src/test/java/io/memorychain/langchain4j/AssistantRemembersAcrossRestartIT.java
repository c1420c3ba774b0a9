package io.memorychain.langchain4j;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.memory.chat.MessageWindowChatMemory;
import dev.langchain4j.service.AiServices;
import dev.langchain4j.service.MemoryId;
import io.memorychain.client.MemoryChainClient;
import io.memorychain.client.TestService;
import io.memorychain.client.Write;
import io.memorychain.events.testing.SharedKafka;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * An AiServices assistant whose chat memory lives in Memory Chain remembers a fact across a restart of the memory
 * service (same topics, same data directory), and the content retriever puts the fact in the prompt.
 */
@ExtendWith(SharedKafka.class)
class AssistantRemembersAcrossRestartIT {

    static final String SPACE = "lc4j-assistant";

    interface Assistant {
        String chat(@MemoryId String conversation, @dev.langchain4j.service.UserMessage String message);
    }

    static Assistant assistant(MemoryChainClient client, ScriptedChatModel model) {
        MemoryChainChatMemoryStore store = new MemoryChainChatMemoryStore(client, SPACE);
        return AiServices.builder(Assistant.class)
                .chatModel(model)
                .chatMemoryProvider(id -> MessageWindowChatMemory.builder()
                        .id(id)
                        .maxMessages(20)
                        .chatMemoryStore(store)
                        .build())
                .contentRetriever(MemoryChainContentRetriever.builder(client, SPACE)
                        .budgetTokens(500)
                        .topK(5)
                        .build())
                .build();
    }

    @Test
    void remembersAFactAcrossARestartAndTheRetrieverPutsItInThePrompt() {
        String prefix = SharedKafka.uniquePrefix();
        Path dataDir = Path.of(System.getProperty("java.io.tmpdir"), "lc4j-restart-" + UUID.randomUUID());
        try (TestService first = TestService.start(prefix, dataDir)) {
            ScriptedChatModel model = new ScriptedChatModel("Noted, your favourite colour is teal.");
            String reply = assistant(first.client(first.agentKey()), model)
                    .chat("conversation-1", "My favourite colour is teal");
            assertThat(reply).isEqualTo("Noted, your favourite colour is teal.");
        }
        try (TestService second = TestService.start(prefix, dataDir)) {
            MemoryChainClient client = second.client(second.agentKey());
            // the restarted service answers searches once its views have caught up with the chain
            await().atMost(Duration.ofSeconds(90))
                    .pollInterval(Duration.ofMillis(500))
                    .ignoreExceptions()
                    .until(() -> client.query(SPACE, Map.of("query", "favourite colour"), Write.DEFAULT)
                            .path("text")
                            .asText()
                            .contains("teal"));
            ScriptedChatModel model = new ScriptedChatModel("Your favourite colour is teal.");
            String reply = assistant(client, model).chat("conversation-1", "What is my favourite colour?");
            assertThat(reply).isEqualTo("Your favourite colour is teal.");

            List<ChatMessage> prompt = model.received.get(0).messages();
            assertThat(prompt)
                    .as("the earlier exchange, read back from the store")
                    .anySatisfy(m -> assertThat(m).isEqualTo(UserMessage.from("My favourite colour is teal")))
                    .anySatisfy(m -> assertThat(m).isEqualTo(AiMessage.from("Noted, your favourite colour is teal.")));
            UserMessage asked = (UserMessage) prompt.get(prompt.size() - 1);
            assertThat(asked.singleText())
                    .as("the question, augmented with the retrieved memory")
                    .startsWith("What is my favourite colour?")
                    .contains("teal");
            assertThat(new MemoryChainChatMemoryStore(client, SPACE).getMessages("conversation-1"))
                    .hasSize(4);
        }
    }
}
