package io.memorychain.api.mcp;

import io.memorychain.api.auth.Principal;
import io.memorychain.api.error.ApiException;
import io.micronaut.context.annotation.Context;
import io.micronaut.context.annotation.Factory;
import io.micronaut.json.JsonMapper;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpStatelessServerFeatures;
import io.modelcontextprotocol.server.McpStatelessSyncServer;
import io.modelcontextprotocol.spec.McpSchema;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;

/** The MCP server: every {@link MemoryTools} tool over the {@code /mcp} transport. */
@Factory
public class McpServerBeans {

    static final String NAME = "memory-chain";
    static final String INSTRUCTIONS = """
            Long-term memory. Recall before tasks that need background (memory_recall), commit what is worth \
            remembering (memory_commit), keep core blocks current (block_update), consolidate fragments \
            (memory_rethink), forget only after the user confirms (memory_forget). Every change is signed onto an \
            audited chain under your identity.""";

    @Context
    McpStatelessSyncServer mcpServer(McpHttpTransport transport, MemoryTools tools, JsonMapper json) {
        List<McpStatelessServerFeatures.SyncToolSpecification> specs = tools.all().stream()
                .map(t -> new McpStatelessServerFeatures.SyncToolSpecification(tool(t), (context, request) ->
                        result(json, () -> tools.call(t.name(), (Principal) context.get(McpHttpTransport.CALLER),
                                request.arguments()))))
                .toList();
        return McpServer.sync(transport)
                .serverInfo(NAME, "1.0")
                .instructions(INSTRUCTIONS)
                .capabilities(McpSchema.ServerCapabilities.builder().tools(false).build())
                .jsonMapper(McpJsonDefaults.getMapper())
                .tools(specs)
                .build();
    }

    static McpSchema.Tool tool(MemoryTool t) {
        return McpSchema.Tool.builder(t.name(), t.inputSchema()).description(t.description()).build();
    }

    /** A tool's answer as JSON text; a refusal as an error result carrying the same {code, message} as REST. */
    static McpSchema.CallToolResult result(JsonMapper json, java.util.function.Supplier<Object> call) {
        try {
            try {
                return McpSchema.CallToolResult.builder().addTextContent(json.writeValueAsString(call.get())).isError(false).build();
            } catch (ApiException e) {
                return McpSchema.CallToolResult.builder().addTextContent(json.writeValueAsString(e.toError())).isError(true).build();
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
