package io.memorychain.api.mcp;

import io.memorychain.api.auth.Operation;
import io.memorychain.api.auth.Principal;
import io.memorychain.api.auth.Role;
import io.memorychain.api.write.WriteContext;
import java.util.Map;
import java.util.Set;

/**
 * One agent tool: the single definition MCP ({@code tools/list}) and the OpenAI function list ({@code GET /v1/tools})
 * are both generated from, and what a call does.
 *
 * @param name the tool name the model calls
 * @param description written for the model: what it does and when to use it
 * @param inputSchema JSON Schema of the arguments
 * @param operation the API operation it runs: its scope decides, as over REST and gRPC, whether a role may use it
 * @param roles the roles that may call it
 * @param handler runs a call; throws {@code ApiException} with a code on refusal
 */
public record MemoryTool(
        String name,
        String description,
        Map<String, Object> inputSchema,
        Operation operation,
        Set<Role> roles,
        Handler handler) {

    /** Whether the tool's input schema declares the argument {@code name}. */
    public boolean takes(String name) {
        return inputSchema.get("properties") instanceof Map<?, ?> properties && properties.containsKey(name);
    }

    /**
     * A call: who calls, in which space, with which arguments (without {@code space}, {@code idempotency_key} and
     * {@code expected_version}, which every write tool takes: they make its {@link WriteContext}, as REST's path,
     * {@code Idempotency-Key} and {@code If-Match} do).
     *
     * @param idempotencyKey the caller's key for safe retries, or null (a fresh request id)
     * @param expectedVersion the version the change expects, or null (any version)
     */
    public record Call(
            Principal caller,
            String space,
            Map<String, Object> arguments,
            String idempotencyKey,
            Integer expectedVersion) {

        /** The write this call makes. */
        public WriteContext write() {
            return WriteContext.of(space, caller.actor(), idempotencyKey, expectedVersion, null);
        }

        /**
         * The {@code n}th write of a call that writes several things (its idempotency key suffixed with #n; no expected
         * version, which names the version of one thing).
         */
        public WriteContext write(int n) {
            return WriteContext.of(
                    space, caller.actor(), idempotencyKey == null ? null : idempotencyKey + "#" + n, null, null);
        }
    }

    @FunctionalInterface
    public interface Handler {
        Object handle(Call call);
    }
}
