package io.memorychain.api.error;

import io.micronaut.context.annotation.Replaces;
import io.micronaut.http.HttpStatus;
import io.micronaut.http.MediaType;
import io.micronaut.http.MutableHttpResponse;
import io.micronaut.http.server.exceptions.response.Error;
import io.micronaut.http.server.exceptions.response.ErrorContext;
import io.micronaut.http.server.exceptions.response.ErrorResponseProcessor;
import io.micronaut.json.JsonMapper;
import jakarta.inject.Singleton;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Gives every error the framework produces (unknown route, 405, malformed JSON, conversion errors, missing arguments,
 * constraint violations, oversized bodies, unexpected exceptions) the same {@code {code, message}} body as ours, always
 * as JSON, and never with a stack trace. On the MCP endpoint ({@value #MCP_PATH}) the same refusal is a JSON-RPC error
 * response without an id (what a JSON-RPC client can read), the code in its {@code data}: -32600 Invalid Request for a
 * 4xx (a body over the size limit), -32603 Internal error for a 5xx.
 */
@Singleton
@Replaces(ErrorResponseProcessor.class)
class ApiErrorResponseProcessor implements ErrorResponseProcessor<Object> {

    private static final Logger log = LoggerFactory.getLogger(ApiErrorResponseProcessor.class);
    static final String MCP_PATH = "/mcp";

    private final JsonMapper json;

    public ApiErrorResponseProcessor(JsonMapper json) {
        this.json = json;
    }

    @Override
    public MutableHttpResponse<Object> processResponse(ErrorContext context, MutableHttpResponse<?> response) {
        HttpStatus status = response.getStatus();
        String code = ErrorCodes.codeOf(status);
        String message;
        if (status.getCode() >= 500) {
            context.getRootCause()
                    .ifPresent(e -> log.error(
                            "Unexpected error on {} {}: {}",
                            context.getRequest().getMethod(),
                            context.getRequest().getPath(),
                            e.toString(),
                            e));
            message =
                    status == HttpStatus.INTERNAL_SERVER_ERROR ? "Internal error; see the server log" : reason(status);
        } else if (context.hasErrors()) {
            message = context.getErrors().stream()
                    .map(ApiErrorResponseProcessor::describe)
                    .collect(Collectors.joining("; "));
        } else {
            message = reason(status);
        }
        if (status == HttpStatus.NOT_FOUND) { // our own NOT_FOUNDs are ApiExceptions: this is a route (or file) miss
            message = "No such resource: " + context.getRequest().getMethod() + " "
                    + context.getRequest().getPath();
        }
        ApiError error = ApiError.of(code, message);
        Object body = MCP_PATH.equals(context.getRequest().getPath()) ? jsonRpc(status, error) : error;
        return response.contentType(MediaType.APPLICATION_JSON_TYPE).body(body);
    }

    /** The refusal as a JSON-RPC error response (its id null: the request was not read). */
    private String jsonRpc(HttpStatus status, ApiError error) {
        Map<String, Object> rpcError = new LinkedHashMap<>();
        rpcError.put("code", status.getCode() >= 500 ? -32603 : -32600);
        rpcError.put("message", (status.getCode() >= 500 ? "Internal error: " : "Invalid Request: ") + error.message());
        rpcError.put("data", Map.of("code", error.code()));
        try {
            return "{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":" + json.writeValueAsString(rpcError) + "}";
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String describe(Error error) {
        return error.getPath().map(p -> p + ": ").orElse("") + sanitize(error.getMessage());
    }

    /** Framework messages can quote internal types (io.micronaut..., com.fasterxml...); keep the first line only. */
    static String sanitize(String message) {
        if (message == null) {
            return "";
        }
        int nl = message.indexOf('\n');
        String first = nl < 0 ? message : message.substring(0, nl);
        return first.length() > 500 ? first.substring(0, 500) + "..." : first;
    }

    private static String reason(HttpStatus status) {
        return status.getReason();
    }
}
