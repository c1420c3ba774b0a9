package io.memorychain.projector.retrieval.eval;

import io.memorychain.avro.ActorType;
import io.memorychain.avro.ConsolidateMemories;
import io.memorychain.avro.CreateMemory;
import io.memorychain.avro.MemoryOutcome;
import io.memorychain.events.Requests;
import io.memorychain.projector.ChainHarness;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The labelled set written through the real chain (sequencer, embedder and projection on TopologyTestDriver), as an
 * agent would have written it: memories in the order they were written, each at its own time, consolidations at the
 * time of their result, then the links. Keeps the mapping from the set's keys to the ids the chain assigned.
 */
public final class ChainedRetrievalSet {

    private final Map<String, String> idByKey = new HashMap<>();
    private final Map<String, String> keyById = new HashMap<>();

    public ChainedRetrievalSet(RetrievalSet set, ChainHarness h) {
        var agent = Requests.actor(ActorType.USER, "annotator");
        Map<String, Consolidation> consolidationByResult = new HashMap<>();
        set.consolidations().forEach(c -> consolidationByResult.put(c.result(), c));
        List<LabelledMemory> byTime = new ArrayList<>(set.memories());
        byTime.sort(Comparator.comparing((LabelledMemory m) -> m.writtenAt(set.referenceTime()))
                .thenComparing(LabelledMemory::key));
        for (LabelledMemory m : byTime) {
            h.now = m.writtenAt(set.referenceTime());
            Consolidation c = consolidationByResult.get(m.key());
            MemoryOutcome o = c == null
                    ? h.submit(Requests.create(m.space(), agent, create(m)))
                    : h.submit(Requests.request(
                            m.space(),
                            agent,
                            ConsolidateMemories.newBuilder()
                                    .setIds(c.inputs().stream().map(this::id).toList())
                                    .setContent(m.content())
                                    .setCategory(m.category())
                                    .setTags(m.tags())
                                    .setImportance(m.importance())
                                    .setReason(c.reason())
                                    .build()));
            if (!o.getAccepted()) {
                throw new IllegalStateException("memory " + m.key() + " rejected: " + o.getMessage());
            }
            idByKey.put(m.key(), o.getMemoryId());
            keyById.put(o.getMemoryId(), m.key());
        }
        h.now = set.referenceTime();
        for (Link link : set.links()) {
            String space = set.memoriesByKey().get(link.from()).space();
            MemoryOutcome o = h.submit(Requests.link(space, agent, id(link.from()), id(link.to()), link.type(), 1.0));
            if (!o.getAccepted()) {
                throw new IllegalStateException("link " + link + " rejected: " + o.getMessage());
            }
        }
    }

    private static CreateMemory create(LabelledMemory m) {
        return CreateMemory.newBuilder()
                .setKind(m.kind())
                .setCategory(m.category())
                .setContent(m.content())
                .setTags(m.tags())
                .setImportance(m.importance())
                .setPinned(m.pinned())
                .setUserId(m.userId())
                .setAgentId(m.agentId())
                .setRunId(m.runId())
                .setActorId(m.actorId())
                .setRole(m.role())
                .setThreadId(m.threadId())
                .build();
    }

    public String id(String key) {
        return idByKey.get(key);
    }

    public String key(String id) {
        return keyById.get(id);
    }
}
