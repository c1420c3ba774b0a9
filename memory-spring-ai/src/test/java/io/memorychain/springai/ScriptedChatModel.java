package io.memorychain.springai;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.model.ChatModel;
import org.springframework.ai.chat.model.ChatResponse;
import org.springframework.ai.chat.model.Generation;
import org.springframework.ai.chat.prompt.Prompt;

/** A real {@link ChatModel} with scripted replies (no network): answers them in order and keeps every prompt. */
final class ScriptedChatModel implements ChatModel {

    final List<Prompt> received = new CopyOnWriteArrayList<>();
    private final Deque<String> replies = new ArrayDeque<>();

    synchronized ScriptedChatModel script(String... next) {
        replies.addAll(List.of(next));
        return this;
    }

    @Override
    public synchronized ChatResponse call(Prompt prompt) {
        received.add(prompt);
        if (replies.isEmpty()) {
            throw new IllegalStateException("no scripted reply left for: " + prompt.getContents());
        }
        return new ChatResponse(List.of(new Generation(new AssistantMessage(replies.poll()))));
    }

    Prompt last() {
        return received.get(received.size() - 1);
    }
}
