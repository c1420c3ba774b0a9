package io.memorychain.api.mcp;

import static io.memorychain.api.mcp.Schemas.withSpace;
import static io.memorychain.api.mcp.Schemas.write;
import static io.memorychain.api.mcp.ToolArgs.text;

import io.memorychain.api.auth.Operation;
import io.memorychain.api.relations.LinkBody;
import io.memorychain.api.relations.Relations;
import jakarta.inject.Singleton;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Relation edges between memories (the knowledge graph). */
@Singleton
class RelationToolset implements Toolset {

    private final Relations relations;
    private final ToolArgs args;

    RelationToolset(Relations relations, ToolArgs args) {
        this.relations = relations;
        this.args = args;
    }

    @Override
    public int order() {
        return 50;
    }

    @Override
    public List<MemoryTool> tools() {
        return new ToolList()
                .add(
                        "memory_link",
                        Operation.LINK,
                        """
                Link one memory to another with a relation: related_to (default, symmetric) or a typed one (develops, \
                uses, part-of, depends-on, prefers, avoids, ...): recall then brings related memories along.""",
                        write().string("id", "The memory the edge starts from", true)
                                .string("to", "The memory it points to", true)
                                .string("type", "The relation; default related_to", false)
                                .number("strength", "In (0, 1]; default 1.0", false),
                        WRITERS,
                        c -> {
                            Map<String, Object> a = new LinkedHashMap<>(c.arguments());
                            String id = text(a, "id");
                            a.remove("id");
                            return relations.link(c.write(), id, args.body(a, LinkBody.class));
                        })
                .add(
                        "memory_unlink",
                        Operation.UNLINK,
                        "Remove the relation edge from one memory to another.",
                        write().string("id", "The memory the edge starts from", true)
                                .string("to", "The memory it points to", true),
                        WRITERS,
                        c -> relations.unlink(c.write(), text(c.arguments(), "id"), text(c.arguments(), "to")))
                .add(
                        "memory_relations",
                        Operation.GET_RELATIONS,
                        "The relation edges of a memory, outgoing then incoming.",
                        withSpace().string("id", "The memory", true),
                        READERS,
                        c -> relations.of(c.space(), text(c.arguments(), "id")))
                .build();
    }
}
