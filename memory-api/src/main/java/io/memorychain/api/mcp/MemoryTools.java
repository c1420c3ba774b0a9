package io.memorychain.api.mcp;

import static io.memorychain.api.mcp.Schemas.EXPECTED_VERSION;
import static io.memorychain.api.mcp.Schemas.IDEMPOTENCY_KEY;
import static io.memorychain.api.mcp.Schemas.SPACE;

import io.memorychain.api.auth.AccessRules;
import io.memorychain.api.auth.Operation;
import io.memorychain.api.auth.Principal;
import io.memorychain.api.error.ApiException;
import io.memorychain.api.error.ErrorCodes;
import io.memorychain.api.quota.Quotas;
import io.memorychain.api.request.Spaces;
import io.memorychain.api.routing.OwnerGuard;
import jakarta.inject.Singleton;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The agent tools (docs/architecture.md §8), gathered from the feature toolsets ({@link Toolset}): each tool calls the
 * same application service as its REST endpoint and gRPC method, with the caller's key deciding the actor, spaces and
 * role exactly as there, and checks the {@link Operation} it runs before it runs.
 */
@Singleton
public class MemoryTools {

    private final OwnerGuard owners;
    private final Quotas quotas;
    private final Map<String, MemoryTool> tools = new LinkedHashMap<>();

    MemoryTools(List<Toolset> toolsets, OwnerGuard owners, Quotas quotas) {
        this.owners = owners;
        this.quotas = quotas;
        toolsets.stream()
                .sorted(Comparator.comparingInt(Toolset::order))
                .flatMap(t -> t.tools().stream())
                .forEach(tool -> {
                    if (tools.putIfAbsent(tool.name(), tool) != null) {
                        throw new IllegalStateException("two tools named " + tool.name());
                    }
                });
    }

    /** Every tool, in a stable order. */
    public List<MemoryTool> all() {
        return List.copyOf(tools.values());
    }

    /**
     * Runs a tool as the caller.
     *
     * @throws ApiException with the same codes as REST (INVALID_ARGUMENT, SPACE_NOT_ALLOWED, ROLE_NOT_ALLOWED, ...)
     */
    public Object call(String name, Principal caller, Map<String, Object> arguments) {
        MemoryTool tool = tools.get(name);
        if (tool == null) {
            throw ApiException.notFound("no tool " + name + "; tools: " + String.join(", ", tools.keySet()));
        }
        if (!tool.roles().contains(caller.role())) {
            throw new ApiException(ErrorCodes.ROLE_NOT_ALLOWED, caller.role().wireName() + " keys cannot call " + name);
        }
        Map<String, Object> args = new LinkedHashMap<>(arguments == null ? Map.of() : arguments);
        String space = space(caller, tool.operation(), args.remove(SPACE));
        // a call of a space another instance owns was forwarded by the transport (McpRouting); what stays here is
        // served here, or refused when no instance can serve it now (docs/architecture.md §19)
        owners.requireServedHere(space);
        quotas.chargeWrite(caller, tool.operation());
        String idempotencyKey = optionalString(args.remove(IDEMPOTENCY_KEY), IDEMPOTENCY_KEY);
        Object expected = args.remove(EXPECTED_VERSION);
        if (expected != null && !(expected instanceof Integer)) {
            throw ApiException.invalid(EXPECTED_VERSION + " must be an integer");
        }
        if (expected != null && !tool.takes(EXPECTED_VERSION)) {
            throw ApiException.invalid(
                    name + " takes no " + EXPECTED_VERSION + ": it changes no single versioned thing");
        }
        return tool.handler().handle(new MemoryTool.Call(caller, space, args, idempotencyKey, (Integer) expected));
    }

    /**
     * The space a {@code tools/call} is about, as {@link #call} will take it (its {@code space} argument, else the
     * caller's one space), or null when it cannot be told (the call then fails here as it would anyway).
     *
     * @param arguments the call's arguments (null: none)
     */
    public static String spaceOf(Principal caller, Map<String, Object> arguments) {
        Object requested = arguments == null ? null : arguments.get(SPACE);
        if (requested == null) {
            return onlySpace(caller);
        }
        return requested instanceof String space && io.memorychain.domain.Rules.isValidSpace(space) ? space : null;
    }

    /** The one space a key names exactly (no wildcard), or null. */
    private static String onlySpace(Principal caller) {
        List<String> exact =
                caller.spaces().stream().filter(s -> !s.endsWith("*")).toList();
        return exact.size() == 1 && caller.spaces().size() == 1 ? exact.get(0) : null;
    }

    private static String optionalString(Object value, String name) {
        if (value != null && !(value instanceof String)) {
            throw ApiException.invalid(name + " must be a string");
        }
        return (String) value;
    }

    private static String space(Principal caller, Operation operation, Object requested) {
        if (requested != null && !(requested instanceof String)) {
            throw ApiException.invalid("space must be a string");
        }
        String space = (String) requested;
        if (space == null) {
            space = onlySpace(caller);
            if (space == null) {
                throw ApiException.invalid("space is required: your key covers " + String.join(", ", caller.spaces()));
            }
        }
        // the agent tool surface serves no admin content reads, not even under a grant (docs/architecture.md §13)
        AccessRules.Scope scope =
                operation.scope() == AccessRules.Scope.GRANTED ? AccessRules.Scope.CONTENT : operation.scope();
        AccessRules.authorize(caller, scope, space, "space " + space);
        return Spaces.require(space);
    }
}
