package io.memorychain.llm;

import java.util.Locale;
import java.util.Objects;

/** One chat message; {@code content} may be empty but not null. */
public record ChatMessage(Role role, String content) {

    /** The chat-completions roles a request may carry. */
    public enum Role {
        SYSTEM,
        USER,
        ASSISTANT;

        /** The protocol's spelling: {@code system}, {@code user}, {@code assistant}. */
        public String wireName() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    public ChatMessage {
        Objects.requireNonNull(role, "role");
        Objects.requireNonNull(content, "content");
    }

    public static ChatMessage system(String content) {
        return new ChatMessage(Role.SYSTEM, content);
    }

    public static ChatMessage user(String content) {
        return new ChatMessage(Role.USER, content);
    }

    public static ChatMessage assistant(String content) {
        return new ChatMessage(Role.ASSISTANT, content);
    }
}
