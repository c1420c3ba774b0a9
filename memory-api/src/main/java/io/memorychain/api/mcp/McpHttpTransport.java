package io.memorychain.api.mcp;

import io.memorychain.api.auth.Principal;
import io.memorychain.api.config.MemoryConfig;
import io.memorychain.api.error.ApiException;
import io.memorychain.api.routing.McpRouting;
import io.memorychain.api.routing.RoutingHeaders;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.HttpStatus;
import io.micronaut.http.MediaType;
import io.micronaut.http.annotation.Body;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Delete;
import io.micronaut.http.annotation.Get;
import io.micronaut.http.annotation.Post;
import io.micronaut.http.annotation.RequestAttribute;
import io.micronaut.json.JsonMapper;
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
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Optional;
import reactor.core.publisher.Mono;

/**
 * MCP's streamable HTTP transport at {@code /mcp}, stateless (protocol 2025-06-18): each POST carries one JSON-RPC
 * message and gets its answer as JSON; there is no session and no server-initiated stream, so GET and DELETE answer 405
 * as the specification allows. The caller (authenticated by {@code AuthFilter}) travels in the transport context to the
 * tools. A tool call about a space another instance owns is forwarded there once ({@link McpRouting},
 * docs/architecture.md §19) and the owner's answer relayed.
 */
@Controller("/mcp")
@ExecuteOn(TaskExecutors.BLOCKING)
@Hidden
class McpHttpTransport implements McpStatelessServerTransport {

    /** The key under which tools find the caller's {@link Principal} in the transport context. */
    static final String CALLER = "memorychain.caller";

    private final McpJsonMapper mapper = McpJsonDefaults.getMapper();
    private final McpRouting routing;
    private final JsonMapper json;
    private final String instanceId;
    private volatile McpStatelessServerHandler handler;

    public McpHttpTransport(McpRouting routing, JsonMapper json, MemoryConfig config) {
        this.routing = routing;
        this.json = json;
        this.instanceId = config.instanceName();
    }

    @Override
    public void setMcpHandler(McpStatelessServerHandler handler) {
        this.handler = handler;
    }

    @Override
    public Mono<Void> closeGracefully() {
        return Mono.empty();
    }

    @Post(consumes = MediaType.APPLICATION_JSON, produces = MediaType.APPLICATION_JSON)
    public HttpResponse<?> post(
            HttpRequest<?> http, @RequestAttribute(Principal.ATTRIBUTE) Principal caller, @Nullable @Body String body)
            throws IOException, InterruptedException {
        JsonRpcGate.Verdict verdict = JsonRpcGate.check(mapper, body == null ? "" : body);
        if (verdict instanceof JsonRpcGate.Refused refused) {
            return HttpResponse.badRequest(mapper.writeValueAsString(refused.error()))
                    .contentType(MediaType.APPLICATION_JSON_TYPE);
        }
        McpSchema.JSONRPCMessage message = ((JsonRpcGate.Accepted) verdict).message();
        McpTransportContext context = McpTransportContext.create(Map.of(CALLER, caller));
        if (message instanceof McpSchema.JSONRPCRequest request) {
            String space =
                    McpSchema.METHOD_TOOLS_CALL.equals(request.method()) ? spaceOf(caller, request.params()) : null;
            if (space != null) {
                try {
                    Optional<HttpResponse<byte[]>> owners =
                            routing.forward(http, space, body.getBytes(StandardCharsets.UTF_8));
                    if (owners.isPresent()) {
                        return owners.get();
                    }
                } catch (ApiException e) {
                    McpSchema.CallToolResult refused = McpServerBeans.result(json, () -> {
                        throw e;
                    });
                    return HttpResponse.ok(mapper.writeValueAsString(new McpSchema.JSONRPCResponse(
                                    McpSchema.JSONRPC_VERSION, request.id(), refused, null)))
                            .contentType(MediaType.APPLICATION_JSON_TYPE);
                }
            }
            McpSchema.JSONRPCResponse response = handler.handleRequest(context, request)
                    .contextWrite(c -> c.put(McpTransportContext.KEY, context))
                    .block();
            return HttpResponse.ok(mapper.writeValueAsString(response))
                    .contentType(MediaType.APPLICATION_JSON_TYPE)
                    .header(RoutingHeaders.SERVED_BY, instanceId); // a forwarded call's answer names the owner
        }
        if (message instanceof McpSchema.JSONRPCNotification notification) {
            handler.handleNotification(context, notification)
                    .contextWrite(c -> c.put(McpTransportContext.KEY, context))
                    .block();
            return HttpResponse.accepted();
        }
        return HttpResponse.accepted(); // a response from the client: nothing asked it anything
    }

    /** The space of a {@code tools/call} (its arguments' {@code space}, else the caller's one space), or null. */
    @SuppressWarnings("unchecked")
    private static String spaceOf(Principal caller, Object params) {
        if (!(params instanceof Map<?, ?> map)
                || !(map.get("arguments") == null || map.get("arguments") instanceof Map)) {
            return null;
        }
        return MemoryTools.spaceOf(caller, (Map<String, Object>) map.get("arguments"));
    }

    @Get
    public HttpResponse<?> stream() {
        return HttpResponse.status(HttpStatus.METHOD_NOT_ALLOWED);
    }

    @Delete
    public HttpResponse<?> endSession() {
        return HttpResponse.status(HttpStatus.METHOD_NOT_ALLOWED);
    }
}
