package io.memorychain.langchain4j;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.agent.tool.ToolSpecification;
import dev.langchain4j.model.chat.request.json.JsonObjectSchema;
import dev.langchain4j.service.tool.ToolExecutor;
import dev.langchain4j.service.tool.ToolProvider;
import dev.langchain4j.service.tool.ToolProviderRequest;
import dev.langchain4j.service.tool.ToolProviderResult;
import io.memorychain.client.MemoryChainClient;
import io.memorychain.client.MemoryChainException;
import io.memorychain.client.Write;
import java.io.IOException;
import java.util.HashMap;
import java.util.Map;

/**
 * The memory tools for a LangChain4j agent ({@code AiServices.builder(...).toolProvider(...)}): remember a fact, recall
 * memories for a question, forget a memory (a soft delete with a reason). Every tool works in one space; a service
 * error is answered to the model as {@code ERROR <code>: <message>} rather than thrown.
 */
public final class MemoryChainToolProvider implements ToolProvider {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final MemoryChainClient client;
    private final String space;

    public MemoryChainToolProvider(MemoryChainClient client, String space) {
        this.client = client;
        this.space = space;
    }

    @Override
    public ToolProviderResult provideTools(ToolProviderRequest request) {
        return ToolProviderResult.builder()
                .add(
                        ToolSpecification.builder()
                                .name("memory_remember")
                                .description("Store a fact, preference or event in long-term memory; answers its id")
                                .parameters(JsonObjectSchema.builder()
                                        .addStringProperty("content", "The memory text, one self-contained statement")
                                        .addStringProperty("category", "Optional category, e.g. preferences")
                                        .required("content")
                                        .build())
                                .build(),
                        tool(args -> {
                            Map<String, Object> body = new HashMap<>();
                            body.put("content", args.path("content").asText());
                            if (args.hasNonNull("category")) {
                                body.put("category", args.get("category").asText());
                            }
                            return "remembered "
                                    + client.createMemory(space, body, Write.DEFAULT)
                                            .path("memory")
                                            .path("id")
                                            .asText();
                        }))
                .add(
                        ToolSpecification.builder()
                                .name("memory_recall")
                                .description("Search long-term memory; answers the most relevant memories as bullets")
                                .parameters(JsonObjectSchema.builder()
                                        .addStringProperty("query", "What to look for")
                                        .required("query")
                                        .build())
                                .build(),
                        tool(args -> client.query(
                                        space,
                                        Map.of("query", args.path("query").asText()),
                                        Write.DEFAULT)
                                .path("text")
                                .asText("")))
                .add(
                        ToolSpecification.builder()
                                .name("memory_forget")
                                .description("Soft-delete a memory that is wrong or no longer true (restorable)")
                                .parameters(JsonObjectSchema.builder()
                                        .addStringProperty("id", "The memory id")
                                        .addStringProperty("reason", "Why it is forgotten")
                                        .required("id", "reason")
                                        .build())
                                .build(),
                        tool(args -> {
                            client.deleteMemory(
                                    space,
                                    args.path("id").asText(),
                                    Map.of("reason", args.path("reason").asText()),
                                    Write.DEFAULT);
                            return "forgot " + args.path("id").asText();
                        }))
                .build();
    }

    interface Call {
        String run(JsonNode args);
    }

    private static ToolExecutor tool(Call call) {
        return (ToolExecutionRequest request, Object memoryId) -> {
            try {
                String arguments = request.arguments();
                return call.run(JSON.readTree(arguments == null || arguments.isBlank() ? "{}" : arguments));
            } catch (MemoryChainException e) {
                return "ERROR " + e.code() + ": " + e.detail();
            } catch (IOException e) {
                return "ERROR INVALID_ARGUMENT: arguments are not JSON: " + e.getMessage();
            }
        };
    }
}
