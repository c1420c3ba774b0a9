package io.memorychain.api.error;

import io.micronaut.context.annotation.Requires;
import io.micronaut.http.HttpHeaders;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.annotation.Produces;
import io.micronaut.http.server.exceptions.ExceptionHandler;
import jakarta.inject.Singleton;
import org.apache.kafka.streams.errors.InvalidStateStoreException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A view read that lost its store between the routing decision and the read: the space's partition moved away in a
 * rebalance, or the service is shutting down. 503 {@code REBALANCING} with {@code Retry-After} (docs/architecture.md
 * §19): the retry reaches the new owner.
 */
@Produces
@Singleton
@Requires(classes = {InvalidStateStoreException.class, ExceptionHandler.class})
class StoreUnavailableHandler implements ExceptionHandler<InvalidStateStoreException, HttpResponse<ApiError>> {

    private static final Logger log = LoggerFactory.getLogger(StoreUnavailableHandler.class);

    @Override
    @SuppressWarnings("rawtypes") // ExceptionHandler.handle declares a raw HttpRequest
    public HttpResponse<ApiError> handle(HttpRequest request, InvalidStateStoreException exception) {
        log.info(
                "{} {}: the views are not queryable now: {}",
                request.getMethodName(),
                request.getPath(),
                exception.getMessage());
        return HttpResponse.<ApiError>status(ErrorCodes.statusOf(ErrorCodes.REBALANCING))
                .header(HttpHeaders.RETRY_AFTER, "1")
                .body(ApiError.of(
                        ErrorCodes.REBALANCING,
                        "the views of this space are moving between instances: " + exception.getMessage()));
    }
}
