package io.memorychain.api.mcp;

import static io.memorychain.api.mcp.Schemas.versionedWrite;
import static io.memorychain.api.mcp.Schemas.withSpace;
import static io.memorychain.api.mcp.ToolArgs.text;

import io.memorychain.api.auth.Operation;
import io.memorychain.api.blocks.BlockBody;
import io.memorychain.api.blocks.Blocks;
import io.memorychain.api.core.CoreJson;
import io.memorychain.api.core.CoreMemory;
import io.memorychain.api.memories.MemoryJson;
import io.memorychain.api.memories.WriteResponse;
import jakarta.inject.Singleton;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Core memory: the labelled blocks and what is injected at the start of a turn. */
@Singleton
class CoreToolset implements Toolset {

    private final Blocks blocks;
    private final CoreMemory core;
    private final ToolArgs args;

    CoreToolset(Blocks blocks, CoreMemory core, ToolArgs args) {
        this.blocks = blocks;
        this.core = core;
        this.args = args;
    }

    @Override
    public int order() {
        return 30;
    }

    @Override
    public List<MemoryTool> tools() {
        return new ToolList()
                .add(
                        "block_get",
                        Operation.GET_BLOCK,
                        "Read one labelled core block (persona, user_profile, goals, knowledge, critical).",
                        withSpace().string("label", "The block label", true),
                        READERS,
                        c -> MemoryJson.of(blocks.get(c.space(), text(c.arguments(), "label"))))
                .add(
                        "block_update",
                        Operation.PUT_BLOCK,
                        """
                Replace a labelled core block (persona, user_profile, goals, knowledge, critical): persistent context \
                about yourself or the user that is injected at the start of every turn. Send the whole new text.""",
                        versionedWrite()
                                .string("label", "The block label", true)
                                .string("content", "The whole new block text", true)
                                .bool("core", "Inject into context (default true)"),
                        WRITERS,
                        c -> {
                            Map<String, Object> a = new LinkedHashMap<>(c.arguments());
                            String label = text(a, "label");
                            a.remove("label");
                            return WriteResponse.of(blocks.put(c.write(), label, args.body(a, BlockBody.class)));
                        })
                .add(
                        "core_memory",
                        Operation.GET_CORE,
                        "Your core memory as injected at the start of a turn: blocks and core memories, with its token count.",
                        withSpace(),
                        READERS,
                        c -> CoreJson.of(core.read(c.space(), c.caller().actor())))
                .build();
    }
}
