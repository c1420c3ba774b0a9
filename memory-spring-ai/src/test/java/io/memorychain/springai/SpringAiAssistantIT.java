package io.memorychain.springai;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.memorychain.client.MemoryChainClient;
import io.memorychain.client.TestService;
import io.memorychain.client.Write;
import io.memorychain.events.testing.SharedKafka;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.ai.chat.client.ChatClient;
import org.springframework.ai.chat.memory.ChatMemory;
import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.messages.Message;
import org.springframework.ai.chat.messages.MessageType;
import org.springframework.ai.chat.messages.UserMessage;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The Spring Boot test application ({@link AssistantApplication}: a scripted chat model, the adapter's advisor and
 * repository) against the real memory service, one service for the class.
 */
@ExtendWith(SharedKafka.class)
class SpringAiAssistantIT {

    static final String SPACE = "spring-assistant";
    static TestService service;
    static ConfigurableApplicationContext app;

    @BeforeAll
    static void start() {
        service = TestService.start("spring-ai");
        app = new SpringApplicationBuilder(AssistantApplication.class)
                .web(WebApplicationType.NONE)
                .properties(
                        Map.of("memory.url", service.url(), "memory.key", service.agentKey(), "memory.space", SPACE))
                .run();
    }

    @AfterAll
    static void stop() {
        if (app != null) {
            app.close();
        }
        if (service != null) {
            service.close();
        }
    }

    static ChatClient client(String name) {
        return app.getBean(name, ChatClient.class);
    }

    @Test
    void theAssistantRemembersAFactFromAnEarlierConversationThroughTheAdvisorsContext() {
        ScriptedChatModel model = app.getBean(ScriptedChatModel.class);
        MemoryChainClient memory = app.getBean(MemoryChainClient.class);
        model.script("Noted: your favourite colour is teal.", "Your favourite colour is teal.");

        String first = client("assistant")
                .prompt()
                .user("My favourite colour is teal")
                .advisors(a -> a.param(ChatMemory.CONVERSATION_ID, "monday"))
                .call()
                .content();
        assertThat(first).isEqualTo("Noted: your favourite colour is teal.");
        assertThat(app.getBean(MemoryChainChatMemoryRepository.class).findByConversationId("monday"))
                .as("the advisor committed the exchange to the conversation's thread")
                .extracting(Message::getMessageType, Message::getText)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple(MessageType.USER, "My favourite colour is teal"),
                        org.assertj.core.groups.Tuple.tuple(
                                MessageType.ASSISTANT, "Noted: your favourite colour is teal."));

        // the search index follows the chain: wait until the committed message can be retrieved
        await().atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofMillis(300))
                .ignoreExceptions()
                .until(() -> memory.query(SPACE, Map.of("query", "favourite colour"), Write.DEFAULT)
                        .path("text")
                        .asText()
                        .contains("teal"));

        String second = client("assistant")
                .prompt()
                .user("What is my favourite colour?")
                .advisors(a -> a.param(ChatMemory.CONVERSATION_ID, "friday"))
                .call()
                .content();
        assertThat(second).isEqualTo("Your favourite colour is teal.");
        List<Message> prompt = model.last().getInstructions();
        assertThat(prompt)
                .as("a new conversation: no earlier message, only the system message and the question")
                .extracting(Message::getMessageType)
                .containsExactly(MessageType.SYSTEM, MessageType.USER);
        assertThat(prompt.get(0).getText())
                .as("the system message, with the memory's context added")
                .startsWith("You are a helpful assistant.")
                .contains(MemoryChainContextAdvisor.HEADER)
                .contains("My favourite colour is teal");
        assertThat(prompt.get(1).getText()).isEqualTo("What is my favourite colour?");
    }

    @Test
    void theRepositoryKeepsAWindowedConversationInOrderAndSoftDeletesWhatLeavesIt() {
        ScriptedChatModel model = app.getBean(ScriptedChatModel.class);
        MemoryChainChatMemoryRepository repository = app.getBean(MemoryChainChatMemoryRepository.class);
        MemoryChainClient memory = app.getBean(MemoryChainClient.class);
        for (int turn = 1; turn <= 4; turn++) {
            model.script("answer " + turn);
            int n = turn;
            assertThat(client("windowed")
                            .prompt()
                            .user("question " + turn)
                            .advisors(a -> a.param(ChatMemory.CONVERSATION_ID, "windowed-1"))
                            .call()
                            .content())
                    .isEqualTo("answer " + n);
        }
        assertThat(model.last().getInstructions())
                .as("the last turn's prompt: the six-message window read back from the repository, then the question")
                .extracting(Message::getText)
                .containsExactly(
                        "question 1", "answer 1", "question 2", "answer 2", "question 3", "answer 3", "question 4");
        assertThat(repository.findByConversationId("windowed-1"))
                .as("the six-message window, oldest first")
                .containsExactly(
                        new UserMessage("question 2"),
                        new AssistantMessage("answer 2"),
                        new UserMessage("question 3"),
                        new AssistantMessage("answer 3"),
                        new UserMessage("question 4"),
                        new AssistantMessage("answer 4"));
        assertThat(repository.findConversationIds()).contains("windowed-1");

        List<JsonNode> evicted = threadMemories(memory, "windowed-1", "soft_deleted");
        assertThat(evicted)
                .as("the first turn left the window: soft-deleted, not erased")
                .extracting(m -> m.path("content").asText())
                .containsExactlyInAnyOrder("question 1", "answer 1");
        assertThat(deletionAudit(memory, evicted.get(0).path("id").asText()))
                .contains("left the chat memory of conversation windowed-1");

        repository.deleteByConversationId("windowed-1");
        assertThat(repository.findByConversationId("windowed-1")).isEmpty();
        assertThat(repository.findConversationIds()).doesNotContain("windowed-1");
        List<JsonNode> deleted = threadMemories(memory, "windowed-1", "soft_deleted");
        assertThat(deleted).hasSize(8);
        String lastAnswer = deleted.stream()
                .filter(m -> m.path("content").asText().equals("answer 4"))
                .findFirst()
                .orElseThrow()
                .path("id")
                .asText();
        assertThat(deletionAudit(memory, lastAnswer)).contains("conversation windowed-1 deleted");
        memory.restoreMemory(SPACE, lastAnswer, Map.of(), Write.DEFAULT);
        assertThat(repository.findByConversationId("windowed-1"))
                .as("a soft delete is restorable")
                .containsExactly(new AssistantMessage("answer 4"));
    }

    static List<JsonNode> threadMemories(MemoryChainClient memory, String thread, String state) {
        List<JsonNode> out = new ArrayList<>();
        memory.listMemories(SPACE, Map.of("kind", "episodic", "state", state, "limit", 500))
                .path("items")
                .forEach(m -> {
                    if (thread.equals(m.path("thread_id").asText())) {
                        out.add(m);
                    }
                });
        return out;
    }

    /** The memory's last audit line: its event type and description (which carries the reason). */
    static String deletionAudit(MemoryChainClient memory, String id) {
        JsonNode last = memory.listAudit(SPACE, Map.of("memory_id", id, "order", "desc", "limit", 1))
                .path("items")
                .path(0);
        return last.path("event_type").asText() + ": "
                + last.path("description").asText();
    }
}
