package io.memorychain.api.export;

import io.memorychain.api.backend.ChainReads;
import io.memorychain.api.blocks.BlockBody;
import io.memorychain.api.blocks.Blocks;
import io.memorychain.api.error.ApiException;
import io.memorychain.api.grants.GrantedReads;
import io.memorychain.api.memories.CreateMemoryBody;
import io.memorychain.api.memories.Memories;
import io.memorychain.api.memories.MemoryJson;
import io.memorychain.api.relations.LinkBody;
import io.memorychain.api.relations.Relations;
import io.memorychain.api.request.InputRules;
import io.memorychain.api.request.Spaces;
import io.memorychain.api.write.WriteContext;
import io.memorychain.avro.Actor;
import io.memorychain.avro.Memory;
import io.memorychain.avro.MemoryKind;
import io.memorychain.avro.view.Relation;
import io.memorychain.projector.view.Page;
import jakarta.inject.Singleton;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Export of a space (or of one user's memories) as JSON or Markdown, and import of such an export (docs/architecture.md
 * §13). The export reads the views as the caller may read them (category allowlists apply); the import goes through the
 * normal write path, one request per memory, block and edge, with request ids derived from the exported space and ids
 * ({@code import:<space>:<id>}), so a retried import does not write twice.
 */
@Singleton
public class SpaceTransfer {

    private static final int PAGE = 500;

    private final ChainReads backend;
    private final Memories memories;
    private final Blocks blocks;
    private final Relations relations;
    private final Clock clock;
    private final GrantedReads granted;

    public SpaceTransfer(
            ChainReads backend, Memories memories, Blocks blocks, Relations relations, GrantedReads granted) {
        this.granted = granted;
        this.backend = backend;
        this.memories = memories;
        this.blocks = blocks;
        this.relations = relations;
        this.clock = Clock.systemUTC();
    }

    /** An export as every transport answers it: the JSON document, or the same as Markdown. */
    public record Exported(SpaceExport export, String markdown) {}

    /**
     * The export use case of every transport: the content read (recorded on the chain when it is an admin's read under
     * a grant), then the format asked for.
     *
     * @param format json (null: json) or markdown; else 400 INVALID_ARGUMENT
     */
    public Exported exportRead(String space, Actor reader, String userId, String format) {
        SpaceExport export = granted.read(
                space,
                reader,
                "export",
                GrantedReads.detail("user_id", userId, "format", format),
                () -> export(space, reader, userId),
                e -> java.util.stream.Stream.concat(e.memories().stream(), e.blocks().stream())
                        .map(MemoryJson::id)
                        .toList());
        return InputRules.markdown(format) ? new Exported(null, ExportMarkdown.of(export)) : new Exported(export, null);
    }

    /** The active memories of the space readable by {@code reader}, or only those of {@code userId}. */
    public SpaceExport export(String space, Actor reader, String userId) {
        String s = Spaces.require(space);
        long head = backend.views().appliedSeq(s);
        List<MemoryJson> exported = new ArrayList<>();
        List<MemoryJson> blockList = new ArrayList<>();
        Set<String> ids = new HashSet<>();
        String after = null;
        do {
            Page<Memory> page = memories.list(s, reader, null, null, null, after, PAGE);
            for (Memory m : page.items()) {
                if (m.getKind() == MemoryKind.BLOCK) {
                    if (userId == null) {
                        blockList.add(MemoryJson.of(m));
                    }
                } else if (userId == null || userId.equals(m.getUserId())) {
                    exported.add(MemoryJson.of(m));
                    ids.add(m.getId());
                }
            }
            after = page.next();
        } while (after != null);
        List<SpaceExport.Edge> edges = new ArrayList<>();
        for (MemoryJson m : exported) {
            for (Relation r : backend.views().relations(s, m.id())) {
                if (r.getFromId().equals(m.id()) && ids.contains(r.getToId())) {
                    edges.add(new SpaceExport.Edge(r.getFromId(), r.getToId(), r.getRelationType(), r.getStrength()));
                }
            }
        }
        return new SpaceExport(
                SpaceExport.FORMAT, s, clock.instant().toString(), head, userId, exported, blockList, edges);
    }

    /**
     * Writes the export's memories (original {@code created_at} kept), blocks and edges into {@code space} as
     * {@code actor}, in the export's order.
     *
     * @throws ApiException 400 INVALID_ARGUMENT for a document of another format or an edge naming a memory it does not
     *     contain; the write path's own rejections otherwise (the writes before stay)
     */
    public ImportResult importInto(String space, Actor actor, SpaceExport export) {
        String s = Spaces.require(space);
        check(export);
        String source = Objects.requireNonNullElse(export.space(), "unknown");
        List<MemoryJson> toCreate = export.memories() == null ? List.of() : export.memories();
        List<SpaceExport.Edge> edges = export.relations() == null ? List.of() : export.relations();
        Map<String, String> idMap = new LinkedHashMap<>();
        for (MemoryJson m : toCreate) {
            Memory created =
                    memories.create(context(s, actor, source, m.id()), body(m)).memory();
            idMap.put(m.id(), created.getId());
        }
        int blockCount = 0;
        for (MemoryJson b : export.blocks() == null ? List.<MemoryJson>of() : export.blocks()) {
            blocks.put(
                    context(s, actor, source, b.id()),
                    b.blockLabel(),
                    new BlockBody(b.content(), "core".equals(b.tier()), null));
            blockCount++;
        }
        for (SpaceExport.Edge e : edges) {
            relations.link(
                    context(s, actor, source, e.from() + "->" + e.to() + ":" + e.type()),
                    idMap.get(e.from()),
                    new LinkBody(idMap.get(e.to()), e.type(), e.strength()));
        }
        return new ImportResult(
                idMap.size(), blockCount, edges.size(), idMap, backend.views().appliedSeq(s));
    }

    /**
     * Checks an export document before anything of it is written: its format, and that every relation names memories it
     * contains.
     *
     * @throws ApiException 400 INVALID_ARGUMENT naming the first problem
     */
    public static void check(SpaceExport export) {
        if (export == null || !SpaceExport.FORMAT.equals(export.format())) {
            throw ApiException.invalid("the body must be an export with format " + SpaceExport.FORMAT);
        }
        List<MemoryJson> toCreate = export.memories() == null ? List.of() : export.memories();
        List<SpaceExport.Edge> edges = export.relations() == null ? List.of() : export.relations();
        if (toCreate.stream().anyMatch(Objects::isNull) || edges.stream().anyMatch(Objects::isNull)) {
            throw ApiException.invalid("memories and relations of an export are objects, never null");
        }
        Set<String> known = new HashSet<>();
        toCreate.forEach(m -> known.add(m.id()));
        for (SpaceExport.Edge e : edges) {
            if (!known.contains(e.from()) || !known.contains(e.to())) {
                throw ApiException.invalid(
                        "relation " + e.from() + " -> " + e.to() + " names a memory the export does not contain");
            }
        }
    }

    /** The creation body of an exported memory (its original {@code created_at} kept). */
    public static CreateMemoryBody body(MemoryJson m) {
        return new CreateMemoryBody(
                m.content(),
                m.kind(),
                m.tier(),
                m.category(),
                m.summary(),
                m.tags(),
                m.importance(),
                m.confidence(),
                m.source(),
                m.userId(),
                m.agentId(),
                m.runId(),
                m.actorId(),
                m.threadId(),
                m.role(),
                m.createdAt(),
                m.pinned());
    }

    private static WriteContext context(String space, Actor actor, String source, String key) {
        return new WriteContext(space, actor, "import:" + source + ":" + key, null, null);
    }
}
