package io.memorychain.langchain4j;

import com.fasterxml.jackson.databind.JsonNode;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.ChatMessageDeserializer;
import dev.langchain4j.data.message.ChatMessageSerializer;
import dev.langchain4j.data.message.SystemMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.store.memory.chat.ChatMemoryStore;
import io.memorychain.client.MemoryChainClient;
import io.memorychain.client.Pages;
import io.memorychain.client.Write;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A {@link ChatMemoryStore} that keeps each conversation's messages as episodic memories of one space, in a thread
 * named after the chat memory id, in order (the API lists memories in creation order). Plain user, assistant and system
 * texts are stored as they are (so retrieval finds them); other messages (tool calls and results) as LangChain4j's
 * JSON, marked by their {@code source}. Messages the chat memory drops (its window) and {@link #deleteMessages} are
 * soft deletes with a reason: restorable, and still on the chain.
 */
public final class MemoryChainChatMemoryStore implements ChatMemoryStore {

    static final String TEXT = "langchain4j:text";
    static final String JSON = "langchain4j:json";

    private final MemoryChainClient client;
    private final String space;

    public MemoryChainChatMemoryStore(MemoryChainClient client, String space) {
        this.client = client;
        this.space = space;
    }

    /** A stored message: its memory id and the message. */
    record Stored(String memoryId, ChatMessage message) {}

    @Override
    public List<ChatMessage> getMessages(Object memoryId) {
        return stored(memoryId).stream().map(Stored::message).toList();
    }

    @Override
    public void updateMessages(Object memoryId, List<ChatMessage> messages) {
        List<Stored> stored = stored(memoryId);
        int evicted = firstOverlap(stored, messages);
        for (Stored gone : stored.subList(0, evicted)) {
            delete(gone.memoryId(), "left the chat memory window of " + memoryId);
        }
        for (ChatMessage added : messages.subList(stored.size() - evicted, messages.size())) {
            client.createMemory(space, body(memoryId, added), Write.DEFAULT);
        }
    }

    @Override
    public void deleteMessages(Object memoryId) {
        for (Stored gone : stored(memoryId)) {
            delete(gone.memoryId(), "chat memory " + memoryId + " cleared");
        }
    }

    /** The smallest e such that stored[e..] is the start of messages (stored.size() when none is). */
    static int firstOverlap(List<Stored> stored, List<ChatMessage> messages) {
        for (int e = 0; e < stored.size(); e++) {
            int n = stored.size() - e;
            if (n <= messages.size()) {
                boolean same = true;
                for (int i = 0; i < n && same; i++) {
                    same = stored.get(e + i).message().equals(messages.get(i));
                }
                if (same) {
                    return e;
                }
            }
        }
        return stored.size();
    }

    private void delete(String id, String reason) {
        client.deleteMemory(space, id, Map.of("reason", reason), Write.DEFAULT);
    }

    private List<Stored> stored(Object memoryId) {
        String thread = String.valueOf(memoryId);
        List<Stored> out = new ArrayList<>();
        for (JsonNode m : Pages.memories(client, space, Map.of("kind", "episodic", "limit", 500))) {
            String source = m.path("source").asText("");
            if (thread.equals(m.path("thread_id").asText(null)) && (source.equals(TEXT) || source.equals(JSON))) {
                out.add(new Stored(m.path("id").asText(), message(m, source)));
            }
        }
        return out;
    }

    private static ChatMessage message(JsonNode m, String source) {
        String content = m.path("content").asText();
        if (source.equals(JSON)) {
            return ChatMessageDeserializer.messageFromJson(content);
        }
        return switch (m.path("role").asText("user")) {
            case "assistant" -> AiMessage.from(content);
            case "system" -> SystemMessage.from(content);
            default -> UserMessage.from(content);
        };
    }

    static Map<String, Object> body(Object memoryId, ChatMessage message) {
        Map<String, Object> body = new HashMap<>();
        body.put("kind", "episodic");
        body.put("thread_id", String.valueOf(memoryId));
        String text = plainText(message);
        if (text != null && text.isBlank()) {
            text = null; // the API refuses blank content: keep the JSON
        }
        body.put("content", text != null ? text : ChatMessageSerializer.messageToJson(message));
        body.put("source", text != null ? TEXT : JSON);
        body.put(
                "role",
                switch (message.type()) {
                    case USER -> "user";
                    case AI -> "assistant";
                    case SYSTEM -> "system";
                    default -> "tool";
                });
        return body;
    }

    /** The text of a message that is only text (round-trips as it is), else null. */
    static String plainText(ChatMessage message) {
        if (message instanceof UserMessage u && u.hasSingleText() && u.name() == null) {
            return u.singleText();
        }
        if (message instanceof AiMessage a
                && !a.hasToolExecutionRequests()
                && a.text() != null
                && a.thinking() == null) {
            return a.text();
        }
        if (message instanceof SystemMessage s) {
            return s.text();
        }
        return null;
    }
}
