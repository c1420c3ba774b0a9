package io.memorychain.springai;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
import io.memorychain.client.MemoryChainClient;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.ai.chat.client.ChatClient;
import org.springframework.ai.chat.memory.ChatMemory;
import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.model.ChatModel;
import org.springframework.ai.chat.model.ChatResponse;
import org.springframework.ai.chat.model.Generation;
import org.springframework.ai.chat.prompt.Prompt;
import reactor.core.publisher.Flux;

/** The advisor on a streamed answer, against a scripted HTTP server standing in for the memory service. */
class ContextAdvisorStreamingTest {

    static final ObjectMapper JSON = new ObjectMapper();

    record Seen(String method, String path, JsonNode body) {}

    final List<Seen> seen = new CopyOnWriteArrayList<>();
    final List<Prompt> prompts = new CopyOnWriteArrayList<>();
    HttpServer server;

    @BeforeEach
    void start() throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", exchange -> {
            byte[] in = exchange.getRequestBody().readAllBytes();
            String path = exchange.getRequestURI().getPath();
            seen.add(new Seen(exchange.getRequestMethod(), path, in.length == 0 ? null : JSON.readTree(in)));
            String answer = path.endsWith("/context")
                    ? "{\"text\":\"- the user's favourite colour is teal\",\"tokens\":9}"
                    : "{\"memory\":{\"id\":\"m" + seen.size() + "\"},\"seq\":" + seen.size() + "}";
            byte[] out = answer.getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(200, out.length);
            exchange.getResponseBody().write(out);
            exchange.close();
        });
        server.start();
    }

    @AfterEach
    void stop() {
        server.stop(0);
    }

    @Test
    void aStreamedAnswerIsCommittedOnceAndWholeAfterTheContextWasInjected() {
        ChatModel streaming = new ChatModel() {
            @Override
            public ChatResponse call(Prompt prompt) {
                throw new UnsupportedOperationException("streaming only");
            }

            @Override
            public Flux<ChatResponse> stream(Prompt prompt) {
                prompts.add(prompt);
                return Flux.just("Your favourite ", "colour is ", "teal.")
                        .map(chunk -> new ChatResponse(List.of(new Generation(new AssistantMessage(chunk)))));
            }
        };
        MemoryChainClient client = MemoryChainClient.builder(
                        "http://127.0.0.1:" + server.getAddress().getPort(), "k")
                .build();
        ChatClient chat = ChatClient.builder(streaming)
                .defaultAdvisors(MemoryChainContextAdvisor.builder(client, "assistant")
                        .maxTokens(300)
                        .build())
                .build();

        List<String> chunks = chat
                .prompt()
                .user("What is my favourite colour?")
                .advisors(a -> a.param(ChatMemory.CONVERSATION_ID, "c7"))
                .stream()
                .content()
                .collectList()
                .block();

        assertThat(String.join("", chunks)).isEqualTo("Your favourite colour is teal.");
        assertThat(prompts.get(0).getSystemMessage().getText())
                .contains(MemoryChainContextAdvisor.HEADER)
                .contains("the user's favourite colour is teal");
        assertThat(seen)
                .extracting(Seen::method, Seen::path)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple("POST", "/v1/spaces/assistant/context"),
                        org.assertj.core.groups.Tuple.tuple("POST", "/v1/spaces/assistant/memories"),
                        org.assertj.core.groups.Tuple.tuple("POST", "/v1/spaces/assistant/memories"));
        JsonNode asked = seen.get(0).body();
        assertThat(asked.path("message").asText()).isEqualTo("What is my favourite colour?");
        assertThat(asked.path("thread_id").asText()).isEqualTo("c7");
        assertThat(asked.path("max_tokens").asInt()).isEqualTo(300);
        assertThat(seen.get(1).body().path("content").asText()).isEqualTo("What is my favourite colour?");
        assertThat(seen.get(1).body().path("role").asText()).isEqualTo("user");
        assertThat(seen.get(2).body().path("content").asText())
                .as("the whole answer, not its last chunk")
                .isEqualTo("Your favourite colour is teal.");
        assertThat(seen.get(2).body().path("thread_id").asText()).isEqualTo("c7");
    }
}
