package io.memorychain.api.mcp;

import io.memorychain.api.auth.Role;
import java.util.List;
import java.util.Set;

/**
 * One feature's agent tools (memories, blocks and core, the Markdown files, the chain and audit, governance,
 * refinement, proposals and reflections), as REST has one controller and gRPC one class per feature.
 * {@link MemoryTools} lists them in {@link #order}.
 */
interface Toolset {

    Set<Role> WRITERS = Set.of(Role.AGENT, Role.USER, Role.WORKER);
    Set<Role> READERS = Set.of(Role.AGENT, Role.SUBAGENT, Role.USER, Role.WORKER);

    /** The toolset's place in {@code tools/list} (ascending), so the list keeps a stable order. */
    int order();

    List<MemoryTool> tools();
}
