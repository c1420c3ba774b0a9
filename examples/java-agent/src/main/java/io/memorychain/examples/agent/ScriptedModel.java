package io.memorychain.examples.agent;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.response.ChatResponse;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Stands in for an LLM with fixed rules (no network): "remember ..." calls the {@code memory_remember} tool with the
 * rest, a question calls {@code memory_recall}, and after a tool result it answers from what the tool returned, the
 * best match first (never from its own knowledge: it has none).
 */
final class ScriptedModel implements ChatModel {

    private static final Pattern REMEMBER = Pattern.compile("(?i)remember(?: that)?\\s+(.*)");
    private static final ObjectMapper JSON = new ObjectMapper();

    @Override
    public ChatResponse doChat(ChatRequest request) {
        List<ChatMessage> messages = request.messages();
        ChatMessage last = messages.get(messages.size() - 1);
        if (last instanceof ToolExecutionResultMessage result) {
            String best = result.text().strip().lines().findFirst().orElse("").replaceFirst("^- ", "");
            String text = result.toolName().equals("memory_remember")
                    ? "Noted, I will remember that."
                    : best.isBlank() ? "I do not remember anything about that." : "From memory: " + best;
            return answer(AiMessage.from(text));
        }
        String said = last instanceof UserMessage user ? user.singleText().strip() : "";
        Matcher remember = REMEMBER.matcher(said);
        if (remember.matches()) {
            return answer(AiMessage.from(call("memory_remember", Map.of("content", remember.group(1)))));
        }
        if (said.endsWith("?")) {
            return answer(AiMessage.from(call("memory_recall", Map.of("query", said))));
        }
        return answer(AiMessage.from("I see."));
    }

    private static ToolExecutionRequest call(String tool, Map<String, String> arguments) {
        try {
            return ToolExecutionRequest.builder()
                    .id(UUID.randomUUID().toString())
                    .name(tool)
                    .arguments(JSON.writeValueAsString(arguments))
                    .build();
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    private static ChatResponse answer(AiMessage message) {
        return ChatResponse.builder().aiMessage(message).build();
    }
}
