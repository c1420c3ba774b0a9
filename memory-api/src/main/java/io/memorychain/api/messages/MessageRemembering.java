package io.memorychain.api.messages;

import io.memorychain.api.backend.ChainReads;
import io.memorychain.api.categories.CategoryReads;
import io.memorychain.api.memories.MemoryJson;
import io.memorychain.avro.Memory;
import io.memorychain.avro.MemoryKind;
import io.memorychain.domain.messages.WritingConstraints;
import io.memorychain.domain.messages.WritingConstraints.Style;
import io.memorychain.domain.messages.WritingConstraints.Verdict;
import io.memorychain.llm.ChatModel;
import io.memorychain.projector.search.EntityNameKeys;
import io.memorychain.projector.view.ListQuery;
import io.memorychain.projector.view.Page;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The remember step of a message: the router's reading stored as memories, entities and links (seed 001 §8.2). */
final class MessageRemembering {

    private static final Logger log = LoggerFactory.getLogger(MessageRemembering.class);

    private final MessageWrites writes;
    private final ChainReads backend;
    private final CategoryReads categories;
    private final MessageMetrics metrics;

    MessageRemembering(MessageWrites writes, ChainReads backend, CategoryReads categories, MessageMetrics metrics) {
        this.writes = writes;
        this.backend = backend;
        this.categories = categories;
        this.metrics = metrics;
    }

    /**
     * The router's reading of a remember message stored: its summary (or, without a model or when the call fails, the
     * user's words) as a memory, its entities as ENTITY memories linked from it, its relations as links.
     */
    Messages.Remembered route(Messages.Call call, String text, ChatModel model) {
        MessageRouter.Result result;
        try {
            result = MessageRouter.route(model, call.space(), text);
        } catch (IllegalArgumentException e) {
            result = new MessageRouter.Skipped("invalid model settings: " + e.getMessage());
        }
        if (result instanceof MessageRouter.Skipped skipped) {
            log.info("messages: remember without routing in space={}: {}", call.space(), skipped.reason());
            MemoryJson memory = writes.create(
                    call,
                    "m",
                    WritingConstraints.normalise(text),
                    MemoryKind.SEMANTIC,
                    null,
                    null,
                    List.of(),
                    "high",
                    null);
            return new Messages.Remembered(
                    MessageJson.Routing.skipped(skipped.reason()), List.of(memory), List.of(), false);
        }
        MessageRouter.Routing routing = (MessageRouter.Routing) result;
        String store = routing.store();
        Style style = switch (store) {
            case "episodic" -> Style.EPISODIC;
            case "procedural" -> Style.PROCEDURAL;
            default -> Style.SEMANTIC;
        };
        Verdict verdict = WritingConstraints.check(style, routing.summary());
        metrics.validated(verdict.outcome());
        String content = verdict.accepted() ? verdict.text() : WritingConstraints.normalise(text);
        MemoryKind kind = switch (store) {
            case "episodic" -> MemoryKind.EPISODIC;
            case "procedural" -> MemoryKind.PROCEDURAL;
            default -> MemoryKind.SEMANTIC;
        };
        boolean core = store.equals("core") || routing.coreUpdate();
        MemoryJson memory = writes.create(
                call,
                "m",
                content,
                kind,
                core ? "core" : null,
                null,
                routing.tags(),
                routing.confidence(),
                store.equals("vault") ? Boolean.TRUE : null);
        List<MemoryJson> stored = new ArrayList<>(List.of(memory));
        Map<String, String> entityIds = new LinkedHashMap<>();
        List<MessageJson.Entity> entities = new ArrayList<>();
        List<Memory> known = entities(call);
        for (int i = 0; i < routing.entities().size(); i++) {
            MessageRouter.Entity e = routing.entities().get(i);
            Memory existing = known.stream()
                    .filter(m -> EntityNameKeys.name(m).equalsIgnoreCase(e.name()))
                    .findFirst()
                    .orElse(null);
            String id;
            if (existing != null) {
                id = existing.getId();
            } else {
                MemoryJson created = writes.create(
                        call,
                        "e" + i,
                        e.name() + " (" + e.type() + ")",
                        MemoryKind.ENTITY,
                        null,
                        null,
                        List.of(e.type()),
                        routing.confidence(),
                        null);
                stored.add(created);
                id = created.id();
            }
            entityIds.put(Messages.key(e.name()), id);
            entities.add(new MessageJson.Entity(e.name(), e.type(), id, existing != null));
            writes.link(call, "l" + i, memory.id(), id, "mentions");
        }
        List<MessageJson.Relation> relationsUsed = new ArrayList<>();
        for (int i = 0; i < routing.relations().size(); i++) {
            MessageRouter.Relation rel = routing.relations().get(i);
            String from = entityIds.get(Messages.key(rel.from()));
            String to = entityIds.get(Messages.key(rel.to()));
            String type = Messages.relationType(rel.relation());
            String skipped = from == null
                    ? "no entity named " + rel.from()
                    : to == null
                            ? "no entity named " + rel.to()
                            : from.equals(to)
                                    ? "a relation of an entity to itself"
                                    : writes.link(call, "r" + i, from, to, type);
            relationsUsed.add(new MessageJson.Relation(rel.from(), type, rel.to(), skipped));
        }
        MessageJson.Routing json = new MessageJson.Routing(
                store,
                entities,
                relationsUsed,
                routing.tags(),
                routing.confidence(),
                routing.coreUpdate(),
                routing.summary(),
                verdict.accepted() ? null : String.join("; ", verdict.reasons()) + ": the user's words were stored",
                routing.model(),
                null);
        return new Messages.Remembered(json, stored, List.of(verdict), routing.multipleFacts());
    }

    /** The space's active entity memories the caller may read (for reuse by name). */
    private List<Memory> entities(Messages.Call call) {
        List<Memory> all = new ArrayList<>();
        String after = null;
        do {
            Page<Memory> page = backend.views()
                    .list(
                            call.space(),
                            new ListQuery(
                                    MemoryKind.ENTITY,
                                    null,
                                    null,
                                    after,
                                    ListQuery.MAX_LIMIT,
                                    categories.listable(call.caller())));
            all.addAll(page.items());
            after = page.next();
        } while (after != null && all.size() < 10 * ListQuery.MAX_LIMIT);
        return all;
    }
}
