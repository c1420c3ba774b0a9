package io.memorychain.springai;

import io.memorychain.client.MemoryChainClient;
import org.springframework.ai.chat.client.ChatClient;
import org.springframework.ai.chat.client.advisor.MessageChatMemoryAdvisor;
import org.springframework.ai.chat.memory.ChatMemory;
import org.springframework.ai.chat.memory.MessageWindowChatMemory;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.context.annotation.Bean;

/**
 * The Spring Boot test application: a scripted chat model, the Memory Chain client from properties ({@code memory.url},
 * {@code memory.key}, {@code memory.space}), and two chat clients: {@code assistant} with the context advisor alone (it
 * injects {@code /context} and commits each exchange), {@code windowed} with Spring AI's
 * {@code MessageChatMemoryAdvisor} over a six-message window kept by the repository.
 */
@SpringBootConfiguration
class AssistantApplication {

    @Bean
    ScriptedChatModel chatModel() {
        return new ScriptedChatModel();
    }

    @Bean
    MemoryChainClient memoryChainClient(@Value("${memory.url}") String url, @Value("${memory.key}") String key) {
        return MemoryChainClient.builder(url, key).build();
    }

    @Bean
    MemoryChainChatMemoryRepository chatMemoryRepository(
            MemoryChainClient client, @Value("${memory.space}") String space) {
        return new MemoryChainChatMemoryRepository(client, space);
    }

    @Bean
    ChatClient assistant(ScriptedChatModel model, MemoryChainClient client, @Value("${memory.space}") String space) {
        return ChatClient.builder(model)
                .defaultSystem("You are a helpful assistant.")
                .defaultAdvisors(MemoryChainContextAdvisor.builder(client, space)
                        .maxTokens(800)
                        .build())
                .build();
    }

    @Bean
    ChatClient windowed(ScriptedChatModel model, MemoryChainChatMemoryRepository repository) {
        ChatMemory memory = MessageWindowChatMemory.builder()
                .chatMemoryRepository(repository)
                .maxMessages(6)
                .build();
        return ChatClient.builder(model)
                .defaultAdvisors(MessageChatMemoryAdvisor.builder(memory).build())
                .build();
    }
}
