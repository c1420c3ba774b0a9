package io.memorychain.api.auth;

import io.memorychain.api.error.ApiError;
import io.memorychain.api.error.ApiException;
import io.memorychain.api.error.ErrorCodes;
import io.memorychain.api.quota.QuotaExceededException;
import io.memorychain.api.quota.Quotas;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.http.HttpHeaders;
import io.micronaut.http.HttpMethod;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.MutableHttpResponse;
import io.micronaut.http.annotation.RequestFilter;
import io.micronaut.http.annotation.ServerFilter;
import io.micronaut.scheduling.TaskExecutors;
import io.micronaut.scheduling.annotation.ExecuteOn;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Every call under {@code /v1} and {@code /mcp} carries {@code Authorization: Bearer <key>} (except the public tool
 * definitions and the chain's public keys). The filter authenticates the key, checks the caller's role and spaces
 * against the route's {@link Operation}, and stores the {@link Principal} and its actor as request attributes for the
 * controllers. The metrics scrape ({@code /prometheus}) names spaces and their activity: it takes an admin or worker
 * key. What is served without a key on purpose is listed in docs/architecture.md §13 ("Served without a key").
 */
@ServerFilter({"/v1/**", "/mcp", "/mcp/**", AuthFilter.METRICS})
public class AuthFilter {

    private static final Pattern SPACE_PATH = Pattern.compile("^/v1/spaces/([^/]+)(/.*)?$");
    /** Served without a key: the tool definitions and the chain's public keys. */
    private static final java.util.Set<String> PUBLIC = java.util.Set.of("/v1/tools", "/v1/chain/keys");

    /** The Prometheus scrape: admin and worker keys only. */
    static final String METRICS = "/prometheus";

    private final ApiKeys keys;
    private final Quotas quotas;

    public AuthFilter(ApiKeys keys, Quotas quotas) {
        this.keys = keys;
        this.quotas = quotas;
    }

    @RequestFilter
    @ExecuteOn(TaskExecutors.BLOCKING)
    @Nullable
    public HttpResponse<?> authenticate(HttpRequest<?> request) {
        if (request.getAttribute(Principal.ATTRIBUTE).isPresent()) {
            return null; // already authenticated for this request (the space routing does it before forwarding)
        }
        String path = request.getPath();
        if (request.getMethod() == HttpMethod.GET && PUBLIC.contains(path)) {
            return null;
        }
        Principal caller;
        try {
            caller = keys.authenticate(request.getHeaders().get(HttpHeaders.AUTHORIZATION));
            Operation operation =
                    Operation.ofRest(request.getMethodName(), path).orElse(null);
            if (METRICS.equals(path)) {
                authorizeScrape(caller);
            } else {
                authorize(caller, operation, path);
            }
            quotas.charge(caller, operation);
        } catch (ApiException e) {
            return error(e);
        } catch (KeyStoreUnavailableException e) {
            return error(new ApiException(ErrorCodes.UNAVAILABLE, "cannot check API keys now: " + e.getMessage()));
        }
        request.setAttribute(Principal.ATTRIBUTE, caller);
        request.setAttribute(Principal.ACTOR, caller.actor());
        return null;
    }

    /** Role and space rules that depend on the path alone ({@link AccessRules}); operations check the rest. */
    private static void authorize(Principal caller, Operation operation, String path) {
        Matcher space = SPACE_PATH.matcher(path);
        AccessRules.Scope scope = operation == null ? AccessRules.Scope.CONTENT : operation.scope(); // unknown: content
        AccessRules.authorize(caller, scope, space.matches() ? space.group(1) : null, path);
    }

    private static void authorizeScrape(Principal caller) {
        if (caller.role() != Role.ADMIN && caller.role() != Role.WORKER) {
            throw new ApiException(ErrorCodes.ROLE_NOT_ALLOWED, "the metrics scrape takes an admin or worker key");
        }
    }

    private static MutableHttpResponse<ApiError> error(ApiException e) {
        MutableHttpResponse<ApiError> response =
                HttpResponse.<ApiError>status(e.status()).body(e.toError());
        if (e instanceof QuotaExceededException quota) {
            response.header(HttpHeaders.RETRY_AFTER, Long.toString(quota.retryAfterSeconds()));
        }
        if (ErrorCodes.UNAUTHENTICATED.equals(e.code())) {
            response.header(HttpHeaders.WWW_AUTHENTICATE, "Bearer realm=\"memory-chain\"");
        }
        return response;
    }
}
