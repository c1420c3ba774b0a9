package io.memorychain.api.mcp;

import io.memorychain.api.auth.Principal;
import io.memorychain.api.error.ApiException;
import io.micronaut.context.annotation.Context;
import io.micronaut.context.annotation.Factory;
import io.micronaut.json.JsonMapper;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.json.schema.JsonSchemaValidator;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpStatelessServerFeatures;
import io.modelcontextprotocol.server.McpStatelessSyncServer;
import io.modelcontextprotocol.spec.McpSchema;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Map;

/** The MCP server: every {@link MemoryTools} tool over the {@code /mcp} transport. */
@Factory
class McpServerBeans {

    static final String NAME = "memory-chain";
    static final String INSTRUCTIONS = """
            Long-term memory. Recall before tasks that need background (memory_recall), commit what is worth \
            remembering (memory_commit), keep core blocks current (block_update), consolidate fragments \
            (memory_rethink), forget only after the user confirms (memory_forget). Every change is signed onto an \
            audited chain under your identity.""";

    /**
     * The SDK's own check of the arguments against the tool's input schema is off: its refusal is a tool error of plain
     * text. The same check runs first in each tool's handler ({@link #conforming}), refused as REST refuses a body:
     * INVALID_ARGUMENT.
     */
    @Context
    McpStatelessSyncServer mcpServer(McpHttpTransport transport, MemoryTools tools, JsonMapper json) {
        JsonSchemaValidator schemas = McpJsonDefaults.getSchemaValidator();
        List<McpStatelessServerFeatures.SyncToolSpecification> specs = tools.all().stream()
                .map(t -> new McpStatelessServerFeatures.SyncToolSpecification(
                        tool(t),
                        (context, request) -> result(
                                json,
                                () -> tools.call(
                                        t.name(),
                                        (Principal) context.get(McpHttpTransport.CALLER),
                                        conforming(schemas, t, request.arguments())))))
                .toList();
        return McpServer.sync(transport)
                .serverInfo(NAME, "1.0")
                .instructions(INSTRUCTIONS)
                .capabilities(
                        McpSchema.ServerCapabilities.builder().tools(false).build())
                .jsonMapper(McpJsonDefaults.getMapper())
                .validateToolInputs(false)
                .tools(specs)
                .build();
    }

    /**
     * The arguments, checked against the tool's input schema.
     *
     * @throws ApiException 400 INVALID_ARGUMENT naming what the schema refused
     */
    static Map<String, Object> conforming(JsonSchemaValidator schemas, MemoryTool tool, Map<String, Object> arguments) {
        Map<String, Object> args = arguments == null ? Map.of() : arguments;
        JsonSchemaValidator.ValidationResponse checked = schemas.validate(tool.inputSchema(), args);
        if (!checked.valid()) {
            String why = ToolArgs.firstLine(checked.errorMessage());
            throw ApiException.invalid("invalid arguments for " + tool.name() + ": "
                    + (why.length() > 500 ? why.substring(0, 500) + "..." : why));
        }
        return args;
    }

    static McpSchema.Tool tool(MemoryTool t) {
        return McpSchema.Tool.builder(t.name(), t.inputSchema())
                .description(t.description())
                .build();
    }

    /** A tool's answer as JSON text; a refusal as an error result carrying the same {code, message} as REST. */
    static McpSchema.CallToolResult result(JsonMapper json, java.util.function.Supplier<Object> call) {
        try {
            try {
                return McpSchema.CallToolResult.builder()
                        .addTextContent(json.writeValueAsString(call.get()))
                        .isError(false)
                        .build();
            } catch (ApiException e) {
                return McpSchema.CallToolResult.builder()
                        .addTextContent(json.writeValueAsString(e.toError()))
                        .isError(true)
                        .build();
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
