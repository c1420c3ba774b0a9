package io.memorychain.api.error;

import io.micronaut.context.annotation.Requires;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.annotation.Produces;
import io.micronaut.http.server.exceptions.ExceptionHandler;
import jakarta.inject.Singleton;

/** Our own errors: status and body straight from the exception. */
@Produces
@Singleton
@Requires(classes = {ApiException.class, ExceptionHandler.class})
class ApiExceptionHandler implements ExceptionHandler<ApiException, HttpResponse<ApiError>> {

    @Override
    @SuppressWarnings("rawtypes") // ExceptionHandler.handle declares a raw HttpRequest
    public HttpResponse<ApiError> handle(HttpRequest request, ApiException exception) {
        return HttpResponse.<ApiError>status(exception.status()).body(exception.toError());
    }
}
