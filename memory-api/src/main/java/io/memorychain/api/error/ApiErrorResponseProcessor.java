package io.memorychain.api.error;

import io.micronaut.context.annotation.Replaces;
import io.micronaut.http.HttpStatus;
import io.micronaut.http.MediaType;
import io.micronaut.http.MutableHttpResponse;
import io.micronaut.http.server.exceptions.response.Error;
import io.micronaut.http.server.exceptions.response.ErrorContext;
import io.micronaut.http.server.exceptions.response.ErrorResponseProcessor;
import jakarta.inject.Singleton;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Gives every error the framework produces (unknown route, 405, malformed JSON, conversion errors, missing arguments,
 * constraint violations, oversized bodies, unexpected exceptions) the same {@code {code, message}} body as ours,
 * always as JSON, and never with a stack trace.
 */
@Singleton
@Replaces(ErrorResponseProcessor.class)
public class ApiErrorResponseProcessor implements ErrorResponseProcessor<ApiError> {

    private static final Logger log = LoggerFactory.getLogger(ApiErrorResponseProcessor.class);

    @Override
    public MutableHttpResponse<ApiError> processResponse(ErrorContext context, MutableHttpResponse<?> response) {
        HttpStatus status = response.getStatus();
        String code = ErrorCodes.codeOf(status);
        String message;
        if (status.getCode() >= 500) {
            context.getRootCause().ifPresent(e -> log.error("Unexpected error on {} {}: {}", context.getRequest().getMethod(),
                    context.getRequest().getPath(), e.toString(), e));
            message = status == HttpStatus.INTERNAL_SERVER_ERROR ? "Internal error; see the server log" : reason(status);
        } else if (context.hasErrors()) {
            message = context.getErrors().stream().map(ApiErrorResponseProcessor::describe).collect(Collectors.joining("; "));
        } else {
            message = reason(status);
        }
        if (status == HttpStatus.NOT_FOUND) { // our own NOT_FOUNDs are ApiExceptions: this is a route (or file) miss
            message = "No such resource: " + context.getRequest().getMethod() + " " + context.getRequest().getPath();
        }
        return response.contentType(MediaType.APPLICATION_JSON_TYPE).body(ApiError.of(code, message));
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
