package io.memorychain.api.mcp;

import io.memorychain.api.auth.Principal;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.HttpStatus;
import io.micronaut.http.MediaType;
import io.micronaut.http.annotation.Body;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Delete;
import io.micronaut.http.annotation.Get;
import io.micronaut.http.annotation.Post;
import io.micronaut.http.annotation.RequestAttribute;
import io.micronaut.scheduling.TaskExecutors;
import io.micronaut.scheduling.annotation.ExecuteOn;
import io.modelcontextprotocol.common.McpTransportContext;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.server.McpStatelessServerHandler;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpStatelessServerTransport;
import io.swagger.v3.oas.annotations.Hidden;
import java.io.IOException;
import java.util.Map;
import reactor.core.publisher.Mono;

/**
 * MCP's streamable HTTP transport at {@code /mcp}, stateless (protocol 2025-06-18): each POST carries one JSON-RPC
 * message and gets its answer as JSON; there is no session and no server-initiated stream, so GET and DELETE answer
 * 405 as the specification allows. The caller (authenticated by {@code AuthFilter}) travels in the transport context
 * to the tools.
 */
@Controller("/mcp")
@ExecuteOn(TaskExecutors.BLOCKING)
@Hidden
public class McpHttpTransport implements McpStatelessServerTransport {

    /** The key under which tools find the caller's {@link Principal} in the transport context. */
    static final String CALLER = "memorychain.caller";

    private final McpJsonMapper mapper = McpJsonDefaults.getMapper();
    private volatile McpStatelessServerHandler handler;

    @Override
    public void setMcpHandler(McpStatelessServerHandler handler) {
        this.handler = handler;
    }

    @Override
    public Mono<Void> closeGracefully() {
        return Mono.empty();
    }

    @Post(consumes = MediaType.APPLICATION_JSON, produces = MediaType.APPLICATION_JSON)
    public HttpResponse<String> post(@RequestAttribute(Principal.ATTRIBUTE) Principal caller, @Body String body) throws IOException {
        McpSchema.JSONRPCMessage message;
        try {
            message = McpSchema.deserializeJsonRpcMessage(mapper, body);
        } catch (IOException | IllegalArgumentException e) {
            return error(null, McpSchema.ErrorCodes.PARSE_ERROR, "not a JSON-RPC message: " + e.getMessage());
        }
        McpTransportContext context = McpTransportContext.create(Map.of(CALLER, caller));
        if (message instanceof McpSchema.JSONRPCRequest request) {
            McpSchema.JSONRPCResponse response = handler.handleRequest(context, request)
                    .contextWrite(c -> c.put(McpTransportContext.KEY, context)).block();
            return HttpResponse.ok(mapper.writeValueAsString(response)).contentType(MediaType.APPLICATION_JSON_TYPE);
        }
        if (message instanceof McpSchema.JSONRPCNotification notification) {
            handler.handleNotification(context, notification).contextWrite(c -> c.put(McpTransportContext.KEY, context)).block();
            return HttpResponse.accepted();
        }
        return HttpResponse.accepted(); // a response from the client: nothing asked it anything
    }

    @Get
    public HttpResponse<?> stream() {
        return HttpResponse.status(HttpStatus.METHOD_NOT_ALLOWED);
    }

    @Delete
    public HttpResponse<?> endSession() {
        return HttpResponse.status(HttpStatus.METHOD_NOT_ALLOWED);
    }

    private HttpResponse<String> error(Object id, int code, String message) throws IOException {
        McpSchema.JSONRPCResponse response = new McpSchema.JSONRPCResponse(McpSchema.JSONRPC_VERSION, id, null,
                new McpSchema.JSONRPCResponse.JSONRPCError(code, message, null));
        return HttpResponse.badRequest(mapper.writeValueAsString(response)).contentType(MediaType.APPLICATION_JSON_TYPE);
    }
}
