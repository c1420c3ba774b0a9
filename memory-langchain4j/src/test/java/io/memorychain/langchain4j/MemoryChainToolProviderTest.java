package io.memorychain.langchain4j;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.agent.tool.ToolSpecification;
import dev.langchain4j.service.tool.AiServiceTool;
import dev.langchain4j.service.tool.ToolProviderResult;
import io.memorychain.client.MemoryChainClient;
import io.memorychain.client.RetryPolicy;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The memory tools against a scripted service: the calls they make, their answers, and errors as text for the model.
 */
class MemoryChainToolProviderTest {

    private HttpServer server;
    private final List<String> calls = new CopyOnWriteArrayList<>();

    @AfterEach
    void stop() {
        server.stop(0);
    }

    private ToolProviderResult tools() throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", exchange -> {
            String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            calls.add(
                    exchange.getRequestMethod() + " " + exchange.getRequestURI().getPath() + " " + body);
            String path = exchange.getRequestURI().getPath();
            int status = path.endsWith("/memories") ? 201 : path.endsWith("/query") ? 200 : 404;
            String answer = status == 201
                    ? "{\"memory\":{\"id\":\"m-7\"}}"
                    : status == 200
                            ? "{\"text\":\"- The user likes tea\",\"items\":[]}"
                            : "{\"code\":\"NOT_FOUND\",\"message\":\"no memory m-0\"}";
            byte[] bytes = answer.getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(status, bytes.length);
            exchange.getResponseBody().write(bytes);
            exchange.close();
        });
        server.start();
        MemoryChainClient client = MemoryChainClient.builder(
                        "http://127.0.0.1:" + server.getAddress().getPort(), "k")
                .retry(RetryPolicy.none())
                .build();
        return new MemoryChainToolProvider(client, "assistant").provideTools(null);
    }

    private static AiServiceTool tool(ToolProviderResult tools, String name) {
        return tools.aiServiceTools().stream()
                .filter(t -> t.name().equals(name))
                .findFirst()
                .orElseThrow();
    }

    private static String run(ToolProviderResult tools, String name, String arguments) {
        return tool(tools, name)
                .toolExecutor()
                .execute(
                        ToolExecutionRequest.builder()
                                .id("t")
                                .name(name)
                                .arguments(arguments)
                                .build(),
                        "c-1");
    }

    @Test
    void offersRememberRecallAndForget() throws IOException {
        ToolProviderResult tools = tools();
        for (String name : List.of("memory_remember", "memory_recall", "memory_forget")) {
            ToolSpecification spec = tool(tools, name).toolSpecification();
            assertThat(spec.description()).as(name).isNotBlank();
        }
        assertThat(run(tools, "memory_remember", "{\"content\":\"The user likes tea\",\"category\":\"preferences\"}"))
                .isEqualTo("remembered m-7");
        assertThat(calls.get(0))
                .startsWith("POST /v1/spaces/assistant/memories ")
                .contains("\"content\":\"The user likes tea\"")
                .contains("\"category\":\"preferences\"");
        assertThat(run(tools, "memory_recall", "{\"query\":\"tea\"}")).isEqualTo("- The user likes tea");
        assertThat(run(tools, "memory_forget", "{\"id\":\"m-0\",\"reason\":\"wrong\"}"))
                .as("an error answer goes back to the model as text")
                .isEqualTo("ERROR NOT_FOUND: no memory m-0");
        assertThat(calls.get(2))
                .startsWith("DELETE /v1/spaces/assistant/memories/m-0 ")
                .contains("\"reason\":\"wrong\"");
    }
}
