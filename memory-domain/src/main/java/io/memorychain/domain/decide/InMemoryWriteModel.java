package io.memorychain.domain.decide;

import io.memorychain.avro.Memory;
import io.memorychain.avro.view.Grant;
import io.memorychain.avro.view.Proposal;
import io.memorychain.avro.view.RefinementSession;
import io.memorychain.avro.view.Reflection;
import io.memorychain.avro.view.SpaceGovernance;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The write model in plain maps: for given/when/then tests of the deciders and for replaying a chain (or a prefix of
 * it) outside Kafka Streams. Not thread-safe.
 */
public final class InMemoryWriteModel implements WriteModelStore {

    private final Map<String, TreeMap<String, Memory>> memories = new HashMap<>();
    private final Map<String, String> blocks = new HashMap<>();
    private final Map<String, String> relations = new HashMap<>();
    private final Map<String, Proposal> proposals = new HashMap<>();
    private final Map<String, RefinementSession> refinements = new HashMap<>();
    private final Map<String, Reflection> reflections = new HashMap<>();
    private final Map<String, Grant> grants = new HashMap<>();
    private final Map<String, SpaceGovernance> governance = new HashMap<>();

    @Override
    public Memory memory(String space, String id) {
        return memories.getOrDefault(space, new TreeMap<>()).get(id);
    }

    @Override
    public String activeBlock(String space, String label) {
        return blocks.get(key(space, label));
    }

    @Override
    public String relation(String space, String fromId, String toId) {
        return relations.get(key(space, fromId, toId));
    }

    @Override
    public Proposal proposal(String space, String id) {
        return proposals.get(key(space, id));
    }

    @Override
    public List<Memory> memories(String space) {
        return new ArrayList<>(memories.getOrDefault(space, new TreeMap<>()).values());
    }

    @Override
    public Reflection reflection(String space, String id) {
        return reflections.get(key(space, id));
    }

    @Override
    public void putReflection(String space, Reflection reflection) {
        reflections.put(key(space, reflection.getId()), reflection);
    }

    @Override
    public Grant grant(String space, String id) {
        return grants.get(key(space, id));
    }

    @Override
    public void putGrant(String space, Grant grant) {
        grants.put(key(space, grant.getId()), grant);
    }

    @Override
    public SpaceGovernance governance(String space) {
        return governance.get(space);
    }

    @Override
    public void putGovernance(String space, SpaceGovernance value) {
        governance.put(space, value);
    }

    @Override
    public RefinementSession openRefinement(String space) {
        return refinements.get(space);
    }

    @Override
    public void putMemory(String space, Memory memory) {
        memories.computeIfAbsent(space, s -> new TreeMap<>()).put(memory.getId(), memory);
    }

    @Override
    public void putActiveBlock(String space, String label, String memoryId) {
        blocks.put(key(space, label), memoryId);
    }

    @Override
    public void putRelation(String space, String fromId, String toId, String type) {
        relations.put(key(space, fromId, toId), type);
    }

    @Override
    public void deleteRelation(String space, String fromId, String toId) {
        relations.remove(key(space, fromId, toId));
    }

    @Override
    public void putProposal(String space, Proposal proposal) {
        proposals.put(key(space, proposal.getId()), proposal);
    }

    @Override
    public void putOpenRefinement(String space, RefinementSession session) {
        if (session == null) {
            refinements.remove(space);
        } else {
            refinements.put(space, session);
        }
    }

    private static String key(String... parts) {
        return String.join("\u0000", parts);
    }
}
