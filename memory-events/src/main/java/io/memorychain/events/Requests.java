package io.memorychain.events;

import io.memorychain.avro.Actor;
import io.memorychain.avro.ActorType;
import io.memorychain.avro.CompleteRefinement;
import io.memorychain.avro.ConsolidateMemories;
import io.memorychain.avro.CreateMemory;
import io.memorychain.avro.DecideReflection;
import io.memorychain.avro.DeleteMemory;
import io.memorychain.avro.LinkMemories;
import io.memorychain.avro.MemoryFlag;
import io.memorychain.avro.MemoryRequest;
import io.memorychain.avro.ProposalDecision;
import io.memorychain.avro.ProposeReflection;
import io.memorychain.avro.ProposedMemory;
import io.memorychain.avro.RefinementTrigger;
import io.memorychain.avro.ReflectionChange;
import io.memorychain.avro.ReflectionDecisionType;
import io.memorychain.avro.ReflectionDocument;
import io.memorychain.avro.RequestReflection;
import io.memorychain.avro.ResolveProposal;
import io.memorychain.avro.RestoreMemory;
import io.memorychain.avro.SetFlag;
import io.memorychain.avro.StartRefinement;
import io.memorychain.avro.SubmitProposal;
import io.memorychain.avro.UnlinkMemories;
import io.memorychain.avro.UpdateBlock;
import io.memorychain.avro.UpdateMemory;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

/**
 * Builders for {@link MemoryRequest}s, for agents embedding this library. Each factory returns a builder with a fresh
 * request id; set {@code expectedVersion}, {@code sessionId} or a chosen request id on it before {@code build()}.
 */
public final class Requests {

    private Requests() {}

    public static Actor actor(ActorType type, String id) {
        return new Actor(type, id);
    }

    /** Parses {@code type:id}, e.g. {@code agent:planner}; throws IllegalArgumentException when malformed. */
    public static Actor parseActor(String text) {
        int colon = text == null ? -1 : text.indexOf(':');
        if (colon <= 0 || colon == text.length() - 1) {
            throw new IllegalArgumentException("actor must look like type:id, e.g. agent:planner");
        }
        try {
            return new Actor(
                    ActorType.valueOf(text.substring(0, colon).toUpperCase(java.util.Locale.ROOT)),
                    text.substring(colon + 1));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("unknown actor type '" + text.substring(0, colon)
                    + "'; use agent, subagent, user, admin, system or worker");
        }
    }

    public static MemoryRequest.Builder request(String space, Actor actor, Object op) {
        return MemoryRequest.newBuilder()
                .setRequestId(UUID.randomUUID().toString())
                .setSpace(space)
                .setActor(actor)
                .setExpectedVersion(null)
                .setSessionId(null)
                .setRequestedAt(Instant.now())
                .setOp(op);
    }

    public static MemoryRequest.Builder create(String space, Actor actor, String content) {
        return request(
                space, actor, CreateMemory.newBuilder().setContent(content).build());
    }

    public static MemoryRequest.Builder create(String space, Actor actor, CreateMemory op) {
        return request(space, actor, op);
    }

    public static MemoryRequest.Builder updateContent(String space, Actor actor, String id, String content) {
        return request(
                space,
                actor,
                UpdateMemory.newBuilder().setId(id).setContent(content).build());
    }

    public static MemoryRequest.Builder consolidate(
            String space, Actor actor, List<String> ids, String content, String reason) {
        return request(
                space,
                actor,
                ConsolidateMemories.newBuilder()
                        .setIds(ids)
                        .setContent(content)
                        .setReason(reason)
                        .build());
    }

    public static MemoryRequest.Builder delete(String space, Actor actor, String id) {
        return request(space, actor, new DeleteMemory(id, null));
    }

    /** Erase a memory for good (docs/architecture.md §12): admins and users, with a reason. */
    public static MemoryRequest.Builder erase(String space, Actor actor, String id, String reason) {
        return request(space, actor, new io.memorychain.avro.EraseMemory(id, reason));
    }

    /** Rotate the space's chain signing key to {@code newKeyId} (docs/architecture.md §4). */
    public static MemoryRequest.Builder rotateSigningKey(String space, Actor actor, String newKeyId, String reason) {
        return request(space, actor, new io.memorychain.avro.RotateSigningKey(newKeyId, reason));
    }

    /** Mark {@code keyId} compromised on the space's chain after {@code fromSeq} (docs/architecture.md §4). */
    public static MemoryRequest.Builder markKeyCompromised(
            String space, Actor actor, String keyId, long fromSeq, String reason) {
        return request(space, actor, new io.memorychain.avro.MarkKeyCompromised(keyId, fromSeq, reason));
    }

    public static MemoryRequest.Builder restore(String space, Actor actor, String id) {
        return request(space, actor, new RestoreMemory(id));
    }

    public static MemoryRequest.Builder flag(String space, Actor actor, String id, MemoryFlag flag, boolean value) {
        return request(space, actor, new SetFlag(id, flag, value));
    }

    public static MemoryRequest.Builder block(String space, Actor actor, String label, String content) {
        return request(space, actor, new UpdateBlock(label, content, true));
    }

    public static MemoryRequest.Builder link(
            String space, Actor actor, String fromId, String toId, String type, double strength) {
        return request(space, actor, new LinkMemories(fromId, toId, type, strength));
    }

    public static MemoryRequest.Builder unlink(String space, Actor actor, String fromId, String toId) {
        return request(space, actor, new UnlinkMemories(fromId, toId));
    }

    /** A sub-agent's proposal of a memory with this content (docs/architecture.md §10). */
    public static MemoryRequest.Builder propose(String space, Actor actor, String content) {
        return propose(
                space, actor, ProposedMemory.newBuilder().setContent(content).build());
    }

    public static MemoryRequest.Builder propose(String space, Actor actor, ProposedMemory proposal) {
        return request(space, actor, new SubmitProposal(proposal));
    }

    /** Commits, rejects or defers a proposal as proposed (no overrides). */
    public static MemoryRequest.Builder resolve(
            String space, Actor actor, String proposalId, ProposalDecision decision, String reason) {
        return request(
                space,
                actor,
                ResolveProposal.newBuilder()
                        .setProposalId(proposalId)
                        .setDecision(decision)
                        .setReason(reason)
                        .build());
    }

    /**
     * Opens a refinement session (admins, workers, the system); {@code targetTokens} null for the sequencer's default.
     * Knife operations of the session are the ordinary requests with {@code setSessionId(sessionId)}.
     */
    public static MemoryRequest.Builder startRefinement(
            String space, Actor actor, RefinementTrigger trigger, Integer targetTokens) {
        return request(space, actor, new StartRefinement(trigger, targetTokens, null));
    }

    /** Completes the open refinement session {@code sessionId} with the agent's summary. */
    public static MemoryRequest.Builder completeRefinement(
            String space, Actor actor, String sessionId, String summary) {
        return request(space, actor, new CompleteRefinement(summary)).setSessionId(sessionId);
    }

    /** Asks for a reflection (docs/architecture.md §18, the manual trigger). */
    public static MemoryRequest.Builder requestReflection(String space, Actor actor, String reason) {
        return request(space, actor, new RequestReflection(reason));
    }

    /** The reflection worker's pending reflection. */
    public static MemoryRequest.Builder proposeReflection(String space, Actor actor, ReflectionDocument reflection) {
        return request(space, actor, new ProposeReflection(reflection));
    }

    /**
     * Decides a pending reflection: {@code changeIds} for PARTIAL (or a subset with edits), {@code edits} for
     * APPROVE_WITH_CHANGES.
     */
    public static MemoryRequest.Builder decideReflection(
            String space,
            Actor actor,
            String reflectionId,
            ReflectionDecisionType decision,
            String reason,
            List<String> changeIds,
            List<ReflectionChange> edits) {
        return request(
                space,
                actor,
                DecideReflection.newBuilder()
                        .setReflectionId(reflectionId)
                        .setDecision(decision)
                        .setReason(reason)
                        .setChangeIds(List.copyOf(changeIds))
                        .setEditedChanges(List.copyOf(edits))
                        .build());
    }

    /** Sets a profile field (docs/architecture.md §21): at once for the user, else by the consent policy. */
    public static MemoryRequest.Builder setProfileField(
            String space,
            Actor actor,
            String field,
            String value,
            String source,
            io.memorychain.avro.Confidence confidence,
            String reason) {
        return request(
                space,
                actor,
                io.memorychain.avro.SetProfileField.newBuilder()
                        .setField(field)
                        .setValue(value)
                        .setSource(source)
                        .setConfidence(confidence)
                        .setReason(reason)
                        .build());
    }

    /** The user grants or denies a pending consent request. */
    public static MemoryRequest.Builder decideConsent(
            String space, Actor actor, String consentId, boolean grant, String reason) {
        return request(space, actor, new io.memorychain.avro.DecideConsent(consentId, grant, reason));
    }

    /** Acknowledges a critical-change alert (a user or an admin). */
    public static MemoryRequest.Builder acknowledgeAlert(String space, Actor actor, String alertId, String reason) {
        return request(space, actor, new io.memorychain.avro.AcknowledgeAlert(alertId, reason));
    }
}
