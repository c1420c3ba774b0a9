package io.memorychain.springai;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.memorychain.client.MemoryChainClient;
import io.memorychain.client.Pages;
import io.memorychain.client.Write;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.messages.Message;
import org.springframework.ai.chat.messages.SystemMessage;
import org.springframework.ai.chat.messages.ToolResponseMessage;
import org.springframework.ai.chat.messages.UserMessage;

/**
 * A space's conversations as threads of episodic memories, one memory per message, in creation order. Plain user,
 * assistant and system texts are stored as they are (so searches and {@code /context} find them); tool calls and tool
 * results as a small JSON document, marked by their {@code source}. Shared by the repository and the advisor, so both
 * write and read the same thread.
 */
final class ConversationMessages {

    static final String TEXT = "spring-ai:text";
    static final String JSON = "spring-ai:json";
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private final MemoryChainClient client;
    private final String space;

    ConversationMessages(MemoryChainClient client, String space) {
        this.client = client;
        this.space = space;
    }

    /** A stored message: its memory id and the message. */
    record Stored(String memoryId, Message message) {}

    String space() {
        return space;
    }

    /** The conversation's stored messages, oldest first. */
    List<Stored> stored(String conversationId) {
        List<Stored> out = new ArrayList<>();
        for (JsonNode m : episodic()) {
            String source = m.path("source").asText("");
            if (conversationId.equals(m.path("thread_id").asText(null)) && isOurs(source)) {
                out.add(new Stored(m.path("id").asText(), message(m, source)));
            }
        }
        return out;
    }

    /** The ids of the conversations with messages in the space, in the order they started. */
    List<String> conversationIds() {
        Set<String> ids = new LinkedHashSet<>();
        for (JsonNode m : episodic()) {
            if (isOurs(m.path("source").asText("")) && m.hasNonNull("thread_id")) {
                ids.add(m.path("thread_id").asText());
            }
        }
        return List.copyOf(ids);
    }

    /** Stores the messages at the end of the conversation's thread, in order. */
    void append(String conversationId, List<? extends Message> messages) {
        for (Message message : messages) {
            client.createMemory(space, body(conversationId, message), Write.DEFAULT);
        }
    }

    /** A soft delete: restorable, and still on the chain with its reason. */
    void delete(String memoryId, String reason) {
        client.deleteMemory(space, memoryId, Map.of("reason", reason), Write.DEFAULT);
    }

    private Iterable<JsonNode> episodic() {
        return Pages.memories(client, space, Map.of("kind", "episodic", "limit", 500));
    }

    private static boolean isOurs(String source) {
        return source.equals(TEXT) || source.equals(JSON);
    }

    /** Two messages are the same stored message when they store the same role, content and source. */
    static boolean sameStored(Message a, Message b) {
        return stored(a).equals(stored(b));
    }

    private static Map<String, Object> stored(Message m) {
        Map<String, Object> body = body("", m);
        body.remove("thread_id");
        return body;
    }

    static Map<String, Object> body(String conversationId, Message message) {
        Map<String, Object> body = new HashMap<>();
        body.put("kind", "episodic");
        body.put("thread_id", conversationId);
        String text = plainText(message);
        body.put("content", text != null ? text : json(message));
        body.put("source", text != null ? TEXT : JSON);
        body.put(
                "role",
                switch (message.getMessageType()) {
                    case USER -> "user";
                    case ASSISTANT -> "assistant";
                    case SYSTEM -> "system";
                    case TOOL -> "tool";
                });
        return body;
    }

    /** The text of a message that is only (non-blank) text and round-trips as it is, else null. */
    static String plainText(Message message) {
        String text = message.getText();
        if (text == null || text.isBlank()) {
            return null; // the API refuses blank content: keep the JSON
        }
        if (message instanceof ToolResponseMessage || message instanceof AssistantMessage a && a.hasToolCalls()) {
            return null;
        }
        return text;
    }

    static String json(Message message) {
        ObjectNode doc = MAPPER.createObjectNode();
        doc.put("type", message.getMessageType().getValue());
        doc.put("text", message.getText());
        if (message instanceof AssistantMessage a) {
            ArrayNode calls = doc.putArray("tool_calls");
            for (AssistantMessage.ToolCall c : a.getToolCalls()) {
                calls.addObject()
                        .put("id", c.id())
                        .put("type", c.type())
                        .put("name", c.name())
                        .put("arguments", c.arguments());
            }
        }
        if (message instanceof ToolResponseMessage t) {
            ArrayNode responses = doc.putArray("responses");
            for (ToolResponseMessage.ToolResponse r : t.getResponses()) {
                responses.addObject().put("id", r.id()).put("name", r.name()).put("response_data", r.responseData());
            }
        }
        try {
            return MAPPER.writeValueAsString(doc);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write a message as JSON", e);
        }
    }

    static Message message(JsonNode memory, String source) {
        String content = memory.path("content").asText();
        if (source.equals(JSON)) {
            return fromJson(content);
        }
        return switch (memory.path("role").asText("user")) {
            case "assistant" -> new AssistantMessage(content);
            case "system" -> new SystemMessage(content);
            default -> new UserMessage(content);
        };
    }

    private static Message fromJson(String content) {
        JsonNode doc;
        try {
            doc = MAPPER.readTree(content);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a stored message is not the JSON this adapter writes", e);
        }
        String text = doc.path("text").isNull() ? null : doc.path("text").asText(null);
        return switch (doc.path("type").asText()) {
            case "tool" -> {
                List<ToolResponseMessage.ToolResponse> responses = new ArrayList<>();
                doc.path("responses")
                        .forEach(r -> responses.add(new ToolResponseMessage.ToolResponse(
                                r.path("id").asText(null),
                                r.path("name").asText(null),
                                r.path("response_data").asText(null))));
                yield ToolResponseMessage.builder().responses(responses).build();
            }
            case "assistant" -> {
                List<AssistantMessage.ToolCall> calls = new ArrayList<>();
                doc.path("tool_calls")
                        .forEach(c -> calls.add(new AssistantMessage.ToolCall(
                                c.path("id").asText(null),
                                c.path("type").asText(null),
                                c.path("name").asText(null),
                                c.path("arguments").asText(null))));
                yield AssistantMessage.builder().content(text).toolCalls(calls).build();
            }
            case "system" -> new SystemMessage(text == null ? "" : text);
            default -> new UserMessage(text == null ? "" : text);
        };
    }
}
