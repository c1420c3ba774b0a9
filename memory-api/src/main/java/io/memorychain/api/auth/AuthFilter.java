package io.memorychain.api.auth;

import io.memorychain.api.error.ApiError;
import io.memorychain.api.error.ApiException;
import io.memorychain.api.error.ErrorCodes;
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
 * definitions). The filter authenticates the key, checks the caller's role and spaces against the path, and stores
 * the {@link Principal} and its actor as request attributes for the controllers.
 */
@ServerFilter({"/v1/**", "/mcp", "/mcp/**"})
public class AuthFilter {

    private static final Pattern SPACE_PATH = Pattern.compile("^/v1/spaces/([^/]+)(/.*)?$");
    /** What an admin may call: governance, never content (DESIGN.md section 10). */
    private static final Pattern ADMIN_PATHS = Pattern.compile(
            "^/v1/keys(/.*)?$|^/v1/me$"
            + "|^/v1/spaces/[^/]+/chain/.*$"
            + "|^/v1/spaces/[^/]+/memories/[^/]+:(protect|unprotect)$"
            + "|^/v1/spaces/[^/]+/refinements?(/.*)?$"
            + "|^/v1/spaces/[^/]+/proposals(/.*)?$");
    private static final Pattern KEY_PATHS = Pattern.compile("^/v1/keys(/.*)?$");
    private static final String PUBLIC_TOOLS = "/v1/tools";

    private final ApiKeys keys;

    public AuthFilter(ApiKeys keys) {
        this.keys = keys;
    }

    @RequestFilter
    @ExecuteOn(TaskExecutors.BLOCKING)
    @Nullable
    public HttpResponse<?> authenticate(HttpRequest<?> request) {
        String path = request.getPath();
        if (request.getMethod() == HttpMethod.GET && path.equals(PUBLIC_TOOLS)) {
            return null;
        }
        Principal caller;
        try {
            caller = keys.authenticate(request.getHeaders().get(HttpHeaders.AUTHORIZATION));
            authorize(caller, path);
        } catch (ApiException e) {
            return error(e);
        } catch (KeyStoreUnavailableException e) {
            return error(new ApiException(ErrorCodes.UNAVAILABLE, "cannot check API keys now: " + e.getMessage()));
        }
        request.setAttribute(Principal.ATTRIBUTE, caller);
        request.setAttribute(Principal.ACTOR, caller.actor());
        return null;
    }

    /** Role and space rules that depend on the path alone; operations check the rest (e.g. sub-agents cannot write). */
    static void authorize(Principal caller, String path) {
        if (caller.role() == Role.ADMIN && !ADMIN_PATHS.matcher(path).matches()) {
            throw new ApiException(ErrorCodes.ROLE_NOT_ALLOWED, "admin keys govern (keys, chain verification, "
                    + "protection, refinement, proposals) and read no memory content: " + path + " needs an agent key");
        }
        if (caller.role() != Role.ADMIN && KEY_PATHS.matcher(path).matches()) {
            throw new ApiException(ErrorCodes.ROLE_NOT_ALLOWED, "only admin keys manage API keys");
        }
        Matcher space = SPACE_PATH.matcher(path);
        if (space.matches() && !caller.mayUse(space.group(1))) {
            throw new ApiException(ErrorCodes.SPACE_NOT_ALLOWED, "the key of " + caller.id() + " does not cover space '"
                    + space.group(1) + "' (it covers " + String.join(", ", caller.spaces()) + ")");
        }
    }

    private static MutableHttpResponse<ApiError> error(ApiException e) {
        MutableHttpResponse<ApiError> response = HttpResponse.<ApiError>status(e.status()).body(e.toError());
        if (ErrorCodes.UNAUTHENTICATED.equals(e.code())) {
            response.header(HttpHeaders.WWW_AUTHENTICATE, "Bearer realm=\"memory-chain\"");
        }
        return response;
    }
}
