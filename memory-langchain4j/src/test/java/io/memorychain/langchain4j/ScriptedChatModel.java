package io.memorychain.langchain4j;

import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.response.ChatResponse;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** A chat model that answers scripted replies in order and keeps every request it received (no network). */
final class ScriptedChatModel implements ChatModel {

    final List<ChatRequest> received = new CopyOnWriteArrayList<>();
    private final Deque<String> replies;

    ScriptedChatModel(String... replies) {
        this.replies = new ArrayDeque<>(List.of(replies));
    }

    @Override
    public ChatResponse doChat(ChatRequest request) {
        received.add(request);
        String reply = replies.isEmpty() ? "(no more scripted replies)" : replies.poll();
        return ChatResponse.builder().aiMessage(AiMessage.from(reply)).build();
    }
}
