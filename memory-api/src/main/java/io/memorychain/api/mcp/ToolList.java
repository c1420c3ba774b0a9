package io.memorychain.api.mcp;

import io.memorychain.api.auth.Operation;
import io.memorychain.api.auth.Role;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/** Collects a toolset's tool definitions. */
final class ToolList {

    private final List<MemoryTool> tools = new ArrayList<>();

    /**
     * A tool that runs {@code operation}: its scope decides, as over REST and gRPC, whether a key may call it (the
     * catalogue lists the tool under the operation; {@code TransportParityTest} checks both agree).
     */
    ToolList add(
            String name,
            Operation operation,
            String description,
            Schemas input,
            Set<Role> roles,
            MemoryTool.Handler handler) {
        tools.add(new MemoryTool(name, description, input.build(), operation, roles, handler));
        return this;
    }

    List<MemoryTool> build() {
        return List.copyOf(tools);
    }
}
