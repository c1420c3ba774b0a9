package io.memorychain.api.mcp;

import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.spec.McpSchema;
import java.io.IOException;
import java.util.List;
import java.util.Map;

/**
 * What both MCP transports (HTTP and stdio) let through to the MCP server: one well-formed JSON-RPC 2.0 message.
 * Anything else is answered here with a JSON-RPC error (the SDK would otherwise fail inside with an internal error, or,
 * on stdio, end the session): text that is not JSON is -32700 Parse error; a batch (MCP 2025-06-18 has none), a value
 * that is not an object, a {@code jsonrpc} other than "2.0", an id that is not a string or number, a method that is not
 * a string are -32600 Invalid Request; params that are not an object, or a {@code tools/call} without a tool name or
 * with arguments that are not an object, are -32602 Invalid params.
 */
final class JsonRpcGate {

    public static final int PARSE_ERROR = McpSchema.ErrorCodes.PARSE_ERROR;
    public static final int INVALID_REQUEST = McpSchema.ErrorCodes.INVALID_REQUEST;
    public static final int INVALID_PARAMS = McpSchema.ErrorCodes.INVALID_PARAMS;

    /** A qualified exception class name and its colon, as Throwable.toString() writes them. */
    private static final java.util.regex.Pattern EXCEPTION_PREFIX = java.util.regex.Pattern.compile(
            "(?:[a-z][a-z0-9_]{0,40}\\.){1,12}[A-Z][A-Za-z0-9_$]{0,80}(?:Exception|Error): ");

    /** The gate's verdict on one message. */
    public sealed interface Verdict permits Accepted, Refused {}

    /** A message for the MCP server. */
    public record Accepted(McpSchema.JSONRPCMessage message) implements Verdict {}

    /** The JSON-RPC error response to answer instead (a map: its id may be null, which the SDK's records refuse). */
    public record Refused(Map<String, Object> error) implements Verdict {}

    private JsonRpcGate() {}

    public static Verdict check(McpJsonMapper mapper, String text) {
        Object tree;
        try {
            tree = mapper.readValue(text, Object.class);
        } catch (IOException | RuntimeException e) {
            return refuse(null, PARSE_ERROR, "Parse error: not JSON (" + firstLine(e.getMessage()) + ")");
        }
        if (tree instanceof List<?>) {
            return refuse(
                    null, INVALID_REQUEST, "Invalid Request: batches are not supported; send one message at a time");
        }
        if (!(tree instanceof Map<?, ?> message)) {
            return refuse(null, INVALID_REQUEST, "Invalid Request: a JSON-RPC message is a JSON object");
        }
        Object id = message.get("id");
        boolean validId = id instanceof String || id instanceof Number;
        Object echo = validId ? id : null;
        if (message.containsKey("id") && !validId) {
            return refuse(null, INVALID_REQUEST, "Invalid Request: id must be a string or a number");
        }
        if (!"2.0".equals(message.get("jsonrpc"))) {
            return refuse(echo, INVALID_REQUEST, "Invalid Request: jsonrpc must be \"2.0\"");
        }
        if (message.containsKey("method")) {
            if (!(message.get("method") instanceof String method) || method.isEmpty()) {
                return refuse(echo, INVALID_REQUEST, "Invalid Request: method must be a non-empty string");
            }
            Object params = message.get("params");
            if (params != null && !(params instanceof Map<?, ?>)) {
                return refuse(echo, INVALID_PARAMS, "Invalid params: params must be an object");
            }
            if (McpSchema.METHOD_TOOLS_CALL.equals(method) && validId) {
                Map<?, ?> p = params == null ? Map.of() : (Map<?, ?>) params;
                if (!(p.get("name") instanceof String name) || name.isEmpty()) {
                    return refuse(echo, INVALID_PARAMS, "Invalid params: tools/call needs params.name, a tool's name");
                }
                if (p.get("arguments") != null && !(p.get("arguments") instanceof Map<?, ?>)) {
                    return refuse(echo, INVALID_PARAMS, "Invalid params: tools/call arguments must be an object");
                }
            }
        } else if (!validId || !(message.containsKey("result") || message.containsKey("error"))) {
            return refuse(echo, INVALID_REQUEST, "Invalid Request: neither a request, a notification nor a response");
        }
        try {
            return new Accepted(McpSchema.deserializeJsonRpcMessage(mapper, text));
        } catch (IOException | RuntimeException e) {
            return refuse(echo, INVALID_REQUEST, "Invalid Request: " + firstLine(e.getMessage()));
        }
    }

    /** A JSON-RPC error response; {@code id} null when the request's id could not be read. */
    public static Map<String, Object> error(Object id, int code, String message) {
        Map<String, Object> response = new java.util.LinkedHashMap<>();
        response.put("jsonrpc", McpSchema.JSONRPC_VERSION);
        response.put("id", id);
        response.put("error", Map.of("code", code, "message", message));
        return response;
    }

    private static Refused refuse(Object id, int code, String message) {
        return new Refused(error(id, code, message));
    }

    /**
     * The first line of a parser's message, without the source excerpt Jackson appends and without the class names of
     * wrapped exceptions ({@code tools.jackson.databind.exc.InvalidFormatException: ...}), at most 200 characters.
     */
    static String firstLine(String message) {
        if (message == null) {
            return "malformed";
        }
        String line = message.lines().findFirst().orElse("malformed");
        int source = line.indexOf(" at [Source");
        line = source < 0 ? line : line.substring(0, source);
        line = EXCEPTION_PREFIX.matcher(line).replaceAll("");
        return line.length() > 200 ? line.substring(0, 200) + "..." : line;
    }
}
