package io.memorychain.domain.decide;

import static io.memorychain.domain.RejectionCode.CONSTITUTIONAL;
import static io.memorychain.domain.RejectionCode.INVALID_ARGUMENT;
import static io.memorychain.domain.decide.Decision.reject;

import io.memorychain.avro.Confidence;
import io.memorychain.avro.ConsolidateMemories;
import io.memorychain.avro.MemoriesConsolidated;
import io.memorychain.avro.Memory;
import io.memorychain.avro.MemoryKind;
import io.memorychain.avro.MemoryState;
import io.memorychain.avro.Tier;
import io.memorychain.domain.ContentHash;
import io.memorychain.domain.MemoryIds;
import io.memorychain.domain.Rules;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.function.Function;

/** ConsolidateMemories: several active memories of a space merged into a new one that supersedes them. */
final class ConsolidationDecider {

    private final Decider decider;
    private final int maxInputs;

    ConsolidationDecider(Decider decider, int maxInputs) {
        this.decider = decider;
        this.maxInputs = maxInputs;
    }

    Decision consolidate(DecideContext ctx, ConsolidateMemories c) {
        List<String> ids = c.getIds();
        if (ids.isEmpty()) {
            return reject(INVALID_ARGUMENT, "ids must name at least one memory");
        }
        if (ids.size() > maxInputs) {
            return reject(
                    INVALID_ARGUMENT,
                    "at most " + maxInputs + " memories can be consolidated at once, got " + ids.size());
        }
        if (new HashSet<>(ids).size() != ids.size()) {
            return reject(INVALID_ARGUMENT, "ids contain duplicates");
        }
        Decision invalid = Decider.firstProblem(
                decider.checkContent(c.getContent()),
                c.getImportance() == null ? null : Decider.checkImportance(c.getImportance()),
                c.getTags() == null ? null : Decider.checkTags(c.getTags()),
                Decider.checkLength("summary", c.getSummary(), Rules.MAX_SUMMARY),
                Decider.checkLength("category", c.getCategory(), Rules.MAX_SHORT_TEXT),
                Decider.checkLength("reason", c.getReason(), Rules.MAX_REASON));
        if (invalid != null) {
            return invalid;
        }
        List<Memory> inputs = new ArrayList<>(ids.size());
        for (String id : ids) {
            DecideContext.Lookup found = ctx.active(id);
            if (found.rejection() != null) {
                return found.rejection();
            }
            Memory m = found.memory();
            if (m.getConstitutional()) {
                return reject(CONSTITUTIONAL, "memory " + id + " is constitutional and cannot be consolidated");
            }
            if (m.getKind() == MemoryKind.BLOCK) {
                return reject(INVALID_ARGUMENT, "memory " + id + " is a block; blocks are replaced, not consolidated");
            }
            inputs.add(m);
        }
        Memory first = inputs.get(0);
        Set<String> tags = new LinkedHashSet<>();
        inputs.forEach(m -> tags.addAll(m.getTags()));
        String id = MemoryIds.of(ctx.space(), ctx.seq());
        Memory created = Memory.newBuilder()
                .setId(id)
                .setSpace(ctx.space())
                .setKind(first.getKind())
                .setTier(inputs.stream().anyMatch(m -> m.getTier() == Tier.CORE) ? Tier.CORE : Tier.WORKING)
                .setBlockLabel(null)
                .setCategory(c.getCategory() != null ? c.getCategory() : first.getCategory())
                .setContent(c.getContent())
                .setSummary(c.getSummary())
                .setTags(c.getTags() != null ? List.copyOf(c.getTags()) : List.copyOf(tags))
                .setImportance(
                        c.getImportance() != null
                                ? c.getImportance()
                                : inputs.stream()
                                        .mapToInt(Memory::getImportance)
                                        .max()
                                        .orElse(3))
                .setConfidence(Confidence.MEDIUM)
                .setSource("consolidation")
                .setUserId(shared(inputs, Memory::getUserId))
                .setAgentId(shared(inputs, Memory::getAgentId))
                .setRunId(shared(inputs, Memory::getRunId))
                .setActorId(shared(inputs, Memory::getActorId))
                .setThreadId(shared(inputs, Memory::getThreadId))
                .setRole(shared(inputs, Memory::getRole))
                .setCreatedAt(inputs.stream()
                        .map(Memory::getCreatedAt)
                        .min(Comparator.naturalOrder())
                        .orElseThrow())
                .setUpdatedAt(ctx.decidedAt())
                .setVersion(1)
                .setState(MemoryState.ACTIVE)
                .setSupersededBy(null)
                .setSupersedes(List.copyOf(ids))
                .setPinned(false)
                .setConstitutional(false)
                .setContentHash(ContentHash.of(c.getContent()))
                .build();
        return new Decision.Accept(new MemoriesConsolidated(List.copyOf(ids), created, c.getReason()), id, 1);
    }

    private static String shared(List<Memory> inputs, Function<Memory, String> field) {
        String first = field.apply(inputs.get(0));
        return inputs.stream().allMatch(m -> Objects.equals(field.apply(m), first)) ? first : null;
    }
}
