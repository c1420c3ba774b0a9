package io.memorychain.api.timing;

import io.micronaut.core.order.Ordered;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.MutableHttpResponse;
import io.micronaut.http.annotation.RequestFilter;
import io.micronaut.http.annotation.ResponseFilter;
import io.micronaut.http.annotation.ServerFilter;

/**
 * Answers every {@code /v1} call with a {@code Server-Timing} header: the stages its handlers recorded in
 * {@link ServerTiming} (a write's {@code check}, {@code sequence}, {@code commit}, {@code apply} and {@code read}; a
 * query's {@code embed}, {@code search}, {@code rank}, ...) and {@code total}, the time from this filter to the
 * response. Runs first, so {@code total} includes authentication and routing.
 */
@ServerFilter("/v1/**")
class ServerTimingFilter implements Ordered {

    private static final String STARTED = "memorychain.server-timing.started";

    @RequestFilter
    public void start(HttpRequest<?> request) {
        request.setAttribute(ServerTiming.ATTRIBUTE, ServerTiming.start());
        request.setAttribute(STARTED, System.nanoTime());
    }

    @ResponseFilter
    public void answer(HttpRequest<?> request, MutableHttpResponse<?> response) {
        ServerTiming.of(request).ifPresent(timing -> {
            long started = request.getAttribute(STARTED, Long.class).orElse(System.nanoTime());
            response.header("Server-Timing", timing.header(System.nanoTime() - started));
        });
    }

    @Override
    public int getOrder() {
        return HIGHEST_PRECEDENCE;
    }
}
