package io.memorychain.api.memories;

import io.memorychain.api.error.ApiException;
import io.memorychain.api.request.Enums;
import io.memorychain.api.request.InputRules;
import io.memorychain.avro.Confidence;
import io.memorychain.avro.ConsolidateMemories;
import io.memorychain.avro.CreateMemory;
import io.memorychain.avro.DeleteMemory;
import io.memorychain.avro.MemoryFlag;
import io.memorychain.avro.MemoryKind;
import io.memorychain.avro.RestoreMemory;
import io.memorychain.avro.SetFlag;
import io.memorychain.avro.Tier;
import io.memorychain.avro.UpdateMemory;

/** Turns validated JSON bodies into the Avro operations of {@code MemoryRequest}. Pure: no I/O. */
public final class MemoryRequests {

    private final InputRules rules;

    public MemoryRequests(InputRules rules) {
        this.rules = rules;
    }

    public CreateMemory create(CreateMemoryBody body) {
        if (body == null) {
            throw ApiException.invalid("A JSON body with at least 'content' is required");
        }
        MemoryKind kind = Enums.parse(MemoryKind.class, "kind", body.kind());
        if (kind == MemoryKind.BLOCK) {
            throw ApiException.invalid(
                    "kind 'block' cannot be created here: use PUT /v1/spaces/{space}/blocks/{label}");
        }
        CreateMemory.Builder b = CreateMemory.newBuilder()
                .setContent(rules.content("content", body.content()))
                .setCategory(InputRules.text("category", body.category(), InputRules.MAX_SHORT_TEXT))
                .setSummary(InputRules.text("summary", body.summary(), InputRules.MAX_SUMMARY))
                .setSource(InputRules.text("source", body.source(), InputRules.MAX_SHORT_TEXT))
                .setUserId(InputRules.text("user_id", body.userId(), InputRules.MAX_SHORT_TEXT))
                .setAgentId(InputRules.text("agent_id", body.agentId(), InputRules.MAX_SHORT_TEXT))
                .setRunId(InputRules.text("run_id", body.runId(), InputRules.MAX_SHORT_TEXT))
                .setActorId(InputRules.text("actor_id", body.actorId(), InputRules.MAX_SHORT_TEXT))
                .setThreadId(InputRules.text("thread_id", body.threadId(), InputRules.MAX_SHORT_TEXT))
                .setRole(InputRules.text("role", body.role(), InputRules.MAX_SHORT_TEXT))
                .setCreatedAt(InputRules.instant("created_at", body.createdAt()));
        if (kind != null) {
            b.setKind(kind);
        }
        Tier tier = Enums.parse(Tier.class, "tier", body.tier());
        if (tier != null) {
            b.setTier(tier);
        }
        if (body.tags() != null) {
            b.setTags(InputRules.tags("tags", body.tags()));
        }
        Integer importance = InputRules.importance(body.importance());
        if (importance != null) {
            b.setImportance(importance);
        }
        Confidence confidence = Enums.parse(Confidence.class, "confidence", body.confidence());
        if (confidence != null) {
            b.setConfidence(confidence);
        }
        if (body.pinned() != null) {
            b.setPinned(body.pinned());
        }
        return b.build();
    }

    public UpdateMemory update(String id, UpdateMemoryBody body) {
        if (body == null) {
            throw ApiException.invalid("A JSON body with the fields to change is required");
        }
        UpdateMemory op = UpdateMemory.newBuilder()
                .setId(id)
                .setContent(rules.optionalContent("content", body.content()))
                .setSummary(InputRules.text("summary", body.summary(), InputRules.MAX_SUMMARY))
                .setTags(InputRules.tags("tags", body.tags()))
                .setImportance(InputRules.importance(body.importance()))
                .setConfidence(Enums.parse(Confidence.class, "confidence", body.confidence()))
                .setCategory(InputRules.text("category", body.category(), InputRules.MAX_SHORT_TEXT))
                .setTier(Enums.parse(Tier.class, "tier", body.tier()))
                .build();
        if (op.getContent() == null
                && op.getSummary() == null
                && op.getTags() == null
                && op.getImportance() == null
                && op.getConfidence() == null
                && op.getCategory() == null
                && op.getTier() == null) {
            throw ApiException.invalid("Nothing to change: give at least one of content, summary, tags, importance, "
                    + "confidence, category, tier");
        }
        return op;
    }

    public ConsolidateMemories consolidate(String space, ConsolidateBody body) {
        if (body == null) {
            throw ApiException.invalid("A JSON body with 'ids' and 'content' is required");
        }
        return ConsolidateMemories.newBuilder()
                .setIds(rules.consolidationIds(space, body.ids()))
                .setContent(rules.content("content", body.content()))
                .setSummary(InputRules.text("summary", body.summary(), InputRules.MAX_SUMMARY))
                .setReason(InputRules.text("reason", body.reason(), InputRules.MAX_REASON))
                .setCategory(InputRules.text("category", body.category(), InputRules.MAX_SHORT_TEXT))
                .setTags(InputRules.tags("tags", body.tags()))
                .setImportance(InputRules.importance(body.importance()))
                .build();
    }

    public DeleteMemory delete(String id, String reason) {
        return DeleteMemory.newBuilder()
                .setId(id)
                .setReason(InputRules.text("reason", reason, InputRules.MAX_REASON))
                .build();
    }

    public RestoreMemory restore(String id) {
        return RestoreMemory.newBuilder().setId(id).build();
    }

    public SetFlag flag(String id, MemoryFlag flag, boolean value) {
        return SetFlag.newBuilder().setId(id).setFlag(flag).setValue(value).build();
    }
}
